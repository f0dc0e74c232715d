# Containers (issue 16): docker.image().inside in a cpu-idle block, and an agent default under declarative
# agent { docker }, start the build container under the machine-wide idle parent; a per-task policy (an agent
# default of 'idle' too) runs a container step with its cgroup equivalent, said in one line, and is refused in one
# line only where none applies (issue 24 item 2). Issue 23: no credential in our refusals, warnings or records;
# the container's own options cannot take it out of the policy's group; a weight above 100 is refused. Needs docker-workflow among the plugins given (it is not
# in every Jenkins), a reachable Docker daemon (DOCKER_HOST) and a local image (SCHEDPOLICY_TEST_IMAGE, e.g. the
# busybox one .ci/run imports); without them this says which is missing and counts as skipped, not passed.
IMAGE=${SCHEDPOLICY_TEST_IMAGE:-}
why_not=$(docker_missing)
if [ -n "$why_not" ]; then
  skip "containers: $why_not"
else
  idle_parent_up
  containers_before=$(docker ps -aq | sort)
  pipeline_job p-inside <<G
node {
  sh 'cp $KV kernel-view'
  withSchedPolicy(cpuIdle: true) {
    docker.image('$IMAGE').inside { sh './kernel-view inside' }
  }
}
G
  run_build p-inside 180
  check "inside: withSchedPolicy(cpuIdle: true) { docker.image().inside { sh } } SUCCESS" test "$RESULT" = SUCCESS
  check "inside: the sh in the container runs in a group under the idle parent ($(kernel_field inside cgroup))" \
    bash -c "[[ '$(kernel_field inside cgroup)' == /schedpolicy.idle/* ]]"
  check "inside: the console says the container's group carries the policy" \
    grep -qE '^\[schedpolicy\] .*container [0-9a-f]+.*verified' "$CONSOLE"
  note "$(grep -m1 -E '^\[schedpolicy\] .*container [0-9a-f]+' "$CONSOLE" | cut -c1-170)"

  # short: one [schedpolicy] ERROR line at most, no stack trace (no "\tat " frame, no MaskedException)
  short_console() { [ "$(grep -c 'cannot police this launch' "$CONSOLE")" -le 1 ] && ! grep -qE $'^\tat |MaskedException' "$CONSOLE"; }
  # refused_in_one_line TEXT: the last build FAILED saying TEXT, in a short console
  refused_in_one_line() { test "$RESULT" = FAILURE && grep -qF -- "$1" "$CONSOLE" && short_console; }

  # issue 24 item 2: a per-task policy around a container step runs it with the cgroup equivalent, said once
  pipeline_job p-inside-per-task <<G
node {
  sh 'cp $KV kernel-view'
  withSchedPolicy('idle') { docker.image('$IMAGE').inside { sh './kernel-view idle-inside' } }
}
G
  run_build p-inside-per-task 180
  check "inside under withSchedPolicy('idle'): SUCCESS, the sh under the idle parent ($(kernel_field idle-inside cgroup))" \
    bash -c "test '$RESULT' = SUCCESS && [[ '$(kernel_field idle-inside cgroup)' == /schedpolicy.idle/* ]]"
  check "inside under withSchedPolicy('idle'): one console line says cpu-idle was applied instead and why" \
    test "$(grep -c 'applied its cgroup equivalent instead, cpu-idle' "$CONSOLE")" = 1
  note "$(grep -m1 'applied its cgroup equivalent' "$CONSOLE" | cut -c1-200)"

  pipeline_job p-inside-io <<G
node { withSchedPolicy('io-idle') { docker.image('$IMAGE').inside { sh 'true' } } }
G
  run_build p-inside-io 180
  check "inside under withSchedPolicy('io-idle') (no cgroup equivalent, fail): FAILURE in one line saying what to set" \
    refused_in_one_line 'io idle has no cgroup equivalent that is applied'
  note "$(grep -m1 'no cgroup equivalent' "$CONSOLE" | cut -c1-200)"

  # issue 23 item 2: a credential bound around a refused or warned container step is nowhere in our words
  SECRET=s3cret-live-7731
  groovy "import com.cloudbees.plugins.credentials.*
import org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl
def store = SystemCredentialsProvider.getInstance()
store.getCredentials().removeIf { it.id == 'live-secret' }
store.getCredentials().add(new StringCredentialsImpl(CredentialsScope.GLOBAL, 'live-secret', 'live suite', hudson.util.Secret.fromString('$SECRET')))
store.save(); println 'ok'" >>"$OUT/checks.log" 2>&1
  pipeline_job p-secret-refused <<G
node { withCredentials([string(credentialsId: 'live-secret', variable: 'TOKEN')]) {
  withSchedPolicy('quota50') { docker.image('$IMAGE').inside('--cpus=2') { sh 'true' } }
} }
G
  run_build p-secret-refused 180
  check "withCredentials around a refused container step: FAILURE in one line, no stack trace, no MaskedException" \
    refused_in_one_line "cannot police this launch: 'docker run' sets --cpus itself"
  note "$(grep -m1 'cannot police this launch' "$CONSOLE" | cut -c1-200)"
  pipeline_job p-secret-warned <<G
node { withCredentials([string(credentialsId: 'live-secret', variable: 'TOKEN')]) {
  withSchedPolicy('quota50+warn') { docker.image('$IMAGE').inside('--cpus=2') { sh 'true' } }
} }
G
  run_build p-secret-warned 180
  build_dir="$JHOME/jobs/p-secret-warned/builds/$BUILD"
  check "withCredentials under warn: SUCCESS, the warning names --cpus only, the secret in no file of the build (build.xml, records)" \
    bash -c "test '$RESULT' = SUCCESS && grep -q \"'docker run' sets --cpus itself\" '$CONSOLE' && ! grep -rq '$SECRET' '$build_dir' && ! grep -q '$SECRET' '$CONSOLE'"
  note "$(grep -m1 'sets --cpus itself' "$CONSOLE" | cut -c1-200)"

  # issue 23 item 3: the container's own options cannot take it out of the policy's group
  pipeline_job p-inside-own-parent <<G
node {
  sh 'cp $KV kernel-view'
  withSchedPolicy(cpuIdle: true, onUnsupported: 'warn') {
    docker.image('$IMAGE').inside('--cgroup-parent=/') { sh './kernel-view own-parent' }
  }
}
G
  run_build p-inside-own-parent 180
  check "inside('--cgroup-parent=/') under cpu-idle+warn: the sh still under the idle parent ($(kernel_field own-parent cgroup))" \
    bash -c "test '$RESULT' = SUCCESS && [[ '$(kernel_field own-parent cgroup)' == /schedpolicy.idle/* ]]"
  note "$(grep -m1 'sets --cgroup-parent itself' "$CONSOLE" | cut -c1-200)"
  pipeline_job p-inside-unknown <<G
node { withSchedPolicy(cpuIdle: true, onUnsupported: 'warn') { docker.image('$IMAGE').inside('--brand-new-flag --cgroup-parent=/') { sh 'true' } } }
G
  run_build p-inside-unknown 180
  check "inside with an option the parser does not know: FAILURE naming it, even under warn, in one line" \
    refused_in_one_line "option '--brand-new-flag', which this parser does not know"

  # withSchedPolicy written inside inside { }: refused at once in one line saying to put it around, never a handshake
  # timeout (30 s) after the shim prefix landed in the container
  pipeline_job p-block-in-inside <<G
node { docker.image('$IMAGE').inside { withSchedPolicy('idle') { sh 'echo KERNEL block-in-inside ran=yes' } } }
G
  run_build p-block-in-inside 180
  in_ms=$(jcurl "$J/job/p-block-in-inside/$BUILD/api/json?tree=duration" | sed -n 's/.*"duration":\([0-9]*\).*/\1/p')
  block_in_inside_refused() {
    refused_in_one_line 'put withSchedPolicy around inside { }' && ! grep -q '^KERNEL block-in-inside' "$CONSOLE" && [ "${in_ms:-99999}" -lt 10000 ]
  }
  check "withSchedPolicy inside inside { }: FAILURE in one line, put it around inside, the sh never ran, build ${in_ms:-?} ms (container included)" \
    block_in_inside_refused
  note "$(grep -m1 'block inside docker.image' "$CONSOLE" | cut -c1-200)"

  # issue 23 item 4: a weight above the default is a raise
  pipeline_job p-inside-weight <<G
node { withSchedPolicy(cpuWeight: 10000) { docker.image('$IMAGE').inside { sh 'true' } } }
G
  run_build p-inside-weight 180
  check "withSchedPolicy(cpuWeight: 10000) around inside: FAILURE, 'CPU weight 10000 raises priority', no container" \
    bash -c "test '$RESULT' = FAILURE && grep -q 'CPU weight 10000 raises priority above the default 100' '$CONSOLE' && ! grep -q 'docker run' '$CONSOLE'"
  note "$(grep -m1 'CPU weight 10000' "$CONSOLE" | cut -c1-200)"

  # issue 31 item 4: under an agent default (a floor), options that let the container leave it are refused in one line
  set_global defaultPolicy idle
  pipeline_job p-inside-privileged <<G
node { docker.image('$IMAGE').inside('--privileged --cgroupns=host') { sh 'true' } }
G
  run_build p-inside-privileged 180
  set_global defaultPolicy ''
  # refused before the container exists: no line of the console names one
  refused_before_container() { refused_in_one_line "$1" && ! grep -qE 'container [0-9a-f]+ ' "$CONSOLE"; }
  check "inside('--privileged --cgroupns=host') under the agent default idle: FAILURE in one line, leave it out, no container" \
    refused_before_container "which let the container leave the administrator's floor 'idle' on this agent: leave it out"
  note "$(grep -m1 'cannot police this launch' "$CONSOLE" | cut -c1-230)"

  # issue 31 item 12: a 'batch' floor has no container stand-in: the build runs, and nothing calls the container verified
  set_global defaultPolicy batch
  pipeline_job p-inside-batch <<G
node { docker.image('$IMAGE').inside { sh 'true' } }
G
  run_build p-inside-batch 180
  set_global defaultPolicy ''
  check "inside under the agent default batch: SUCCESS, the lines of the container and its exec say class batch was not applied, never 'verified'" \
    bash -c "test '$RESULT' = SUCCESS && grep -qE '^\[schedpolicy\] batch: container [0-9a-f]+ NOT as asked \(class batch not applied' '$CONSOLE' \
      && ! grep -qE 'container [0-9a-f]+ verified' '$CONSOLE' && grep -q 'class batch is not applied' '$CONSOLE' \
      && grep -qE 'container [0-9a-f]+ NOT as asked \(class batch not applied.*exec into container' '$CONSOLE'"
  note "$(grep -m1 -E 'container [0-9a-f]+ NOT as asked' "$CONSOLE" | cut -c1-200)"

  # issue 24 item 2 from the command line
  cli_err=$( (cd "$ROOT" && ./schedpolicy run --container --policy idle -- docker run --rm --network none "$IMAGE" true) 2>&1 >/dev/null)
  cli_status=$?
  cli_lines=$(grep -c 'applied its cgroup equivalent instead, cpu-idle' <<<"$cli_err")
  check "schedpolicy run --container --policy idle: exit 0, one line saying cpu-idle was applied instead" \
    test "$cli_status:$cli_lines" = 0:1
  note "$(cut -c1-200 <<<"$cli_err" | head -2)"

  for default in cpu-idle idle; do
    set_global defaultPolicy "$default"
    pipeline_job p-agent-docker <<G
pipeline {
  agent { docker { image '$IMAGE' } }
  stages { stage('build') { steps { sh 'cat /proc/self/cgroup | sed -n "s/^[0-9]*:[^:]*cpu[^:]*:/KERNEL declarative cgroup=/p" | head -1' } } }
}
G
    run_build p-agent-docker 180
    set_global defaultPolicy ''
    check "agent { docker } under the agent default $default: SUCCESS, the build container under the idle parent ($(kernel_field declarative cgroup))" \
      bash -c "test '$RESULT' = SUCCESS && [[ '$(kernel_field declarative cgroup)' == /schedpolicy.idle/* ]]"
  done
  check "agent { docker } under the agent default idle: one line says cpu-idle was applied instead and why" \
    test "$(grep -c 'applied its cgroup equivalent instead, cpu-idle' "$CONSOLE")" = 1
  note "$(grep -m1 'applied its cgroup equivalent' "$CONSOLE" | cut -c1-200)"
  idle_parent_down
  # no usable idle parent (none made on the machine, or, as here, a cgroup parent that is not idle): a global default
  # of 'idle' runs container builds at the lowest weight, said once
  PLAIN_PARENT=$CPU_ROOT/schedpolicy-live-plain
  mkdir -p "$PLAIN_PARENT" && CLEANUPS+=("rmdir $PLAIN_PARENT")
  set_global cgroupParent "$PLAIN_PARENT"
  set_global defaultPolicy idle
  # the container sees its own group at the top of its cgroup mount: cpu.shares 2 on v1, cpu.weight 1 on v2
  pipeline_job p-agent-docker-lowest <<G
pipeline {
  agent { docker { image '$IMAGE' } }
  stages { stage('build') { steps { sh 'echo "KERNEL lowest v2weight=\$(cat /sys/fs/cgroup/cpu.weight 2>/dev/null) v1shares=\$(cat /sys/fs/cgroup/cpu/cpu.shares 2>/dev/null)"' } } }
}
G
  run_build p-agent-docker-lowest 180
  set_global defaultPolicy ''
  set_global cgroupParent ''
  weight="$(kernel_field lowest v2weight):$(kernel_field lowest v1shares)"
  check "agent { docker } under the agent default idle, a cgroup parent that is not idle: SUCCESS at the lowest weight (v2 weight:v1 shares $weight)" \
    bash -c "test '$RESULT' = SUCCESS && { [ '$weight' = 1: ] || [ '$weight' = :2 ]; }"
  check "agent { docker } without an idle parent: one console line says the lowest weight stands in and points to setup" \
    test "$(grep -c "applied the lowest cpu weight (1), not cpu-idle, which needs 'sudo schedpolicy setup'" "$CONSOLE")" = 1
  note "$(grep -m1 'applied the lowest cpu weight' "$CONSOLE" | cut -c1-200)"
  wait_for 10 rmdir "$PLAIN_PARENT" 2>/dev/null || note "$PLAIN_PARENT still has a group under it"
  left=$(comm -13 <(echo "$containers_before") <(docker ps -aq | sort) | tr '\n' ' ')
  check "containers: none of the builds' containers is left${left:+ (left: $left)}" test -z "$left"
fi
