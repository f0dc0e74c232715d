# Containers a block's own scripts start (issue 33 item 1): sh 'docker run', sh 'docker build' (the classic
# builder's RUN step), docker-workflow's docker.build() and withRun() (its Groovy runs the client from sh) find the
# plugin's docker wrapper first on PATH, and their containers go under the block's placement, one console line each;
# a line the wrapper cannot read is refused in one line; no container is left. Needs what 85-docker needs.
IMAGE=${SCHEDPOLICY_TEST_IMAGE:-}
why_not=$(docker_missing)
if [ -n "$why_not" ]; then
  skip "container clients: $why_not"
else
  idle_parent_up
  containers_before=$(docker ps -aq | sort)
  TAG=schedpolicy-live-clients:$$
  pipeline_job p-clients <<G
node {
  sh 'rm -rf ctx && mkdir ctx && cp $KV kernel-view && cp $KV ctx/kernel-view'
  writeFile file: 'ctx/Dockerfile', text: 'FROM $IMAGE\nCOPY kernel-view /kv\nRUN /kv build-run\n'
  withSchedPolicy('idle') {
    sh 'docker run --rm --network none -v "\$PWD:/w" $IMAGE /w/kernel-view run'
    sh 'docker build --no-cache --network none -t $TAG-a ctx'
    docker.build('$TAG-b', '--no-cache --network none ctx')
    docker.image('$IMAGE').withRun('--network none -v ' + pwd() + ':/w', 'sleep 60') { c ->
      sh "docker exec \${c.id} /w/kernel-view withrun"
    }
  }
  sh 'docker rmi -f $TAG-a $TAG-b >/dev/null'
}
G
  run_build p-clients 300
  check "sh docker run/build, docker.build() and withRun() in withSchedPolicy('idle'): SUCCESS" test "$RESULT" = SUCCESS
  check "sh 'docker run': the container runs under the idle parent ($(kernel_field run cgroup))" \
    bash -c "[[ '$(kernel_field run cgroup)' == /schedpolicy.idle/* ]]"
  builds=$(grep -cE '^KERNEL build-run .*cgroup=/schedpolicy\.idle/' "$CONSOLE")
  check "sh 'docker build' and docker.build(): both RUN steps ran under the idle parent ($builds of 2)" test "$builds" = 2
  check "withRun(): its container runs under the idle parent ($(kernel_field withrun cgroup))" \
    bash -c "[[ '$(kernel_field withrun cgroup)' == /schedpolicy.idle/* ]]"
  placed_runs=$(grep -c "^\[schedpolicy\] 'docker run' placed under 'idle' with --cgroup-parent=/schedpolicy.idle" "$CONSOLE")
  placed_builds=$(grep -c "^\[schedpolicy\] 'docker build' placed under 'idle' with --cgroup-parent=/schedpolicy.idle" "$CONSOLE")
  check "one console line per placed start: 2 runs ($placed_runs), 2 builds ($placed_builds), and none for docker exec, stop, rm" \
    bash -c "[ '$placed_runs' = 2 ] && [ '$placed_builds' = 2 ] && [ \$(grep -c '^\[schedpolicy\] .*placed under' '$CONSOLE') = 4 ]"
  note "$(grep -m1 "^\[schedpolicy\] 'docker build' placed" "$CONSOLE" | cut -c1-220)"

  pipeline_job p-clients-refused <<G
node { withSchedPolicy('idle') { sh 'docker run --frobnicate x $IMAGE true' } }
G
  run_build p-clients-refused 120
  check "a docker line the wrapper cannot read: FAILURE, refused in one line naming the option, no container" \
    bash -c "test '$RESULT' = FAILURE && [ \$(grep -c \"schedpolicy: 'docker run' has option '--frobnicate'\" '$CONSOLE') = 1 ]"

  pipeline_job p-clients-plain <<G
node { sh 'command -v docker' }
G
  run_build p-clients-plain 120
  check "outside a block the step's PATH has no wrapper: docker is the real client" \
    bash -c "test '$RESULT' = SUCCESS && ! grep -q '/desk/bin/' '$CONSOLE'"
  left=$(comm -13 <(echo "$containers_before") <(docker ps -aq | sort) | tr '\n' ' ')
  check "container clients: none of the builds' containers is left${left:+ (left: $left)}" test -z "$left"
fi
