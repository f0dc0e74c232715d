# Fault: a build aborted while a container launch waits for its container. docker-workflow's inside issues its
# `docker run` through the block's launcher; the engine places the container and the release waits (up to 5 s) for it
# to run. In the fault agent's own mount namespace `docker` is a wrapper that sleeps 8 s before it runs the real
# client for `run` (any other subcommand runs at once), so the release waits for a container that is slow to appear,
# and the build is stopped meanwhile. The body's sh writes a marker into the workspace (the only host directory the
# container sees): it must never be there. Needs docker-workflow, a Docker daemon and a local image, else one SKIP line.
IMAGE=${SCHEDPOLICY_TEST_IMAGE:-}
ABORT_BOUND_MS=${FAULT_ABORT_BOUND_MS:-2500}
why_not=$(docker_missing)
if [ -n "$why_not" ]; then
  skip "faults: a build aborted while a container launch waits for its container: $why_not"
else
  source "$LIVE/faults.sh"
  REAL_DOCKER=$(readlink -f "$(command -v docker)")
  cp "$REAL_DOCKER" "$FD/real-docker"
  printf '#!/bin/sh\n[ "$1" = run ] && sleep 8\nexec %s "$@"\n' "$FD/real-docker" >"$FD/slow-docker"
  chmod +x "$FD/slow-docker"
  faults_begin "aborted container launch" "mount --bind '$FD/slow-docker' '$REAL_DOCKER'"
  if fa_online; then
    pipeline_job f-ctabort <<G
node('fault') { withEnv(['FAULTMARK=f-ctabort']) { withSchedPolicy(cpuQuota: 50) {
  docker.image('$IMAGE').inside { sh ': > ran-marker' }
} } }
G
    slow_client() { pgrep -f "^/bin/sh $REAL_DOCKER run " >/dev/null; }
    ok_end=0 ok_prompt=0 ok_never=0 ok_left=0 notes= line=
    for c in $(seq "$CYCLES"); do
      containers_before=$(docker ps -aq | sort)
      rm -f "$FD/workspace/f-ctabort/ran-marker"
      n=$(start_build f-ctabort)
      wait_for 60 slow_client
      sleep 0.5  # the release is waiting for the container's id
      stop_and_judge f-ctabort "$n" "$ABORT_BOUND_MS"; FAULTS=$((FAULTS + 1))
      ok_end=$((ok_end + ENDED_CLEAN)) ok_prompt=$((ok_prompt + ENDED_PROMPT))
      sleep 9  # a client that was not stopped would reach the daemon by now
      [ ! -e "$FD/workspace/f-ctabort/ran-marker" ] && ok_never=$((ok_never + 1))
      extra=$(comm -13 <(echo "$containers_before") <(docker ps -aq | sort) | grep -c .)
      leftovers f-ctabort && [ "$extra" = 0 ] && ok_left=$((ok_left + 1))
      [ "$extra" = 0 ] || echo "containers left after f-ctabort: $(comm -13 <(echo "$containers_before") <(docker ps -aq | sort))" >>"$OUT/checks.log"
      LEFTOVERS=$((LEFTOVERS + extra))
      notes="$notes${notes:+; }cycle $c: $RESULT after $STOP_MS ms, $LEFT, $extra containers"
      line=$(grep -m1 '\[schedpolicy\].*aborted' "$CONSOLE" | cut -c1-220)
    done
    check_cycles "aborted while the container launch waits for its container: ABORTED, one [schedpolicy] line, no stack trace" "$ok_end"
    note "${line:-(no [schedpolicy] line)}"
    check_cycles "aborted container launch: the build ended within $ABORT_BOUND_MS ms of the stop, not when the slow client came" "$ok_prompt"
    check_cycles "aborted container launch: the body's sh never ran in a container" "$ok_never"
    check_cycles "aborted container launches: nothing left (containers, processes, handshake entries, groups)" "$ok_left"
    note "$notes"
  else
    fail "container abort: the agent with a slow docker client did not start (see $OUT/agent-fault.log)"
  fi
  faults_end
fi
