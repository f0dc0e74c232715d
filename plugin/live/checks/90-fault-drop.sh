# Fault: an inbound agent's connection dropped mid-step and restored (the agent JVM reconnects by itself): the sh keeps
# its policy and group meanwhile, durable-task picks the step up again, and the block's end removes its group.
source "$LIVE/faults.sh"
faults_begin "connection drop"
blocking_job f-drop fault "policy: 'idle', cpuQuota: 50"
ok_kept=0 ok_build=0 ok_left=0 ok_usage=0 notes=
fa_offline() { ! fa_online; }
for c in $(seq "$CYCLES"); do
  fresh_flags f-drop
  n=$(started_blocking f-drop) || { fail "drop cycle $c: the block did not start"; break; }
  jpost computer/fault-agent/doDisconnect --data-urlencode 'offlineMessage=fault suite: connection dropped' -o /dev/null
  FAULTS=$((FAULTS + 1))
  wait_for 10 fa_offline
  kernel_all f-drop 5 "/schedpolicy-$FA_PID-" >>"$OUT/checks.log" && ok_kept=$((ok_kept + 1))
  wait_for 120 fa_online
  : >"$FLAGS/f-drop-go"
  r=$(wait_build f-drop "$n" 300); console_of f-drop "$n"
  [ "$r" = SUCCESS ] && console_has '^KERNEL f-drop-after .* policy=5 .*quota=50000' && ok_build=$((ok_build + 1))
  console_has '^\[schedpolicy\] block cgroup usage' && ok_usage=$((ok_usage + 1))
  leftovers f-drop && ok_left=$((ok_left + 1))
  notes="$notes${notes:+; }cycle $c: $r, agent pid $FA_PID, $LEFT"
done
check_cycles "connection dropped mid-step: the sh keeps class idle and its group while the agent is offline" "$ok_kept"
check_cycles "connection restored: durable-task picks the step up again, the sh ends idle in its 50% group, SUCCESS" "$ok_build"
check_cycles "connection restored: the block ends with its cgroup usage, its group (the earlier connection's) removed" "$ok_usage"
check_cycles "connection drops: nothing left" "$ok_left"
note "$notes"
faults_end
