# An inbound agent's connection dropped while a block is open on it, then a second build on the same agent JVM. The
# agent loads the plugin's and the engine's classes again with the new connection; the first block's end, made through
# the new connection, ends the groups its build recorded (those the earlier connection made). Group names must never
# be given twice in one agent JVM: when they restarted with the classes, the second build's group got the name of the
# first block's (already removed) group and the first block's end killed the second build's running sh.
RD=$(mktemp -d "${TMPDIR:-/tmp}/schedpolicy-live-reconnect.XXXXXX")
CLEANUPS+=("rm -rf '$RD'")
mkdir -p "$RD/run" && chmod 700 "$RD/run"  # the agent's own state directory (XDG_RUNTIME_DIR), apart from others'

rc_online() { agent_online reconnect-agent; }
rc_input_waits() { grep -q 'Proceed or Abort' <<<"$(jcurl "$J/job/r-first/$1/consoleText")"; }
rc_groups() { groups_made_by "$RA_PID"; }
rc_no_groups() { [ -z "$(rc_groups)" ]; }
rc_offline() { ! rc_online; }
rc_back() { wait_for 120 rc_online && kill -0 "$RA_PID"; }
rc_agent_group() { [[ "$1" == /schedpolicy-$RA_PID-* ]]; }

create_inbound_node reconnect-agent reconnect "$RD" 2 reconnects
start_inbound_agent reconnect-agent "$RD" "$OUT/agent-reconnect.log" env XDG_RUNTIME_DIR="$RD/run"
RA_PID=$AGENT_STARTED
check "reconnect: inbound agent reconnect-agent is online (pid $RA_PID)" wait_for 120 rc_online

pipeline_job r-first <<G
node('reconnect') { withSchedPolicy(cpuQuota: 50) {
  sh '$KV r-first'
  input id: 'Go', message: 'first block waits'
} }
G
pipeline_job r-second <<G
node('reconnect') { withEnv(['FAULTMARK=r-second']) { withSchedPolicy(cpuQuota: 50) {
  sh '$KV r-second-before; : > $RD/r-second-started; set +x; while [ ! -e $RD/r-second-go ]; do sleep 0.2; done; $KV r-second-after'
} } }
G

first=$(start_build r-first)
wait_for 120 rc_input_waits "$first"
console_of r-first "$first"
first_group=$(kernel_field r-first cgroup)
check "reconnect: the first block's sh ran in a quota group of the agent JVM ($first_group)" rc_agent_group "$first_group"
# once its sh ended the group is empty, and the agent's reaper (every 15 s) removes it: its name is free from then on
check "reconnect: the first block's empty group was removed while the block stays open" \
  wait_for 60 test ! -d "$CPU_ROOT$first_group"
jpost computer/reconnect-agent/doDisconnect --data-urlencode 'offlineMessage=live suite: connection dropped' -o /dev/null
wait_for 30 rc_offline
# Jenkins installs its agent restarter on an inbound agent: the agent JVM execs itself again, keeping its PID, and
# connects; an agent without one reconnects in the same JVM and loads the classes again. Either way the engine starts over.
check "reconnect: the agent connected again by itself with the same PID, the first build still waits in its block" rc_back
note "agent: $(grep -c 'Restarting agent via' "$OUT/agent-reconnect.log") restarts by Jenkins' agent restarter"

rm -f "$RD/r-second-started" "$RD/r-second-go"
second=$(start_build r-second)
wait_for 120 test -e "$RD/r-second-started"
pid=$(procs_marked r-second | head -1)
second_group=$(cg_of "$pid")
note "first block's group $first_group; second build's group $second_group"
check "reconnect: the second build's group has a name the agent JVM never gave before" \
  eval 'rc_agent_group "$second_group" && [ "$second_group" != "$first_group" ]'

jpost "job/r-first/$first/input/Go/proceedEmpty" -o /dev/null
r1=$(wait_build r-first "$first" 120); console_of r-first "$first"
check "reconnect: the first build ends its block through the new connection, SUCCESS ($r1)" test "$r1" = SUCCESS
sleep 1
alive=$(for p in $(procs_marked r-second); do [ "$(cg_of "$p")" = "$second_group" ] && echo "$p"; done | grep -c .)
check "reconnect: the first block's end left the second build's sh running in its group ($alive processes)" \
  bash -c "[ '$alive' -gt 0 ] && [ -d '$CPU_ROOT$second_group' ]"

: >"$RD/r-second-go"
r2=$(wait_build r-second "$second" 120); console_of r-second "$second"
check "reconnect: the second build's sh ends in its own 50% group, SUCCESS ($r2)" \
  bash -c "[ '$r2' = SUCCESS ] && grep -qE '^KERNEL r-second-after .*cgroup=$second_group quota=50000' '$CONSOLE'"
check "reconnect: no group of the agent JVM is left once both builds ended" wait_for 30 rc_no_groups
kill -TERM "$RA_PID" 2>/dev/null
