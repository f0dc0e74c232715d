# Fault: the controller SIGKILLed while the fault agent's guard has another build's busy loops lowered, and started
# again on the same JENKINS_HOME. The agent's connection drops with it, so its restarter execs the agent JVM anew (same
# PID) and the guard ends with the JVM before; the loops stay in its idle group until the controller is back and first
# calls the agent's next JVM, which sends them home from what the guard wrote down and removes the group. Both builds
# resume; the guarded build's one guard line says what is true (the controller restarted, the guard's figures lost).
source "$LIVE/faults.sh"
faults_begin "guard restart"
guard_jobs
ok_lowered=0 ok_kept=0 ok_back=0 ok_group=0 ok_tests=0 ok_left=0 notes= times=
for c in $(seq "$CYCLES"); do
  guard_lowered && ok_lowered=$((ok_lowered + 1))
  old=$JENKINS_PID
  sigkill_jvm "$old"
  sleep 3
  # the agent's JVM is its restarter's new one by now, and nothing has called it yet
  in_guard_group "$FA_PID" && ok_kept=$((ok_kept + 1))
  down="loops $(where_loops)while the controller was down"
  restart_jenkins || { fail "guard restart cycle $c: Jenkins did not start again"; break; }
  t0=$(date +%s%3N)
  wait_for 120 fa_online
  online_ms=$(( $(date +%s%3N) - t0 ))
  ms_until 60 loops_home >/dev/null && ok_back=$((ok_back + 1))
  home_ms=$(( $(date +%s%3N) - t0 ))
  wait_for 5 no_guard_idle_groups "$FA_PID" && ok_group=$((ok_group + 1))
  times="$times${times:+; }cycle $c: after Jenkins was up again, the agent was online at $online_ms ms, the loops were home at $home_ms ms"
  : >"$FLAGS/f-gtests-go"
  r=$(wait_build f-gtests "$TESTS" 300); finished_console_of f-gtests "$TESTS"
  [ "$r" = SUCCESS ] && console_has 'Resuming build' && [ "$(grep -c '^\[schedpolicy\] guard: ' "$CONSOLE")" = 1 ] \
    && console_has '^\[schedpolicy\] guard: the controller restarted while the block ran' \
    && ! grep -qE '^\s+at ' "$CONSOLE" && ok_tests=$((ok_tests + 1))
  line=$(grep '^\[schedpolicy\] guard: ' "$CONSOLE" | head -1)
  end_hog
  leftovers f-guard && ok_left=$((ok_left + 1))
  notes="$notes${notes:+; }cycle $c: $down; tests $r, $LEFT"
done
check_cycles "guard restart: the agent's guard moved the hog's loops into its idle group" "$ok_lowered"
check_cycles "guard restart: controller SIGKILLed: the loops stay in the guard's group while nothing calls the agent" "$ok_kept"
check_cycles "guard restart: controller back: its first call to the agent's next JVM sends the loops home (groups and class)" "$ok_back"
check_cycles "guard restart: the guard's idle group is removed" "$ok_group"
check_cycles "guard restart: the guarded build resumes, SUCCESS, one guard line saying the controller restarted, no stack trace" "$ok_tests"
note "${line:-(no guard line)}"
check_cycles "guard restart: nothing left after the next start (processes, groups of either controller and the agent)" "$ok_left"
note "restored (busy machine): $times"
note "$notes"
guard_jobs_off
faults_end
