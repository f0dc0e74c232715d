# Fault: the guarded build stopped by its user (POST stop) while the agent's guard has another build's busy loops
# lowered (moved into the guard's idle group). Stopping the build kills the guarded step's processes; the guard ends
# with its launch's last process and puts the loops back into their own groups and class; its group is removed; the
# stopped build says ABORTED with its one guard line, the lowered build says what it yielded. How soon after the stop
# (and after the guarded loop's end) the loops are back is measured (a note: busy machine).
source "$LIVE/faults.sh"
faults_begin "guard abort"
guard_jobs
ok_lowered=0 ok_back=0 ok_group=0 ok_tests=0 ok_hog=0 ok_left=0 notes= times=
for c in $(seq "$CYCLES"); do
  guard_lowered && ok_lowered=$((ok_lowered + 1))
  gt=$(gtests_pid)
  t0=$(date +%s%3N)
  jpost "job/f-gtests/$TESTS/stop" -o /dev/null
  FAULTS=$((FAULTS + 1))
  build_end_at f-gtests "$TESTS"
  restore_times "$t0" "${gt:-0}" && ok_back=$((ok_back + 1))
  wait_for 5 no_guard_idle_groups "$FA_PID" && ok_group=$((ok_group + 1))
  r=$(wait_build f-gtests "$TESTS" 120); finished_console_of f-gtests "$TESTS"
  build_ended
  times="$times${times:+; }cycle $c: after the stop, the guarded loop ended at $END_MS ms, the build at $(( BUILD_ENDED - t0 )) ms, the loops were home at $BACK_MS ms"
  [ "$r" = ABORTED ] && [ "$(grep -c '^\[schedpolicy\] guard: ' "$CONSOLE")" = 1 ] \
    && console_has '^\[schedpolicy\] guard: .*; acted [0-9]+ times? for .*; lowered 1 launch, .*; all put back' \
    && ! grep -qE '^\s+at |Exception' "$CONSOLE" && ok_tests=$((ok_tests + 1))
  line=$(grep '^\[schedpolicy\] guard: ' "$CONSOLE" | head -1)
  end_hog; finished_console_of f-ghog "$HOG"
  grep -qE '^\[schedpolicy\] yielded for [0-9.]+ s in all \([0-9]+ times?\) to guarded steps of 1 other build' "$CONSOLE" \
    && ok_hog=$((ok_hog + 1))
  hogline=$(grep '^\[schedpolicy\] yielded ' "$CONSOLE" | head -1)
  leftovers f-guard && ok_left=$((ok_left + 1))
  notes="$notes${notes:+; }cycle $c: tests $r, loops $(where_loops)at the end, $LEFT"
done
check_cycles "guard abort: the agent's guard moved the hog's loops into its idle group" "$ok_lowered"
check_cycles "guard abort: the guarded build stopped: the loops are back in their own groups and class (/proc)" "$ok_back"
check_cycles "guard abort: the guard's idle group is removed" "$ok_group"
check_cycles "guard abort: the stopped build is ABORTED with one guard line saying it acted and put all back, no stack trace" "$ok_tests"
note "${line:-(no guard line)}"
check_cycles "guard abort: the lowered build says once that it yielded to 1 other build" "$ok_hog"
note "${hogline:-(no yielded line)}"
check_cycles "guard abort: nothing left after the next start" "$ok_left"
note "restored (busy machine): $times"
note "$notes"
guard_jobs_off
faults_end
