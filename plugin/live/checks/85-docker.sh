# Containers (issue 16): docker.image().inside in a cpu-idle block, and an agent default under declarative
# agent { docker }, start the build container under the machine-wide idle parent; a per-task policy around a
# container step is refused with the cgroup equivalent. Needs docker-workflow among the plugins given (it is not
# in every Jenkins), a reachable Docker daemon (DOCKER_HOST) and a local image (SCHEDPOLICY_TEST_IMAGE, e.g. the
# busybox one .ci/run imports); without them this says which is missing and counts as skipped, not passed.
IMAGE=${SCHEDPOLICY_TEST_IMAGE:-}
why_not=
grep -q '"active":true,"shortName":"docker-workflow"' <<<"$(jcurl "$J/pluginManager/api/json?depth=1&tree=plugins\[shortName,active\]")" \
  || why_not="docker-workflow is not among the plugins given ($PLUGINS)"
[ -n "$why_not" ] || docker info >/dev/null 2>&1 || why_not="no Docker daemon answers (DOCKER_HOST=${DOCKER_HOST:-unset})"
[ -n "$why_not" ] || { [ -n "$IMAGE" ] && docker image inspect "$IMAGE" >/dev/null 2>&1; } \
  || why_not="no local image to run (SCHEDPOLICY_TEST_IMAGE=${IMAGE:-unset})"
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

  pipeline_job p-inside-per-task <<G
node { withSchedPolicy('idle') { docker.image('$IMAGE').inside { sh 'true' } } }
G
  run_build p-inside-per-task 180
  check "inside under withSchedPolicy('idle'): FAILURE naming the cgroup equivalent (use cpuIdle for container steps)" \
    bash -c "test '$RESULT' = FAILURE && grep -q 'cpuIdle' '$CONSOLE'"
  note "$(grep -m1 'cpuIdle' "$CONSOLE" | cut -c1-170)"

  set_global defaultPolicy cpu-idle
  pipeline_job p-agent-docker <<G
pipeline {
  agent { docker { image '$IMAGE' } }
  stages { stage('build') { steps { sh 'cp $KV kernel-view || true; ls $KV >/dev/null 2>&1 || true; cat /proc/self/cgroup | sed -n "s/^[0-9]*:[^:]*cpu[^:]*:/KERNEL declarative cgroup=/p" | head -1' } } }
}
G
  run_build p-agent-docker 180
  set_global defaultPolicy ''
  check "agent { docker } under the agent default cpu-idle: SUCCESS, the build container under the idle parent ($(kernel_field declarative cgroup))" \
    bash -c "test '$RESULT' = SUCCESS && [[ '$(kernel_field declarative cgroup)' == /schedpolicy.idle/* ]]"
  left=$(comm -13 <(echo "$containers_before") <(docker ps -aq | sort) | tr '\n' ' ')
  check "containers: none of the builds' containers is left${left:+ (left: $left)}" test -z "$left"
  idle_parent_down
fi
