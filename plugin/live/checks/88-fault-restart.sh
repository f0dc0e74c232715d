# Fault: the controller SIGKILLed while a block's sh runs on the built-in node, and started again on the same
# JENKINS_HOME: the orphaned sh keeps its policy and group, the build resumes, its record and console keep the launch.
source "$LIVE/faults.sh"
faults_begin "controller restart"
blocking_job f-restart built-in "policy: 'idle', cpuQuota: 50" \
  "withSchedPolicy(policy: 'batch', cpuQuota: 60) { sh '$KV f-restart-resumed' }"
ok_kernel=0 ok_kept=0 ok_build=0 ok_resumed=0 ok_left=0 ok_line=0 ok_record=0 ok_usage=0 notes=
for c in $(seq "$CYCLES"); do
  fresh_flags f-restart
  n=$(started_blocking f-restart) || { fail "restart cycle $c: the block did not start"; break; }
  old=$JENKINS_PID
  kernel_all f-restart 5 "/schedpolicy-$old-" >>"$OUT/checks.log" && ok_kernel=$((ok_kernel + 1))
  sigkill_jvm "$old"
  kernel_all f-restart 5 "/schedpolicy-$old-" >>"$OUT/checks.log" && ok_kept=$((ok_kept + 1))
  restart_jenkins || { fail "restart cycle $c: Jenkins did not start again"; break; }
  : >"$FLAGS/f-restart-go"
  r=$(wait_build f-restart "$n" 300); console_of f-restart "$n"
  [ "$r" = SUCCESS ] && console_has '^KERNEL f-restart-after .* policy=5 ' && ok_build=$((ok_build + 1))
  grep -q "verified: class idle, .*cpu cgroup /schedpolicy-$old-" "$CONSOLE" && ok_line=$((ok_line + 1))
  [ "$(grep -c '<dev.schedpolicy.engine.agent.LaunchRecord>' "$JHOME/jobs/f-restart/builds/$n/build.xml")" = 2 ] \
    && grep -q "<cpuCgroup>/schedpolicy-$old-" "$JHOME/jobs/f-restart/builds/$n/build.xml" && ok_record=$((ok_record + 1))
  [ "$(grep -c '^\[schedpolicy\] block cgroup usage' "$CONSOLE")" = 2 ] && ok_usage=$((ok_usage + 1))
  console_has 'Resuming build' && console_has '^KERNEL f-restart-resumed .* policy=3 .*quota=60000' \
    && console_has "^\[schedpolicy\] .*: pid [0-9]* verified: class batch" && ok_resumed=$((ok_resumed + 1))
  leftovers f-restart && ok_left=$((ok_left + 1))
  notes="$notes${notes:+; }cycle $c: $r, $LEFT"
done
check_cycles "controller SIGKILLed mid-block: the running sh is class idle in its quota group before" "$ok_kernel"
check_cycles "controller SIGKILLed: the orphaned sh keeps class idle and its group (the kernel's view)" "$ok_kept"
check_cycles "controller started again on the same JENKINS_HOME: the build resumes, the sh ends still idle, SUCCESS" "$ok_build"
check_cycles "after resuming: 'Resuming build' in the console, the next block's sh is policed (batch, quota 60%) and verified" "$ok_resumed"
check_cycles "controller SIGKILLed: the console kept the verified line of the launch made before the kill" "$ok_line"
check_cycles "controller SIGKILLed: the build's saved record (build.xml) holds both launches, the first in the dead JVM's group" "$ok_record"
# the first block's group is the dead JVM's: empty once its sh ended, any engine start on the machine may sweep it before
# the block's end does, so its usage line is counted, not required
note "controller restarts: both blocks ended with their cgroup usage in $ok_usage of $CYCLES cycles"
check_cycles "controller restarts: nothing left after the next start (processes, groups of either JVM, handshakes)" "$ok_left"
note "$notes"
faults_end
