# Fault: an inbound agent's JVM SIGKILLed while its guard has another build's busy loops lowered (moved into the
# guard's idle group), then started again. Nothing puts them back while the agent is dead; the agent's next JVM sends
# them home from what the guard wrote down before moving them (as the controller first calls it on connecting, or at
# its first launch), and removes the group.
source "$LIVE/faults.sh"
faults_begin "guard agent kill"
groovy "def c = dev.schedpolicy.jenkins.SchedPolicyConfiguration.get(); c.setMeasureAllSteps(true); c.setGuardJobs('f-gtests');
println 'ok'" >>"$OUT/checks.log"
# the hog is measured, so its launch goes through the agent (unlowered) and the guard may lower it
pipeline_job f-ghog <<G
node('fault') { withEnv(['FAULTMARK=f-ghog']) {
  sh 'for i in 1 2; do timeout 300 taskset -c 0 sh -c ": ghog-loop; while :; do :; done" & done; : > $FLAGS/f-ghog-started; wait'
} }
G
pipeline_job f-gtests <<G
node('fault') { withSchedGuard { sh 'timeout 300 taskset -c 0 sh -c ": gtests-loop; while :; do :; done" || true' } }
G
pipeline_job f-gnext <<G
node('fault') { sh 'true' }
G
ghog_pids() { pgrep -f '^sh -c : ghog-loop' | sort; }
in_group_of() { local p; for p in $2; do [[ "$(cg_of "$p")" == /schedpolicy-$1-* ]] || return 1; done; test -n "$2"; }
homes_back() { local p; for p in $HOG_LOOPS; do test "$(cg_of "$p")" = "${HOME_OF[$p]}" || return 1; done; }
ok_lowered=0 ok_kept=0 ok_back=0 ok_left=0 notes=
for c in $(seq "$CYCLES"); do
  rm -f "$FLAGS/f-ghog-started"
  hog=$(start_build f-ghog) && wait_for 120 test -e "$FLAGS/f-ghog-started" || { fail "guard kill cycle $c: the hog did not start"; break; }
  wait_for 30 bash -c "test \$(pgrep -cf '^sh -c : ghog-loop') -ge 2" || true
  HOG_LOOPS=$(ghog_pids | tr '\n' ' ')
  declare -A HOME_OF=()
  for p in $HOG_LOOPS; do HOME_OF[$p]=$(cg_of "$p"); done
  tests=$(start_build f-gtests)
  dead=$FA_PID
  wait_for 60 in_group_of "$dead" "$HOG_LOOPS" && ok_lowered=$((ok_lowered + 1))
  sigkill_jvm "$dead"
  pkill -f '^sh -c : gtests-loop' 2>/dev/null
  sleep 2
  in_group_of "$dead" "$HOG_LOOPS" && ok_kept=$((ok_kept + 1))
  notes="$notes${notes:+; }cycle $c: loops $HOG_LOOPS in $(for p in $HOG_LOOPS; do printf '%s ' "$(cg_of "$p")"; done)after the kill"
  fa_start || { fail "guard kill cycle $c: the agent did not come back"; break; }
  run_build f-gnext
  wait_for 20 homes_back && ok_back=$((ok_back + 1))
  notes="$notes, $(for p in $HOG_LOOPS; do printf '%s ' "$(cg_of "$p")"; done)after the next launch"
  for p in $HOG_LOOPS; do kill "$p" 2>/dev/null; done
  jpost "job/f-ghog/$hog/stop" -o /dev/null; wait_build f-ghog "$hog" 120 >/dev/null
  jpost "job/f-gtests/$tests/stop" -o /dev/null; wait_build f-gtests "$tests" 120 >/dev/null
  leftovers f-ghog && ok_left=$((ok_left + 1))
  notes="$notes, $LEFT"
done
check_cycles "guard: the agent's guard moved the hog's loops into its idle group" "$ok_lowered"
check_cycles "guard: agent JVM SIGKILLed: the loops stay in the dead guard's group (nothing else puts them back)" "$ok_kept"
check_cycles "guard: the agent's next JVM (connected, one launch made) has sent them home, into the groups they came from" "$ok_back"
check_cycles "guard: nothing left after the next start (the dead guard's group removed)" "$ok_left"
note "$notes"
groovy "def c = dev.schedpolicy.jenkins.SchedPolicyConfiguration.get(); c.setMeasureAllSteps(false); c.setGuardJobs('');
println 'ok'" >>"$OUT/checks.log"
faults_end
