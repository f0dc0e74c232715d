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
  writeFile file: 'ctx/Dockerfile', text: 'FROM $IMAGE\nCOPY kernel-view /kv\nRUN /kv build-run && sleep 1\n'
  withSchedPolicy('idle') {
    sh 'docker run --rm --network none -v "\$PWD:/w" $IMAGE /w/kernel-view run'
    sh 'docker build --no-cache --network none -t $TAG-a ctx'
    docker.build('$TAG-b', '--no-cache --network none ctx')
    docker.image('$IMAGE').withRun('--network none -v ' + pwd() + ':/w', 'sleep 60') { c ->
      sh "docker exec \${c.id} /w/kernel-view withrun; echo WITHRUN-ID \${c.id}"
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
  # each build's RUN step is read back by the agent in the build's own group under the idle parent, which goes with the build
  read_back=$(grep -c "^\[schedpolicy\] 'docker build' RUN step verified: cpu cgroup /schedpolicy.idle/schedpolicy-[0-9]*-[0-9a-f]*-[0-9]*/[0-9a-f]\{64\}, idle through /schedpolicy.idle" "$CONSOLE")
  check "sh 'docker build' and docker.build(): each RUN step read back, verified in the build's own group under the idle parent ($read_back of 2)" \
    test "$read_back" = 2
  note "$(grep -m1 "^\[schedpolicy\] 'docker build' RUN step" "$CONSOLE" | cut -c1-220)"
  check "the builds' own groups are gone from every cgroup hierarchy" \
    wait_for 10 bash -c "! ls -d /sys/fs/cgroup/{pids,memory,blkio,devices,freezer}/schedpolicy.idle/schedpolicy-* /sys/fs/cgroup/unified/schedpolicy.idle/schedpolicy-* 2>/dev/null | grep -q ."
  # a detached run's wrapper says the read-back line before its step ends; a foreground run's comes from a background
  # subshell once the agent has it, so a container of a moment may lose it: any that came must say verified
  withrun_id=$(grep -m1 -o '^WITHRUN-ID [0-9a-f]\{12\}' "$CONSOLE" | cut -d' ' -f2)
  check "withRun()'s detached run says its read-back line before its step ends: verified under the idle parent (${withrun_id:-no id})" \
    bash -c "[ -n '$withrun_id' ] && grep -q \"^\[schedpolicy\] 'docker run' container $withrun_id verified: cpu cgroup /schedpolicy.idle/\" '$CONSOLE'"
  said=$(grep -c "^\[schedpolicy\] 'docker run' container " "$CONSOLE")
  verified=$(grep -c "^\[schedpolicy\] 'docker run' container [0-9a-f]\{12\} verified: cpu cgroup /schedpolicy.idle/" "$CONSOLE")
  check "the docker runs' read-back lines that came say verified under the idle parent ($verified of $said; 2 runs)" \
    test "$verified" = "$said"
  note "$(grep -m1 "^\[schedpolicy\] 'docker run' container" "$CONSOLE" | cut -c1-220)"

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
  # BuildKit's RUN steps cannot be placed: the line runs as given, and its step says so once (the client here may lack
  # buildx, so its status is only passed on)
  pipeline_job p-clients-buildkit <<G
node { withSchedPolicy('idle') { sh 'docker buildx build -q - </dev/null || echo BUILDX-STATUS \$?' } }
G
  run_build p-clients-buildkit 120
  check "'docker buildx build' in a block: run as given ($(grep -m1 -o 'BUILDX-STATUS [0-9]*' "$CONSOLE")), one line says its RUN steps are not placed" \
    bash -c "test '$RESULT' = SUCCESS && [ \$(grep -c \"^\[schedpolicy\] 'docker buildx build' NOT placed: BuildKit runs its RUN steps\" '$CONSOLE') = 1 ]"
  note "$(grep -m1 "^\[schedpolicy\] 'docker buildx build'" "$CONSOLE" | cut -c1-220)"
  # a stopped step: the client dies, and the container's shell (PID 1) ignores the SIGTERM the client forwarded
  pipeline_job p-clients-stopped <<G
node { withSchedPolicy('idle') { sh 'docker run --rm --network none --label schedpolicy.live=stopped $IMAGE sh -c "while :; do :; done"' } }
G
  STOPPED=$(start_build p-clients-stopped)
  wait_for 60 bash -c "[ -n \"\$(docker ps -q --filter label=schedpolicy.live=stopped)\" ]" || note "the foreground container never ran"
  jpost "job/p-clients-stopped/$STOPPED/stop" -o /dev/null
  result=$(wait_build p-clients-stopped "$STOPPED" 60)
  check "a stopped step's foreground container ($result): gone within 10 s, though its shell ignores SIGTERM" \
    wait_for 10 bash -c "[ -z \"\$(docker ps -q --filter label=schedpolicy.live=stopped)\" ]"
  docker ps -q --filter label=schedpolicy.live=stopped | xargs -r docker kill >/dev/null

  # the issue's target: a test job beside a docker build whose RUN step keeps both CPUs busy for 25 s, the build
  # unlowered and in withSchedPolicy('idle'); the speed the tests keep is a note (the machine may be busy)
  mkdir -p "$OUT/busy-ctx"
  printf 'FROM %s\nRUN for i in 1 2; do timeout 25 sh -c "while :; do :; done" & done; wait\n' "$IMAGE" >"$OUT/busy-ctx/Dockerfile"
  work="taskset -c 0 sysbench cpu --threads=1 --cpu-max-prime=10000 --events=${CLIENT_EVENTS:-3000} --time=0 run | grep 'total time'"
  pipeline_job c-tests <<G
node { sh "$work" }
G
  pipeline_job c-build-plain <<G
node { sh 'docker build --no-cache --network none -q $OUT/busy-ctx >/dev/null' }
G
  pipeline_job c-build-idle <<G
node { withSchedPolicy('idle') { sh 'docker build --no-cache --network none -q $OUT/busy-ctx >/dev/null' } }
G
  test_seconds() { sed -n 's/.*total time: *\([0-9.]*\)s.*/\1/p' "$CONSOLE" | head -1; }
  # beside JOB: runs the tests while JOB's RUN step loops; sets BESIDE (seconds)
  beside() {
    local b; b=$(start_build "$1")
    wait_for 60 bash -c "[ \$(pgrep -fc '^sh -c while :; do :; done') -ge 2 ]" || note "$1: its RUN step's loops were not seen"
    run_build c-tests; BESIDE=$(test_seconds)
    wait_build "$1" "$b" 120 >/dev/null
  }
  run_build c-tests; ALONE=$(test_seconds)
  beside c-build-plain; PLAIN=$BESIDE
  beside c-build-idle; IDLE=$BESIDE
  check "tests beside a docker build, unlowered and in withSchedPolicy('idle'): all ran (alone ${ALONE:-?} s, beside ${PLAIN:-?} s, ${IDLE:-?} s)" \
    bash -c "[ -n '$ALONE' ] && [ -n '$PLAIN' ] && [ -n '$IDLE' ]"
  note "$(python3 -c "a, p, i = $ALONE, $PLAIN, $IDLE; print(f'tests kept {100 * a / p:.0f}% beside the unlowered build, {100 * a / i:.0f}% beside the idle one (busy loops in a RUN step)')" 2>/dev/null)"

  left=$(comm -13 <(echo "$containers_before") <(docker ps -aq | sort) | tr '\n' ' ')
  check "container clients: none of the builds' containers is left${left:+ (left: $left)}" test -z "$left"
fi
