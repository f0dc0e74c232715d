# Pipeline blocks on the built-in node: every sh runs under the block's policy, as the kernel reports it.
pipeline_job p-idle <<G
node { withSchedPolicy('idle') { sh '$KV idle' } }
G
run_build p-idle
check "withSchedPolicy('idle'): SUCCESS" test "$RESULT" = SUCCESS
check "withSchedPolicy('idle'): the sh process runs under SCHED_IDLE (class 5)" test "$(kernel_field idle policy)" = 5
check "withSchedPolicy('idle'): one console line per launch, verified by the kernel read-back" \
  test "$(grep -c '^\[schedpolicy\] idle: pid [0-9]* verified: class idle' "$CONSOLE")" = 1

pipeline_job p-named <<G
node { withSchedPolicy(policy: 'batch', nice: 19, io: 'idle') { sh '$KV named'; sh '$KV named2' } }
G
run_build p-named
check "withSchedPolicy(policy: 'batch', nice: 19, io: 'idle'): SUCCESS" test "$RESULT" = SUCCESS
check "named form: class batch (3), nice 19, I/O class idle in the process itself" \
  test "$(kernel_field named policy) $(kernel_field named nice) $(kernel_field named io)" = "3 19 idle"
check "named form: a verified console line for each of the two launches" \
  test "$(grep -c '^\[schedpolicy\] batch+nice19+io-idle: pid [0-9]* verified: class batch, nice 19, io idle' "$CONSOLE")" = 2

pipeline_job p-nested <<G
node {
  withSchedPolicy('batch+nice10') {
    withSchedPolicy(nice: 19) { sh '$KV inner-nice' }
    withSchedPolicy('idle') { sh '$KV inner-idle' }
    sh '$KV outer'
  }
  sh '$KV after'
}
G
run_build p-nested
check "nested blocks: SUCCESS" test "$RESULT" = SUCCESS
check "nested: withSchedPolicy(nice: 19) inside batch+nice10 runs batch, nice 19" \
  test "$(kernel_field inner-nice policy) $(kernel_field inner-nice nice)" = "3 19"
check "nested: withSchedPolicy('idle') inside batch+nice10 runs idle" test "$(kernel_field inner-idle policy)" = 5
check "nested: the outer block's own sh runs batch, nice 10" test "$(kernel_field outer policy) $(kernel_field outer nice)" = "3 10"
check "nested: after the block, sh runs at the default (class 0, nice 0)" test "$(kernel_field after policy) $(kernel_field after nice)" = "0 0"
# A build log is read by people who did not write the policy: three blocks, one line on what the policy cannot reach
# on this agent (Jenkins runs in a session of its own here, setsid, so the suite's own processes are in other task
# groups), and the full words only on the build page.
check "nested: the console says once per build what the policies cannot reach, with where the details are" \
    test "$(grep -cE '^\[schedpolicy\] on built-in: .* not to the [0-9]* in other task groups\. Details: (.*/)?job/p-nested/'"$BUILD"'/#schedpolicy-blocks [(]this build[)] and (.*/)?manage/schedpolicy-fleet/[?]label=built-in [(]this agent[)]$' "$CONSOLE")" = 1
check "nested: no per-block warnings about task groups in the console, each line short (under 300 characters)" \
    bash -c "! grep -qE 'has no effect against|autogroup is on' '$CONSOLE' && ! grep '^\[schedpolicy\]' '$CONSOLE' | grep -q '.\{300\}'"
check "nested: the build page keeps the probe's full words for each block" \
    test "$(jcurl "$J/job/p-nested/$BUILD/" | grep -o 'is applied but has no effect against the [0-9]* processes in other task groups' | wc -l)" = 3
fleet_link=$(grep -m1 '^\[schedpolicy\] on built-in' "$CONSOLE" | sed -n 's|.* and \(.*\) (this agent)$|\1|p')
fleet_status=$(jcurl -o "$OUT/fleet-from-console.html" -w '%{http_code}' "$J/${fleet_link#"$J/"}")
check "nested: the line's fleet link ($fleet_link) opens the fleet view filtered to the agent" \
  bash -c "test '$fleet_status' = 200 && grep -q 'data-node=\"built-in\"' '$OUT/fleet-from-console.html' && ! grep -q 'not a label expression' '$OUT/fleet-from-console.html'"
note "$(grep -m1 '^\[schedpolicy\] on built-in' "$CONSOLE")"

pipeline_job p-invalid <<G
node { withSchedPolicy('turbo') { sh '$KV never' } }
G
run_build p-invalid
check "an invalid policy fails the build" test "$RESULT" = FAILURE
check "an invalid policy: one ERROR line saying what is allowed, no stack trace, the body never ran" \
  bash -c "grep -q '^ERROR: \\[schedpolicy\\] withSchedPolicy: unknown policy token .turbo.*use tokens' '$CONSOLE' && ! grep -qE '^\s+at |Exception' '$CONSOLE' && ! grep -q '^KERNEL never' '$CONSOLE'"
note "$(grep -m1 'turbo' "$CONSOLE" | cut -c1-150)"

pipeline_job p-forged <<G
node {
  withEnv(['SCHEDPOLICY_LAUNCH=forged']) {
    withSchedPolicy('idle') { sh '$KV forged-inside' }
  }
  withSchedPolicy('idle') { withEnv(['SCHEDPOLICY_LAUNCH=forged']) { sh '$KV forged-within' } }
}
G
run_build p-forged
check "forging SCHEDPOLICY_LAUNCH with withEnv changes nothing: both launches idle, both verified" \
  bash -c "test '$(kernel_field forged-inside policy) $(kernel_field forged-within policy)' = '5 5' && test \$(grep -c 'verified: class idle' '$CONSOLE') = 2"
