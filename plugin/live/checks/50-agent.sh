# A real inbound agent on 127.0.0.1 (agent.jar from this Jenkins, WebSocket): blocks in node('label') police
# the agent's processes, through the engine running in the agent JVM.
AGENT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/schedpolicy-live-agent.XXXXXX")
CLEANUPS+=("rm -rf '$AGENT_DIR'")
new_inbound_agent live-agent live "$AGENT_DIR" "$OUT/agent.log"
AGENT_PID=$AGENT_STARTED
wait_for 60 agent_online live-agent
check "inbound agent 'live-agent' (agent.jar from this Jenkins, WebSocket) is online" \
  agent_online live-agent

pipeline_job p-agent <<G
node('live') {
  withSchedPolicy(policy: 'idle', io: 'idle') { sh '$KV agent-idle' }
  withSchedPolicy('batch+nice15') { sh '$KV agent-batch' }
  sh '$KV agent-plain'
}
G
run_build p-agent
check "agent: the build ran on live-agent, SUCCESS" bash -c "test '$RESULT' = SUCCESS && grep -q '^Running on live-agent' '$CONSOLE'"
check "agent: the sh ran in the agent's workspace ($AGENT_DIR)" bash -c "[[ '$(kernel_field agent-idle cwd)' == '$AGENT_DIR'/* ]]"
check "agent: withSchedPolicy(policy: 'idle', io: 'idle') runs class idle, I/O idle there" \
  test "$(kernel_field agent-idle policy) $(kernel_field agent-idle io)" = "5 idle"
check "agent: withSchedPolicy('batch+nice15') runs batch, nice 15 there" \
  test "$(kernel_field agent-batch policy) $(kernel_field agent-batch nice)" = "3 15"
check "agent: a verified console line per policed launch" test "$(grep -c '^\[schedpolicy\] .*: pid [0-9]* verified' "$CONSOLE")" = 2
check "agent: two blocks, one console line on what their policies cannot reach on live-agent, pointing to its fleet row" \
  test "$(grep -c '^\[schedpolicy\] on live-agent: .* in other task groups\. Details: .*label=live-agent (this agent)$' "$CONSOLE")" = 1

# the agent's node property, through the REST API an administrator scripts with (config.xml), read back
agent_xml=$(jcurl "$J/computer/live-agent/config.xml")
prop='<nodeProperties><dev.schedpolicy.jenkins.SchedPolicyNodeProperty><policy>nice12</policy></dev.schedpolicy.jenkins.SchedPolicyNodeProperty></nodeProperties>'
new_xml=$(sed -e 's|<nodeProperties/>|'"$prop"'|' -e 's|<nodeProperties>.*</nodeProperties>|'"$prop"'|' <<<"$agent_xml")
jpost computer/live-agent/config.xml -H 'Content-Type: application/xml' --data-binary "$new_xml" -o /dev/null
check "agent node property nice12: saved through config.xml and read back" \
  grep -q '<policy>nice12</policy>' <<<"$(jcurl "$J/computer/live-agent/config.xml")"
run_build p-agent
check "agent node property nice12: a plain sh on the agent runs at nice 12, a block cannot go above it" \
  test "$(kernel_field agent-plain nice) $(kernel_field agent-batch nice) $(kernel_field agent-idle policy)" = "12 15 5"

# issue 23 item 1: workflow-support decorates a node {} nested in a block with the block's decorator; its launches
# run on the inner node, under that node's floor, cgroup parent and block end (they ran at nice 0 there, their group
# made under the outer node's parent and never ended)
pipeline_job p-nested <<G
node('built-in') {
  withSchedPolicy('normal+quota50') {
    sh '$KV nested-outer'
    node('live') { sh '$KV nested-inner' }
  }
}
G
run_build p-nested
check "nested node: SUCCESS, the inner sh ran on live-agent" bash -c "test '$RESULT' = SUCCESS && grep -q '^Running on live-agent' '$CONSOLE'"
check "nested node: withSchedPolicy('normal') on built-in around node('live') runs the inner sh at live-agent's floor nice 12 (outer sh: nice $(kernel_field nested-outer nice))" \
  test "$(kernel_field nested-inner nice)" = 12
check "nested node: the console names the policy applied on live-agent (normal+nice12+quota50)" \
  console_has '^\[schedpolicy\] normal\+nice12\+quota50: pid [0-9]+ verified'
check "nested node: the inner sh ran in its own 50% quota group ($(kernel_field nested-inner cgroup))" \
  bash -c "test '$(kernel_field nested-inner cgroup)' != / && test '$(kernel_field nested-inner quota)' = 50000"
check "nested node: the block's end reached live-agent: usage of both groups, the inner one removed" \
  bash -c "grep -q '^\[schedpolicy\] block cgroup usage: .* in 2 cgroups' '$CONSOLE' && test ! -e '$CPU_ROOT$(kernel_field nested-inner cgroup)'"
