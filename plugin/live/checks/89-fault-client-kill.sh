# Fault (issue 33): the fault agent's JVM SIGKILLed while a container that a block's own `sh 'docker run'` started
# through the plugin's docker wrapper runs, and started again. The step's client and its container run on in the
# placement (the container under the idle parent), the build reconnects to the step, the container ends and is
# removed with --rm, and nothing of the dead JVM is left once the agent started again: no group, no handshake entry,
# no wrapper directory (its long-lived jvm-PID-* directory), no container. Needs what 85-docker needs.
IMAGE=${SCHEDPOLICY_TEST_IMAGE:-}
why_not=$(docker_missing)
if [ -n "$why_not" ]; then
  skip "faults: agent killed while a wrapper-placed container runs: $why_not"
else
  source "$LIVE/faults.sh"
  idle_parent_up
  faults_begin "agent kill, wrapper-placed container"
  containers_before=$(docker ps -aq | sort)
  pipeline_job f-clientkill <<G
node('fault') {
  withEnv(['FAULTMARK=f-clientkill']) {
    withSchedPolicy('idle') {
      sh 'docker run --rm --network none --label schedpolicy.live=clientkill -v $FLAGS:/flags $IMAGE sh -c ": > /flags/f-clientkill-started; until [ -e /flags/f-clientkill-go ]; do sleep 0.2; done; echo CLIENTKILL-DONE"'
    }
  }
}
G
  pipeline_job f-clientsweep <<G
node('fault') { withSchedPolicy('idle') { sh 'true' } }
G
  container_cg() { local id p; id=$(docker ps -q --filter label=schedpolicy.live=clientkill); [ -n "$id" ] || return 1
    p=$(docker inspect -f '{{.State.Pid}}' "$id" 2>/dev/null); cg_of "$p"; }
  ok_dir=0 ok_placed=0 ok_kept=0 ok_build=0 ok_gone=0 ok_left=0 notes=
  for c in $(seq "$CYCLES"); do
    fresh_flags f-clientkill
    n=$(started_blocking f-clientkill) || { fail "client kill cycle $c: the container did not start"; break; }
    before=$(container_cg)
    [[ "$before" == /schedpolicy.idle/* ]] && ok_placed=$((ok_placed + 1))
    dead=$FA_PID
    sigkill_jvm "$dead"
    # what the dead JVM leaves: its wrapper directory, for the next start to sweep
    ls -d "$STATE"/jvm-"$dead"-* >/dev/null 2>&1 && ok_dir=$((ok_dir + 1))
    sleep 1
    after=$(container_cg)
    [ "$after" = "$before" ] && ok_kept=$((ok_kept + 1))
    fa_start || { fail "client kill cycle $c: the agent did not come back"; break; }
    : >"$FLAGS/f-clientkill-go"
    r=$(wait_build f-clientkill "$n" 300); console_of f-clientkill "$n"
    [ "$r" = SUCCESS ] && console_has '^CLIENTKILL-DONE' \
      && console_has "^\[schedpolicy\] 'docker run' placed under 'idle' with --cgroup-parent=/schedpolicy.idle" \
      && ok_build=$((ok_build + 1))
    wait_for 20 bash -c "[ -z \"\$(docker ps -aq --filter label=schedpolicy.live=clientkill)\" ]" && ok_gone=$((ok_gone + 1))
    # the agent's own next start with a policed launch sweeps the dead JVM's wrapper directory
    fa_stop; fa_start
    run_build f-clientsweep
    [ "$RESULT" = SUCCESS ] && leftovers f-clientkill && ok_left=$((ok_left + 1))
    notes="$notes${notes:+; }cycle $c: $r, container in ${before:-?} before the kill, ${after:-gone} after; $LEFT"
  done
  check_cycles "agent killed while its wrapper-placed container runs: the container was under the idle parent" "$ok_placed"
  check_cycles "agent killed: the container runs on in its placement" "$ok_kept"
  check_cycles "agent killed: the dead JVM left its wrapper directory (jvm-PID-*) for the next start" "$ok_dir"
  check_cycles "agent started again: the build reconnects, the container ends, SUCCESS with the placed line" "$ok_build"
  check_cycles "agent killed: the container is gone once it ended (--rm)" "$ok_gone"
  check_cycles "agent killed: no group, handshake entry or wrapper directory of the dead JVM after the next start" "$ok_left"
  note "$notes"
  docker ps -aq --filter label=schedpolicy.live=clientkill | xargs -r docker rm -f >/dev/null
  left=$(comm -13 <(echo "$containers_before") <(docker ps -aq | sort) | tr '\n' ' ')
  check "agent kill, wrapper-placed container: no container left${left:+ (left: $left)}" test -z "$left"
  faults_end
fi
