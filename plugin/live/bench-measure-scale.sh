# Benchmark, not a check of the default suite: what measuring every step costs a long build. A Pipeline of
# MEASURE_STEPS `sh 'true'` steps (default 5,000) on the built-in node, built with measuring off and then with every
# step measured (the global switch); prints each build's time and the time measuring added per launch, the sizes of
# the measured build's build.xml and schedpolicy-measure.xml, and the time and size of its build page and of one
# stage's detail page. Run it as an extra check file:
#   plugin/live/suite.sh WAR PLUGINS plugin/live/bench-measure-scale.sh
# The targets (docs/jenkins.md): build.xml and the measure file under 2 MB each, the build page under 500 KB and 1 s,
# under 1 ms added per launch. Sizes are checked; times are printed, since they mean something on a quiet machine only.
N=${MEASURE_STEPS:-5000}
measure_all() { groovy "dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setMeasureAllSteps($1); println 'ok'" >>"$OUT/checks.log"; }
# the steps in stages of 500, as a long build has them: the page groups launches by stage
PER=$(( N < 500 ? N : 500 )); STAGES=$(( (N + PER - 1) / PER )); N=$(( STAGES * PER ))
pipeline_job m-scale <<G
node { for (int s = 0; s < $STAGES; s++) { stage("Part \${s}") { for (int i = 0; i < $PER; i++) { sh 'true' } } } }
G
duration_ms() { jcurl "$J/job/m-scale/$1/api/json?tree=duration" | sed -n 's/.*"duration":\([0-9]*\).*/\1/p'; }
bytes() { stat -c %s "$1" 2>/dev/null || echo 0; }
# page_stats PATH: "SECONDS BYTES" of five fetches' median time (the first, which reads the build's files, apart)
page_stats() {
  local first times
  first=$(jcurl -o /dev/null -w '%{time_total} %{size_download}' "$J/$1")
  times=$(for _ in 1 2 3 4 5; do jcurl -o /dev/null -w '%{time_total}\n' "$J/$1"; done | sort -n | sed -n 3p)
  echo "$times ${first#* } ${first% *}"
}

measure_all false
run_build m-scale 7200
check "measure scale: $N sh steps, measuring off: SUCCESS" test "$RESULT" = SUCCESS
OFF=$BUILD; OFF_MS=$(duration_ms "$OFF")
measure_all true
run_build m-scale 7200
check "measure scale: $N sh steps, every one measured: SUCCESS" test "$RESULT" = SUCCESS
ON=$BUILD; ON_MS=$(duration_ms "$ON")
measure_all false
DIR="$JHOME/jobs/m-scale/builds/$ON"
# the last launches' figures reach the build a moment after its result (its end collects them): ask for up to 60 s
for _ in $(seq 120); do
  launches=$(jcurl "$J/job/m-scale/$ON/schedpolicy-measure/api/json?tree=launches%5Bnode%5D" \
    | json_get "len(d['launches'])" 2>/dev/null)
  [ "${launches:-0}" = "$N" ] && break
  sleep 0.5
done
check "measure scale: all $N launches measured and collected (got $launches)" test "$launches" = "$N"
XML=$(bytes "$DIR/build.xml"); MEASURE=$(bytes "$DIR/schedpolicy-measure.xml")
check "measure scale: build.xml $XML bytes, under 2 MB" test "$XML" -lt 2000000
check "measure scale: schedpolicy-measure.xml $MEASURE bytes, under 2 MB" test "$MEASURE" -lt 2000000
read -r PAGE_S PAGE_BYTES PAGE_FIRST_S <<<"$(page_stats "job/m-scale/$ON/")"
check "measure scale: the build page $PAGE_BYTES bytes, under 500 KB" test "$PAGE_BYTES" -lt 500000
read -r STAGE_S STAGE_BYTES STAGE_FIRST_S <<<"$(page_stats "job/m-scale/$ON/schedpolicy-measure/?stage=Part+1")"
note "measuring off: $OFF_MS ms for $N launches; on: $ON_MS ms; added per launch: $(python3 -c "print(round(($ON_MS - $OFF_MS) / $N, 2))") ms"
note "build page: $PAGE_S s (median of 5; the first fetch $PAGE_FIRST_S s), $PAGE_BYTES bytes; a stage's detail page: $STAGE_S s (first $STAGE_FIRST_S s), $STAGE_BYTES bytes"
note "load average during the run: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
