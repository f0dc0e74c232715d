# withSchedGuard on the built-in node (docs/jenkins.md, "Guarding a test step"): the administrator lets job 'tests'
# guard; job 'hog' runs two unlowered busy loops (measured, so its launch goes through the agent at policy normal) on
# CPU 0, where 'tests' runs a fixed CPU work unit (sysbench, one thread) inside withSchedGuard. PASS when 'tests' has
# the one guard line, the hog's loops sat in the guard's idle group while 'tests' ran (read from /proc) and are back in
# their own groups after, and job 'compile', not allowed, gets the one-line refusal. The speed 'tests' kept is reported
# (a note, not a check: the machine may be busy). Then the administrator's rule by stage name (guardStages '(?i)test'):
# job 'stage-tests', allowed, runs the same work in a stage 'Test' with no withSchedGuard beside the same hog: PASS when
# the stage gets one guard line that says it acted, the hog's loops sat in the guard's idle group meanwhile, and the
# build page shows the stage's block. Then freestyle: job 'fs-tests', allowed, runs the same work under the build
# wrapper "Guard this build's steps" beside the same hog: the same checks. The hog, stopped, says in one console line
# that it yielded to three builds of other jobs, and its page and api/json name them; the fleet view's guard column
# says how long guards acted on the node and its launches yielded. Then, with the global default
# 'idle', job 'floor-tests' shows the default is no floor for a guarded step: its plain sh runs idle, its
# withSchedGuard sh and its sh in stage 'Test' (the rule) run normal at nice 0, as the kernel reports them to the scripts.
GUARD_EVENTS=${GUARD_EVENTS:-6000}
groovy "def c = dev.schedpolicy.jenkins.SchedPolicyConfiguration.get(); c.setMeasureAllSteps(true); c.setGuardJobs('tests|stage-tests|fs-tests|floor-tests');
Jenkins.get().setNumExecutors(3); println 'ok'" >>"$OUT/checks.log"
guard_work="taskset -c 0 sysbench cpu --threads=1 --cpu-max-prime=10000 --events=$GUARD_EVENTS --time=0 run | grep 'total time'"
pipeline_job tests <<G
node { withSchedGuard { sh "$guard_work" } }
G
pipeline_job compile <<G
node { withSchedGuard { sh "$guard_work" } }
G
pipeline_job stage-tests <<G
node { stage('Build') { sh 'echo build-ran' }; stage('Test') { sh "$guard_work" } }
G
create_job fs-tests <<X
<project><buildWrappers><dev.schedpolicy.jenkins.SchedGuardWrapper/></buildWrappers>
<builders><hudson.tasks.Shell><command>$guard_work</command></hudson.tasks.Shell></builders></project>
X
pipeline_job floor-tests <<G
node { sh '$KV plain'; withSchedGuard { sh '$KV guarded' }; stage('Test') { sh '$KV staged' } }
G
pipeline_job hog <<'G'
node { sh 'echo hog-started; for i in 1 2; do timeout 120 taskset -c 0 sh -c ": hog-loop; while :; do :; done" & done; wait' }
G
guard_seconds() { sed -n 's/.*total time: *\([0-9.]*\)s.*/\1/p' "$CONSOLE" | head -1; }
guard_line() { grep '^\[schedpolicy\] guard: ' "$CONSOLE"; }

run_build tests
ALONE=$(guard_seconds)
check "guard: 'tests' alone: SUCCESS with one guard line" bash -c "test '$RESULT' = SUCCESS && test \$(grep -c '^\[schedpolicy\] guard: ' '$CONSOLE') = 1"
note "alone: $(guard_line)"

HOG=$(start_build hog)
hog_pids() { pgrep -f '^sh -c : hog-loop' | sort; }
wait_for 60 bash -c "test \$(pgrep -cf '^sh -c : hog-loop') -ge 2" || true
HOG_PIDS=$(hog_pids | tr '\n' ' ')
declare -A HOME_OF
for p in $HOG_PIDS; do HOME_OF[$p]=$(cg_of "$p"); done
note "hog #$HOG loops: $HOG_PIDS in $(for p in $HOG_PIDS; do printf '%s ' "${HOME_OF[$p]}"; done)"
# sample_groups FILE: what /proc says of the loops' groups, every 100 ms until stop_sampling
sample_groups() {
  : >"$1"; ( while [ ! -e "$OUT/guard-done" ]; do for p in $HOG_PIDS; do echo "$p $(cg_of "$p")"; done >>"$1"; sleep 0.1; done ) &
  SAMPLER=$!
}
stop_sampling() { touch "$OUT/guard-done"; wait "$SAMPLER" 2>/dev/null; rm -f "$OUT/guard-done"; }
SEEN="$OUT/guard-hog-groups.txt"
sample_groups "$SEEN"
run_build tests
stop_sampling
TESTS_GUARDED=$BUILD
GUARDED=$(guard_seconds)
GUARDED_CONSOLE=$CONSOLE
check "guard: 'tests' beside the hog: SUCCESS, exactly one guard line, saying it acted and lowered another launch, all put back" \
  bash -c "test '$RESULT' = SUCCESS && test \$(grep -c '^\[schedpolicy\] guard: ' '$CONSOLE') = 1 \
    && grep -qE '^\[schedpolicy\] guard: .*; acted [0-9]+ times? for .*; lowered 1 launch, [0-9]+ times? in all: another launch on this agent; all put back' '$CONSOLE'"
note "beside the hog: $(guard_line)"
GUARD_JSON=$(jcurl -g "$J/job/tests/$BUILD/api/json?tree=actions[guardedBlocks[line,lowered,actions]]")
guard_block() { json_get "[b$1 for a in d['actions'] for b in a.get('guardedBlocks', [])]" <<<"$GUARD_JSON"; }
api_line=$(json_get "''.join(b['line'] for a in d['actions'] for b in a.get('guardedBlocks', []))" <<<"$GUARD_JSON")
# the console names launches of the build's own job only; the page and api/json name those the viewer may read
hog_named=$(guard_line | sed "s/: another launch on this agent;/: hog #$HOG › sh (no policy);/")
check "guard: 'tests' api/json has the block: it acted, the hog's launch named (nothing restricts this viewer), the console's line but for that name ($api_line)" \
  test "$(guard_block "['actions'] > 0") $(guard_block "['lowered']") [schedpolicy] $api_line" \
    = "[True] [['hog #$HOG › sh (no policy)']] $hog_named"
check "guard: 'tests' build page shows the block in the guard's summary" \
  grep -q 'class="schedpolicy-guard-block">guard: waited ' <<<"$(jcurl "$J/job/tests/$BUILD/")"
shot "job/tests/$BUILD/" guard-build
lowered_all() { local p; for p in $HOG_PIDS; do grep -q "^$p /schedpolicy-" "$SEEN" || return 1; done; test -n "$HOG_PIDS"; }
check "guard: each of the hog's loops sat in the guard's idle group (/schedpolicy-...) while 'tests' ran" lowered_all
note "samples per group: $(awk '{print $2}' "$SEEN" | sort | uniq -c | tr -s ' \n' ' ')"
back_home() { local p; for p in $HOG_PIDS; do test "$(cg_of "$p")" = "${HOME_OF[$p]}" || return 1; done; }
check "guard: the hog's loops are back in their own groups after 'tests' ended" wait_for 2 back_home

SEEN_COMPILE="$OUT/guard-hog-groups-compile.txt"
sample_groups "$SEEN_COMPILE"
run_build compile
stop_sampling
UNGUARDED=$(guard_seconds)
check "guard: 'compile', not allowed, gets exactly one refusal line and no guard line; its body ran" \
  bash -c "test '$RESULT' = SUCCESS && test \$(grep -c \"^\[schedpolicy\] withSchedGuard: not guarded, job 'compile' is not among the jobs an administrator lets guard\" '$CONSOLE') = 1 \
    && ! grep -q '^\[schedpolicy\] guard: ' '$CONSOLE' && grep -q 'total time' '$CONSOLE'"
note "refusal: $(grep -m1 'withSchedGuard: not guarded' "$CONSOLE")"
check "guard: the hog's loops were never lowered while 'compile' ran (read every 100 ms)" \
  bash -c "test -s '$SEEN_COMPILE' && ! grep -q ' /schedpolicy-' '$SEEN_COMPILE'"

groovy "dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setGuardStages('(?i)test'); println 'ok'" >>"$OUT/checks.log"
# guarded_beside_hog JOB WHAT SHOT: runs JOB beside the hog, sampling the loops' groups; checks its one guard line
# (it acted, lowered another launch, put all back), the loops in the guard's idle group meanwhile and back after, and
# the block on the build page; sets GUARDED_SECONDS
guarded_beside_hog() {
  local job=$1 what=$2 seen="$OUT/guard-hog-groups-$1.txt"
  sample_groups "$seen"
  run_build "$job"
  stop_sampling
  GUARDED_SECONDS=$(guard_seconds)
  check "guard: $what beside the hog: SUCCESS, exactly one guard line, saying it acted and lowered another launch" \
    bash -c "test '$RESULT' = SUCCESS && test \$(grep -c '^\[schedpolicy\] guard: ' '$CONSOLE') = 1 \
      && grep -qE '^\[schedpolicy\] guard: .*; acted [0-9]+ times? for .*; lowered 1 launch, [0-9]+ times? in all: another launch on this agent; all put back' '$CONSOLE'"
  note "$what: $(guard_line)"
  lowered_in() { local p; for p in $HOG_PIDS; do grep -q "^$p /schedpolicy-" "$1" || return 1; done; test -n "$HOG_PIDS"; }
  check "guard: each of the hog's loops sat in the guard's idle group while $what ran" lowered_in "$seen"
  check "guard: '$job' build page shows the block in the guard's summary" \
    grep -q 'class="schedpolicy-guard-block">guard: waited ' <<<"$(jcurl "$J/job/$job/$BUILD/")"
  shot "job/$job/$BUILD/" "$3"
  check "guard: the hog's loops are back in their own groups after $what ended" wait_for 2 back_home
}
guarded_beside_hog stage-tests "stage 'Test' of 'stage-tests' (no withSchedGuard)" guard-stage-build
STAGED=$GUARDED_SECONDS STAGE_BUILD=$BUILD
guarded_beside_hog fs-tests "freestyle 'fs-tests' (Guard this build's steps)" guard-freestyle-build
FREESTYLE=$GUARDED_SECONDS FS_BUILD=$BUILD

jpost "job/hog/$HOG/stop" -o /dev/null
wait_build hog "$HOG" 60 >/dev/null
for p in $HOG_PIDS; do kill "$p" 2>/dev/null; done
# the lowered build is told: one console line at its end (guarding builds of other jobs counted, never named), and on
# its page and api/json the guarding builds this viewer may read, each with its time
finished_console_of hog "$HOG"
check "guard: the lowered 'hog' says once, at its end, that it yielded to the 3 guarded builds of other jobs, naming none" \
  bash -c "test \$(grep -c '^\[schedpolicy\] yielded ' '$CONSOLE') = 1 && grep -qE '^\[schedpolicy\] yielded for [0-9.]+ s in all \([0-9]+ times\) to guarded steps of 3 other builds \([0-9.]+ s\); details on the build page$' '$CONSOLE'"
note "hog: $(grep '^\[schedpolicy\] yielded ' "$CONSOLE")"
YIELD_JSON=$(jcurl -g "$J/job/hog/$HOG/api/json?tree=actions[yieldedSeconds,yieldedTimes,yieldedTo,line]")
yielded_to=$(json_get "[t.split(' (')[0] for a in d['actions'] for t in a.get('yieldedTo', [])]" <<<"$YIELD_JSON")
check "guard: 'hog' api/json names the builds it yielded to, each with its time (nothing restricts this viewer): $yielded_to" \
  test "$yielded_to" = "['tests #$TESTS_GUARDED', 'stage-tests #$STAGE_BUILD', 'fs-tests #$FS_BUILD']"
check "guard: 'hog' build page shows what it yielded" \
  grep -q 'class="schedpolicy-yielded-line">yielded for ' <<<"$(jcurl "$J/job/hog/$HOG/")"
shot "job/hog/$HOG/" guard-yielded-build
# the fleet view's guard column for the built-in node, over the builds this viewer may read
fleet_guard=$(jcurl "$J/manage/schedpolicy-fleet/api/json" | json_get "row('built-in').get('guardTimes')")
check "guard: the fleet view says how long guards acted on the built-in node and its launches yielded ($fleet_guard)" \
  python3 -c "import re, sys; m = re.fullmatch(r'acted ([0-9.]+) s, yielded ([0-9.]+) s', sys.argv[1]); \
sys.exit(0 if m and float(m.group(1)) > 0 and float(m.group(2)) > 0 else 1)" "$fleet_guard"
shot "manage/schedpolicy-fleet/" guard-fleet
kept() { python3 -c "import sys; a, b = float(sys.argv[1] or 0), float(sys.argv[2] or 0); print(f'{100 * a / b:.0f}%' if a and b else 'n/a')" "$1" "$2"; }
note "speed 'tests' kept beside two busy loops on its CPU (busy machine, not a figure to quote): guarded $(kept "$ALONE" "$GUARDED")" \
  "($ALONE s alone, $GUARDED s guarded), unguarded $(kept "$ALONE" "$UNGUARDED") ($UNGUARDED s), guarded by stage name" \
  "$(kept "$ALONE" "$STAGED") ($STAGED s), freestyle $(kept "$ALONE" "$FREESTYLE") ($FREESTYLE s)"
groovy "dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setDefaultPolicy('idle'); println 'ok'" >>"$OUT/checks.log"
run_build floor-tests
check "guard: under the default 'idle', 'floor-tests' runs its plain sh idle and its guarded sh (withSchedGuard, stage 'Test') normal, nice 0" \
  test "$RESULT $(kernel_field plain policy) $(kernel_field guarded policy) $(kernel_field guarded nice) $(kernel_field staged policy) $(kernel_field staged nice)" \
    = "SUCCESS 5 0 0 0 0"
note "$(kernel_line plain | cut -d' ' -f1-5); $(kernel_line guarded | cut -d' ' -f1-5); $(kernel_line staged | cut -d' ' -f1-5)"
groovy "def c = dev.schedpolicy.jenkins.SchedPolicyConfiguration.get(); c.setMeasureAllSteps(false); c.setGuardJobs(''); c.setGuardStages('');
c.setDefaultPolicy('');
println 'ok'" \
  >>"$OUT/checks.log"
