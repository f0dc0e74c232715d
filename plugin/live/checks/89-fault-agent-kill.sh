# Fault: an inbound agent's JVM SIGKILLed while a block runs on it, and started again: the sh runs on in the dead
# agent's group, the build reconnects to it, and the agent's next start removes what the dead JVM left.
source "$LIVE/faults.sh"
faults_begin "agent kill"
blocking_job f-agentkill fault "policy: 'idle', cpuQuota: 50" \
  "withSchedPolicy(cpuQuota: 60) { sh '$KV f-agentkill-next' }"
pipeline_job f-sweep <<G
node('fault') { withSchedPolicy(cpuQuota: 70) { sh 'true' } }
G
ok_kept=0 ok_build=0 ok_log=0 ok_sweep=0 ok_left=0 ok_usage=0 notes=
for c in $(seq "$CYCLES"); do
  fresh_flags f-agentkill
  n=$(started_blocking f-agentkill) || { fail "agent kill cycle $c: the block did not start"; break; }
  dead=$FA_PID
  sigkill_jvm "$dead"
  kernel_all f-agentkill 5 "/schedpolicy-$dead-" >>"$OUT/checks.log" && ok_kept=$((ok_kept + 1))
  fa_start || { fail "agent kill cycle $c: the agent did not come back"; break; }
  : >"$FLAGS/f-agentkill-go"
  r=$(wait_build f-agentkill "$n" 300); console_of f-agentkill "$n"
  [ "$r" = SUCCESS ] && console_has '^KERNEL f-agentkill-after .* policy=5 ' && console_has '^KERNEL f-agentkill-next .*quota=60000' \
    && ok_build=$((ok_build + 1))
  console_has 'fault-agent seems to be removed or offline' && console_has 'fault-agent is back online' \
    && ok_log=$((ok_log + 1))
  [ "$(grep -c '^\[schedpolicy\] block cgroup usage' "$CONSOLE")" = 2 ] && ok_usage=$((ok_usage + 1))
  # the agent's own next start: a cgroup block on a fresh agent JVM sweeps the dead one's empty group
  wait_for 30 no_procs_marked f-agentkill
  fa_stop; fa_start
  run_build f-sweep
  [ "$RESULT" = SUCCESS ] && [ -z "$(groups_made_by "$dead")" ] && ok_sweep=$((ok_sweep + 1))
  leftovers f-agentkill && ok_left=$((ok_left + 1))
  notes="$notes${notes:+; }cycle $c: $r, $LEFT"
done
check_cycles "agent JVM SIGKILLed mid-block: its sh keeps class idle in the dead agent's group" "$ok_kept"
check_cycles "agent JVM SIGKILLed: the console says the agent was lost" "$ok_log"
check_cycles "agent started again: the build reconnects to the running sh, the next block is policed, SUCCESS" "$ok_build"
note "agent kills: both blocks ended with their cgroup usage in $ok_usage of $CYCLES cycles (the dead agent's empty group may be swept first)"
check_cycles "agent's next start removes the dead agent's group (StaleGroups on the agent)" "$ok_sweep"
check_cycles "agent kills: nothing left after the next start" "$ok_left"
note "$notes"
faults_end
