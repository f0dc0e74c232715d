# The administrator's default policy, set through the real System form, is a floor no block can run above.
set_global defaultPolicy idle
check "global default policy: submitted through the System form, it reads back as 'idle' after a reload" \
  test "$(read_global defaultPolicy)" = idle
check "global default policy: saved in JENKINS_HOME" grep -q '<defaultPolicy>idle</defaultPolicy>' "$JHOME/dev.schedpolicy.jenkins.SchedPolicyConfiguration.xml"
pipeline_job p-floor <<G
node {
  sh '$KV plain'
  withSchedPolicy('normal') { sh '$KV above' }
  withSchedPolicy(policy: 'batch', nice: 19) { sh '$KV batch-under-idle' }
  withEnv(['SCHEDPOLICY_LAUNCH=forged']) { sh '$KV forged' }
}
G
run_build p-floor
check "default idle: a plain sh (no block) runs idle" test "$(kernel_field plain policy)" = 5
check "default idle: withSchedPolicy('normal') cannot run above it (idle), and the console says why" \
  bash -c "test '$(kernel_field above policy)' = 5 && grep -q '^.schedpolicy. warning: the administrator.s default class idle is a floor: class normal' '$CONSOLE'"
note "$(grep -m1 'is a floor' "$CONSOLE" | cut -c1-160)"
check "default idle: withSchedPolicy(batch, nice 19) keeps class idle" test "$(kernel_field batch-under-idle policy)" = 5
check "default idle: a forged SCHEDPOLICY_LAUNCH does not escape the default" test "$(kernel_field forged policy)" = 5
check "default idle: SUCCESS" test "$RESULT" = SUCCESS
set_global defaultPolicy ''
check "global default policy cleared through the form" test -z "$(read_global defaultPolicy)"
run_build p-floor
check "without a default: a plain sh runs at the default class again" test "$(kernel_field plain policy)" = 0

# the node property, through the built-in node's own configuration form (Manage Jenkins > Nodes > Built-In Node)
NODE_FORM="$J/computer/(built-in)/configure"
PROP_BOX='input[name="dev-schedpolicy-jenkins-SchedPolicyNodeProperty"]'
browser open "$NODE_FORM" \
  eval "(() => { const b = document.querySelector('$PROP_BOX'); if (!b.checked) b.click(); const f = document.querySelector('input[name=\"_.policy\"]'); f.value = 'batch+nice10'; return f.value; })()" \
  submit "document.querySelector('form[name=config] button[name=Submit]').click()" >/dev/null
node_state=$(browser open "$NODE_FORM" shot "$OUT/screenshots/node-property.png" \
  eval "document.querySelector('$PROP_BOX').checked + ' ' + document.querySelector('input[name=\"_.policy\"]').value")
check "node property: ticked and set to batch+nice10 in the built-in node's form, it reads back after a reload" \
  test "$node_state" = "true batch+nice10"
pipeline_job p-node-floor <<G
node {
  sh '$KV node-plain'
  withSchedPolicy('normal') { sh '$KV node-above' }
  withSchedPolicy('idle') { sh '$KV node-lower' }
}
G
run_build p-node-floor
check "node property batch+nice10: a plain sh runs batch, nice 10" \
  test "$(kernel_field node-plain policy) $(kernel_field node-plain nice)" = "3 10"
check "node property: withSchedPolicy('normal') stays at batch, nice 10 (a floor)" \
  test "$(kernel_field node-above policy) $(kernel_field node-above nice)" = "3 10"
check "node property: a block may go lower (idle)" test "$(kernel_field node-lower policy)" = 5
browser open "$NODE_FORM" \
  eval "(() => { const b = document.querySelector('$PROP_BOX'); if (b.checked) b.click(); return b.checked; })()" \
  submit "document.querySelector('form[name=config] button[name=Submit]').click()" >/dev/null
run_build p-node-floor
check "node property removed through the form: a plain sh runs at the default again" \
  test "$(kernel_field node-plain policy) $(kernel_field node-plain nice)" = "0 0"
