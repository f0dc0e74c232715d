# A measured launch belongs to the build Jenkins runs it for, never to the one JOB_NAME and BUILD_NUMBER in its
# environment name: a build that names a finished build of another job (withEnv) must leave that build's record as it
# was (build.xml and api/json read back unchanged) and find its own launch on its own page.
pipeline_job id-red <<'G'
echo 'red team'
G
run_build id-red
RED=$BUILD
check "identity: id-red #$RED ran, SUCCESS" test "$RESULT" = SUCCESS
RED_XML="$JHOME/jobs/id-red/builds/$RED/build.xml"
red_api() { jcurl "$J/job/id-red/$RED/api/json?depth=1"; }
sha256sum "$RED_XML" >"$OUT/id-red-build-xml.sha256"
red_api >"$OUT/id-red-api-before.json"
groovy 'dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setMeasureAllSteps(true); println "ok"' >>"$OUT/checks.log"
pipeline_job id-spoof <<G
node { withEnv(['JOB_NAME=id-red', 'BUILD_NUMBER=$RED']) { sh 'true' } }
G
run_build id-spoof
check "identity: id-spoof (withEnv JOB_NAME=id-red, BUILD_NUMBER=$RED around a measured sh) ran, SUCCESS" test "$RESULT" = SUCCESS
# the figures reach the build a moment after its result shows: ask again for up to 15 s
for _ in $(seq 30); do
  OWN=$(jcurl "$J/job/id-spoof/$BUILD/schedpolicy-measure/api/json?depth=2" | json_get "'|'.join(l['label'] for l in d['launches'])" 2>/dev/null)
  [ -n "$OWN" ] && break
  sleep 0.5
done
note "id-spoof #$BUILD's own measured launches: $OWN"
check "identity: the launch is measured for id-spoof #$BUILD itself (id-spoof #$BUILD › sh (no policy))" \
  test "$OWN" = "id-spoof #$BUILD › sh (no policy)"
check "identity: id-red #$RED's build.xml is unchanged" sha256sum -c "$OUT/id-red-build-xml.sha256"
red_api >"$OUT/id-red-api-after.json"
check "identity: id-red #$RED's api/json is unchanged" cmp "$OUT/id-red-api-before.json" "$OUT/id-red-api-after.json"
groovy 'dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setMeasureAllSteps(false); println "ok"' >>"$OUT/checks.log"
