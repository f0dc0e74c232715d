# Fault: the fault agent's connection dropped (doDisconnect; agent.jar reconnects by itself) while its guard has another
# build's busy loops lowered. The guarded step runs on across the reconnect; once it ends, nothing stays lowered: the
# loops are back in their own groups and class, the guard's idle group is removed; both builds end SUCCESS and their
# consoles say what is true. How soon after the guarded step's end the loops are back is measured (busy machine).
source "$LIVE/faults.sh"
faults_begin "guard drop"
guard_jobs
fa_offline() { ! fa_online; }
ok_running=0 ok_lowered=0 ok_back=0 ok_group=0 ok_tests=0 ok_hog=0 ok_left=0 notes= times=
for c in $(seq "$CYCLES"); do
  guard_lowered && ok_lowered=$((ok_lowered + 1))
  gt=$(gtests_pid)
  jpost computer/fault-agent/doDisconnect --data-urlencode 'offlineMessage=fault suite: connection dropped' -o /dev/null
  FAULTS=$((FAULTS + 1))
  t0=$(date +%s%3N)
  wait_for 10 fa_offline
  offline="loops $(where_loops)while offline"
  wait_for 120 fa_online
  online_ms=$(( $(date +%s%3N) - t0 ))
  # the agent's JVM, exec'd anew by its restarter as the connection dropped, took its guard with it: the first call of
  # the controller to the agent's next JVM sends the loops home, while the guarded step still runs
  back=$(ms_until 20 loops_home) && ok_back=$((ok_back + 1))
  home_ms=$(( $(date +%s%3N) - t0 ))
  wait_for 5 no_guard_idle_groups "$FA_PID" && ok_group=$((ok_group + 1))
  kill -0 "${gt:-0}" 2>/dev/null && ok_running=$((ok_running + 1))
  : >"$FLAGS/f-gtests-go"
  r=$(wait_build f-gtests "$TESTS" 120); finished_console_of f-gtests "$TESTS"
  times="$times${times:+; }cycle $c: after the drop, the agent was online again at $online_ms ms, the loops were home at $home_ms ms"
  # durable-task's own line names the closed channel's exception ("fault-agent seems to be removed or offline (...)")
  [ "$r" = SUCCESS ] && [ "$(grep -c '^\[schedpolicy\] guard: ' "$CONSOLE")" = 1 ] && ! grep -qE '^\s+at ' "$CONSOLE" \
    && console_has "^\[schedpolicy\] guard: no record of 1 guarded launch: the agent's connection ended while it ran" \
    && ok_tests=$((ok_tests + 1))
  line=$(grep '^\[schedpolicy\] guard: ' "$CONSOLE" | head -1)
  end_hog; finished_console_of f-ghog "$HOG"
  hogline=$(grep '^\[schedpolicy\] yielded ' "$CONSOLE" | head -1)
  leftovers f-guard && ok_left=$((ok_left + 1))
  notes="$notes${notes:+; }cycle $c: $offline; tests $r, $LEFT"
done
check_cycles "guard drop: the agent's guard moved the hog's loops into its idle group" "$ok_lowered"
check_cycles "guard drop: connection dropped, the agent back: the loops are back in their own groups and class (/proc)" "$ok_back"
check_cycles "guard drop: ... while the guarded step still runs (durable-task keeps it across the reconnect)" "$ok_running"
check_cycles "guard drop: the guard's idle group is removed" "$ok_group"
check_cycles "guard drop: the guarded build ends SUCCESS with one guard line saying its guard ended with the connection, no stack trace" "$ok_tests"
note "${line:-(no guard line)}"
note "hog: ${hogline:-(no yielded line)}"
check_cycles "guard drop: nothing left after the next start" "$ok_left"
note "restored (busy machine): $times"
note "$notes"
guard_jobs_off
faults_end
