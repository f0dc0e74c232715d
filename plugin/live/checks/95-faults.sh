# Faults around a running block (issue 26): the controller SIGKILLed and restarted on the same JENKINS_HOME, an
# inbound agent's JVM SIGKILLed and started again, its connection dropped, a build aborted while its launch waits
# for the handshake or a container launch for its container, the agent's state directory unwritable or full, the cpu
# cgroup controller read-only, the idle parent removed while a build runs under it. Each case says what the user
# sees (result, console), what the kernel shows (/proc of the block's processes, found by a FAULTMARK variable in their environment) and what is left on
# the machine afterwards (cgroups schedpolicy-PID-* of every JVM involved, handshake entries in the agent's state
# directory, processes), repeated FAULT_CYCLES times (1 by default, 2 to 4.5 minutes on a busy 2-CPU machine; docs/no-leak.md gives 20 cycles, two runs of 10).
# Groups a dead JVM left are what the next start removes: after each case an engine start (the agent's, or a
# `schedpolicy run` with a cgroup policy) is made, and only what survives it counts as left over.
CYCLES=${FAULT_CYCLES:-1}
FAULTS_T0=$(date +%s)
FAULTS=0 LEFTOVERS=0 SWEPT=0
FD=$(mktemp -d "${TMPDIR:-/tmp}/schedpolicy-live-faults.XXXXXX")
CLEANUPS+=("rm -rf '$FD'")
FLAGS=$FD/flags RUNDIR=$FD/run
mkdir -p "$FLAGS" "$RUNDIR" && chmod 700 "$RUNDIR"
STATE=$RUNDIR/schedpolicy  # the fault agent's state directory: XDG_RUNTIME_DIR=$RUNDIR (StateDirs.choose)
JVMS=()                    # every controller and agent JVM of this file: their groups are looked for at the end

# --- helpers ---------------------------------------------------------------------------------------------------
marked() { grep -l "FAULTMARK=$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 | sort -n; }
# policy PID: scheduling class (field 41 of /proc/PID/stat); cg_of PID (lib.sh): its cpu cgroup
policy_of() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f39; }
# kernel_all MARK CLASS GROUP-PREFIX: every process of the block runs in CLASS, in a group whose path starts so
kernel_all() {
  local p n=0
  local cls cg
  for p in $(marked "$1"); do
    cls=$(policy_of "$p") cg=$(cg_of "$p")
    [ -n "$cls" ] && [ -n "$cg" ] || continue  # ended since it was listed (the wait loop's sleeps come and go)
    [ "$cls" = "$2" ] || { echo "pid $p class $cls"; return 1; }
    [[ "$cg" == $3* ]] || { echo "pid $p cgroup $cg"; return 1; }
    n=$((n + 1))
  done
  [ "$n" -gt 0 ]
}
wait_file() { for _ in $(seq $((${2:-120} * 5))); do [ -e "$1" ] && return 0; sleep 0.2; done; return 1; }
wait_gone() { for _ in $(seq $((${2:-30} * 5))); do [ -z "$(marked "$1")" ] && return 0; sleep 0.2; done; return 1; }
groups_of() { groups_made_by "$@"; }
# PIDs wrap within minutes on a busy machine, and another program's engine may then make groups under a dead JVM's
# PID: a dead JVM's groups are the ones it had when it died (gone PID), not whatever carries its PID later
: >"$FD/dead-groups"
gone() { groups_of "$1" >>"$FD/dead-groups"; echo "$1" >>"$FD/dead-pids"; }
dead_now() { while read -r g; do [ -d "$g" ] && echo "$g"; done <"$FD/dead-groups"; return 0; }
ours_now() { # groups of the live JVMs of this file, and those the dead ones left that still exist
  local p
  for p in "${JVMS[@]}"; do kill -0 "$p" 2>/dev/null && ! grep -qx "$p" "$FD/dead-pids" 2>/dev/null && groups_of "$p"; done
  while read -r g; do [ -d "$g" ] && echo "$g"; done <"$FD/dead-groups"
  return 0
}
handshakes() { find "$STATE" -mindepth 1 -maxdepth 1 ! -name 'park-shim-*.sh' 2>/dev/null; }
console_of() { CONSOLE="$OUT/console/$1-$2.txt"; jcurl "$J/job/$1/$2/consoleText" >"$CONSOLE"; }
# next_start: an engine start that creates a group under the root cpu cgroup, which sweeps the empty groups of dead
# creators there (StaleGroups); what it leaves is counted
next_start() { (cd "$ROOT" && ./schedpolicy run --cpu-quota 50 -- true) >>"$OUT/checks.log" 2>&1; }
# leftovers MARK: processes of MARK, groups of every JVM of this file, handshake entries; counted, printed
leftovers() {
  local procs groups hs before
  wait_gone "$1" 30
  # a live agent's registry reaps an empty group of a launch outside any block every 15 s
  for _ in $(seq 100); do [ -z "$(ours_now)" ] && break; sleep 0.2; done
  before=$(dead_now | grep -c .)
  next_start
  groups=$(ours_now) procs=$(marked "$1") hs=$(handshakes)
  SWEPT=$((SWEPT + before - $(dead_now | grep -c .)))
  LEFT="$(wc -w <<<"$procs") processes, $(grep -c . <<<"$groups") groups, $(grep -c . <<<"$hs") handshake entries"
  LEFTOVERS=$((LEFTOVERS + $(wc -w <<<"$procs") + $(grep -c . <<<"$groups") + $(grep -c . <<<"$hs")))
  [ -z "$procs$groups$hs" ] || {
    echo "left after $1: $procs $groups $hs" >>"$OUT/checks.log"
    local g q
    for g in $groups; do for q in $(cat "$g/cgroup.procs" 2>/dev/null); do
      echo "  in $g: $q $(tr '\0' ' ' <"/proc/$q/cmdline" 2>/dev/null | cut -c1-120)" >>"$OUT/checks.log"; done; done
    return 1
  }
}
reset_session() { CRUMB=; rm -f "$OUT/cookies"; }

# the controller, started again on the same JENKINS_HOME exactly as suite.sh started it
restart_jenkins() {
  JENKINS_HOME="$JHOME" setsid java -Xmx1g -Djenkins.install.runSetupWizard=false \
    -Dhudson.model.UpdateCenter.never=true -Dhudson.model.DownloadService.never=true \
    -jar "$WAR" --httpPort="$PORT" --httpListenAddress=127.0.0.1 --webroot="$JHOME/war" \
    >>"$OUT/jenkins.log" 2>&1 </dev/null &
  JENKINS_PID=$!
  STARTED_PIDS+=("$JENKINS_PID")
  JVMS+=("$JENKINS_PID")
  reset_session
  local n=$(grep -c 'Jenkins is fully up and running' "$OUT/jenkins.log")
  for _ in $(seq 480); do
    [ "$(grep -c 'Jenkins is fully up and running' "$OUT/jenkins.log")" -gt "$n" ] && return 0
    kill -0 "$JENKINS_PID" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}

# the fault agent: an inbound agent (WebSocket) with its own state directory (XDG_RUNTIME_DIR); fa_start [SETUP]
# runs SETUP (shell, as root) in a private mount namespace of the agent's own before it becomes the agent JVM
create_inbound_node fault-agent fault "$FD" 2 faults
fa_online() { agent_online fault-agent; }
fa_start() {
  local secret setup=${1:-true}
  secret=$(agent_secret fault-agent)
  setsid unshare -m --propagation private sh -c "$setup && exec env XDG_RUNTIME_DIR='$RUNDIR' java -jar '$FD/agent.jar' \
    -url '$J/' -secret $secret -name fault-agent -webSocket -workDir '$FD'" >>"$OUT/agent-fault.log" 2>&1 </dev/null &
  FA_PID=$!
  STARTED_PIDS+=("$FA_PID")
  JVMS+=("$FA_PID")
  for _ in $(seq 240); do fa_online && return 0; kill -0 "$FA_PID" 2>/dev/null || return 1; sleep 0.5; done
  return 1
}
fa_stop() { # SIGTERM, as a service manager stops it
  kill -TERM "$FA_PID" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$FA_PID" 2>/dev/null || break; sleep 0.2; done
  kill -KILL "$FA_PID" 2>/dev/null
  wait "$FA_PID" 2>/dev/null
  gone "$FA_PID"
  for _ in $(seq 100); do fa_online || return 0; sleep 0.2; done
}
# the block that waits: a policed sh that says what it runs under, waits for a go flag, and says it again
blocking_job() { # NAME NODE POLICY-ARGS [AFTER-BLOCK]
  pipeline_job "$1" <<G
node('$2') {
  withEnv(['FAULTMARK=$1']) {
    withSchedPolicy($3) {
      sh '$KV $1-before; : > $FLAGS/$1-started; set +x; while [ ! -e $FLAGS/$1-go ]; do sleep 0.2; done; $KV $1-after'
    }
    ${4:-}
  }
}
G
}
fresh_flags() { rm -f "$FLAGS/$1-started" "$FLAGS/$1-go"; }

JVMS+=("$JENKINS_PID")
# a session of our own: an earlier check may have talked to another Jenkins on 127.0.0.1 (curl keeps cookies per host)
reset_session
# no default policy from earlier checks (90-fleet leaves batch+nice5): each block here says all it asks for
groovy 'dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setDefaultPolicy(""); print "ok"' >/dev/null
fa_start
check "faults: inbound agent fault-agent is online (state directory $STATE)" fa_online

# --- 1. the controller SIGKILLed and started again mid-block -------------------------------------------------
blocking_job f-restart built-in "policy: 'idle', cpuQuota: 50" \
  "withSchedPolicy(policy: 'batch', cpuQuota: 60) { sh '$KV f-restart-resumed' }"
ok_kernel=0 ok_kept=0 ok_build=0 ok_resumed=0 ok_left=0 ok_line=0 ok_record=0 ok_usage=0 notes=
for c in $(seq "$CYCLES"); do
  fresh_flags f-restart
  n=$(start_build f-restart) && wait_file "$FLAGS/f-restart-started" || { fail "restart cycle $c: the block did not start"; break; }
  old=$JENKINS_PID
  kernel_all f-restart 5 "/schedpolicy-$old-" >>"$OUT/checks.log" && ok_kernel=$((ok_kernel + 1))
  kill -KILL "$old"; wait "$old" 2>/dev/null; gone "$old"; FAULTS=$((FAULTS + 1))
  for _ in $(seq 100); do kill -0 "$old" 2>/dev/null || break; sleep 0.1; done
  kernel_all f-restart 5 "/schedpolicy-$old-" >>"$OUT/checks.log" && ok_kept=$((ok_kept + 1))
  restart_jenkins || { fail "restart cycle $c: Jenkins did not start again"; break; }
  : >"$FLAGS/f-restart-go"
  r=$(wait_build f-restart "$n" 300); console_of f-restart "$n"
  [ "$r" = SUCCESS ] && console_has '^KERNEL f-restart-after .* policy=5 ' && ok_build=$((ok_build + 1))
  grep -q "verified: class idle, .*cpu cgroup /schedpolicy-$old-" "$CONSOLE" && ok_line=$((ok_line + 1))
  [ "$(grep -c '<dev.schedpolicy.engine.agent.LaunchRecord>' "$JHOME/jobs/f-restart/builds/$n/build.xml")" = 2 ] \
    && grep -q "<cpuCgroup>/schedpolicy-$old-" "$JHOME/jobs/f-restart/builds/$n/build.xml" && ok_record=$((ok_record + 1))
  [ "$(grep -c '^\[schedpolicy\] block cgroup usage' "$CONSOLE")" = 2 ] && ok_usage=$((ok_usage + 1))
  console_has 'Resuming build' && console_has '^KERNEL f-restart-resumed .* policy=3 .*quota=60000' \
    && console_has "^\[schedpolicy\] .*: pid [0-9]* verified: class batch" && ok_resumed=$((ok_resumed + 1))
  leftovers f-restart && ok_left=$((ok_left + 1))
  notes="$notes${notes:+; }cycle $c: $r, $LEFT"
done
check "controller SIGKILLed mid-block: the running sh is class idle in its quota group before ($ok_kernel/$CYCLES)" test "$ok_kernel" = "$CYCLES"
check "controller SIGKILLed: the orphaned sh keeps class idle and its group (the kernel's view) ($ok_kept/$CYCLES)" test "$ok_kept" = "$CYCLES"
check "controller started again on the same JENKINS_HOME: the build resumes, the sh ends still idle, SUCCESS ($ok_build/$CYCLES)" test "$ok_build" = "$CYCLES"
check "after resuming: 'Resuming build' in the console, the next block's sh is policed (batch, quota 60%) and verified ($ok_resumed/$CYCLES)" test "$ok_resumed" = "$CYCLES"
check "controller SIGKILLed: the console kept the verified line of the launch made before the kill ($ok_line/$CYCLES)" test "$ok_line" = "$CYCLES"
check "controller SIGKILLed: the build's saved record (build.xml) holds both launches, the first in the dead JVM's group ($ok_record/$CYCLES)" test "$ok_record" = "$CYCLES"
# the first block's group is the dead JVM's: empty once its sh ended, any engine start on the machine may sweep it before
# the block's end does, so its usage line is counted, not required
note "controller restarts: both blocks ended with their cgroup usage in $ok_usage of $CYCLES cycles"
check "controller restarts: nothing left after the next start (processes, groups of either JVM, handshakes) ($ok_left/$CYCLES)" test "$ok_left" = "$CYCLES"
note "$notes"

# --- 2. the agent's JVM SIGKILLed while the block runs on it, started again --------------------------------
blocking_job f-agentkill fault "policy: 'idle', cpuQuota: 50" \
  "withSchedPolicy(cpuQuota: 60) { sh '$KV f-agentkill-next' }"
ok_kept=0 ok_build=0 ok_log=0 ok_sweep=0 ok_left=0 ok_usage=0 notes=
for c in $(seq "$CYCLES"); do
  fresh_flags f-agentkill
  n=$(start_build f-agentkill) && wait_file "$FLAGS/f-agentkill-started" || { fail "agent kill cycle $c: the block did not start"; break; }
  dead=$FA_PID
  kill -KILL "$dead"; wait "$dead" 2>/dev/null; gone "$dead"; FAULTS=$((FAULTS + 1))
  for _ in $(seq 100); do kill -0 "$dead" 2>/dev/null || break; sleep 0.1; done
  kernel_all f-agentkill 5 "/schedpolicy-$dead-" >>"$OUT/checks.log" && ok_kept=$((ok_kept + 1))
  fa_start || { fail "agent kill cycle $c: the agent did not come back"; break; }
  : >"$FLAGS/f-agentkill-go"
  r=$(wait_build f-agentkill "$n" 300); console_of f-agentkill "$n"
  [ "$r" = SUCCESS ] && console_has '^KERNEL f-agentkill-after .* policy=5 ' && console_has '^KERNEL f-agentkill-next .*quota=60000' \
    && ok_build=$((ok_build + 1))
  console_has 'fault-agent seems to be removed or offline' && console_has 'fault-agent is back online' \
    && ok_log=$((ok_log + 1))
  [ "$(grep -c '^\[schedpolicy\] block cgroup usage' "$CONSOLE")" = 2 ] && ok_usage=$((ok_usage + 1))
  # the agent's own next start: a cgroup block on a fresh agent JVM sweeps the dead one's empty group
  wait_gone f-agentkill 30
  fa_stop; fa_start
  pipeline_job f-sweep <<G
node('fault') { withSchedPolicy(cpuQuota: 70) { sh 'true' } }
G
  run_build f-sweep
  [ "$RESULT" = SUCCESS ] && [ -z "$(groups_of "$dead")" ] && ok_sweep=$((ok_sweep + 1))
  leftovers f-agentkill && ok_left=$((ok_left + 1))
  notes="$notes${notes:+; }cycle $c: $r, $LEFT"
done
check "agent JVM SIGKILLed mid-block: its sh keeps class idle in the dead agent's group ($ok_kept/$CYCLES)" test "$ok_kept" = "$CYCLES"
check "agent JVM SIGKILLed: the console says the agent was lost ($ok_log/$CYCLES)" test "$ok_log" = "$CYCLES"
check "agent started again: the build reconnects to the running sh, the next block is policed, SUCCESS ($ok_build/$CYCLES)" test "$ok_build" = "$CYCLES"
note "agent kills: both blocks ended with their cgroup usage in $ok_usage of $CYCLES cycles (the dead agent's empty group may be swept first)"
check "agent's next start removes the dead agent's group (StaleGroups on the agent) ($ok_sweep/$CYCLES)" test "$ok_sweep" = "$CYCLES"
check "agent kills: nothing left after the next start ($ok_left/$CYCLES)" test "$ok_left" = "$CYCLES"
note "$notes"

# --- 3. the agent's connection dropped mid-step and restored (the agent JVM reconnects by itself) -----------
blocking_job f-drop fault "policy: 'idle', cpuQuota: 50"
ok_kept=0 ok_build=0 ok_left=0 ok_usage=0 notes=
for c in $(seq "$CYCLES"); do
  fresh_flags f-drop
  n=$(start_build f-drop) && wait_file "$FLAGS/f-drop-started" || { fail "drop cycle $c: the block did not start"; break; }
  jpost computer/fault-agent/doDisconnect --data-urlencode 'offlineMessage=fault suite: connection dropped' -o /dev/null
  FAULTS=$((FAULTS + 1))
  for _ in $(seq 50); do fa_online || break; sleep 0.2; done
  kernel_all f-drop 5 "/schedpolicy-$FA_PID-" >>"$OUT/checks.log" && ok_kept=$((ok_kept + 1))
  for _ in $(seq 240); do fa_online && break; sleep 0.5; done
  : >"$FLAGS/f-drop-go"
  r=$(wait_build f-drop "$n" 300); console_of f-drop "$n"
  [ "$r" = SUCCESS ] && console_has '^KERNEL f-drop-after .* policy=5 .*quota=50000' && ok_build=$((ok_build + 1))
  console_has '^\[schedpolicy\] block cgroup usage' && ok_usage=$((ok_usage + 1))
  leftovers f-drop && ok_left=$((ok_left + 1))
  notes="$notes${notes:+; }cycle $c: $r, agent pid $FA_PID, $LEFT"
done
check "connection dropped mid-step: the sh keeps class idle and its group while the agent is offline ($ok_kept/$CYCLES)" test "$ok_kept" = "$CYCLES"
check "connection restored: durable-task picks the step up again, the sh ends idle in its 50% group, SUCCESS ($ok_build/$CYCLES)" test "$ok_build" = "$CYCLES"
check "connection restored: the block ends with its cgroup usage, its group (the earlier connection's) removed ($ok_usage/$CYCLES)" test "$ok_usage" = "$CYCLES"
check "connection drops: nothing left ($ok_left/$CYCLES)" test "$ok_left" = "$CYCLES"
note "$notes"

# --- 4. a build aborted while its launch waits for the handshake -------------------------------------------
# The agent's /bin/sh (dash) is, in its own mount namespace, a wrapper that sleeps 8 s before it runs the park
# shim (any other sh runs at once): the launch waits for the shim's PID as on a very slow machine, and the build is
# aborted meanwhile. Two phases: the block's own probe launch (/bin/sh -c :, when the block starts) and the sh step's
# launch (durable-task's nohup sh); $FD/slow-mode says which one is slowed.
# The build must end within ABORT_BOUND_MS of the stop (the stop's POST to the build's end as the API reports it,
# polled every 0.2 s; the sh launch's abort reaches the agent through the plugin's AbortWatch, which polls every 0.2 s).
ABORT_BOUND_MS=${FAULT_ABORT_BOUND_MS:-2500}
cp "$(readlink -f /bin/sh)" "$FD/real-sh"
cat >"$FD/slow-sh" <<EOF
#!$FD/real-sh
case "\$*:\$(cat $FD/slow-mode 2>/dev/null)" in
  *park-shim-*' -c ::probe') sleep 8 ;;
  *park-shim-*' -c ::'*) ;;
  *park-shim-*:sh) sleep 8 ;;
esac
exec $FD/real-sh "\$@"
EOF
chmod +x "$FD/slow-sh"
# a `sleep 8` whose parent runs a park shim: the launch waits for the shim's PID now
slowed_shim() {
  local p
  for p in $(pgrep -x sleep); do
    grep -q park-shim "/proc/$(cut -d' ' -f4 "/proc/$p/stat" 2>/dev/null)/cmdline" 2>/dev/null && return 0
  done
  return 1
}
fa_stop
if fa_start "mount --bind '$FD/slow-sh' '$(readlink -f /bin/sh)'"; then
  pipeline_job f-abort <<G
node('fault') { withEnv(['FAULTMARK=f-abort']) { withSchedPolicy('idle') { sh ': > $FLAGS/f-abort-ran; $KV f-abort' } } }
G
  for phase in probe sh; do
    echo "$phase" >"$FD/slow-mode"
    ok_end=0 ok_prompt=0 ok_never=0 ok_left=0 notes=
    for c in $(seq "$CYCLES"); do
      rm -f "$FLAGS/f-abort-ran"
      n=$(start_build f-abort)
      # waiting: the slowed sh sleeps before the shim of the phase's launch (not the shim of a launch that passes at
      # once: an abort timed by that one landed between the probe and the body)
      for _ in $(seq 300); do slowed_shim && break; sleep 0.1; done
      t0=$(date +%s%N)
      jpost "job/f-abort/$n/stop" -o /dev/null; FAULTS=$((FAULTS + 1))
      r=$(wait_build f-abort "$n" 120)
      ms=$(( ($(date +%s%N) - t0) / 1000000 ))
      console_of f-abort "$n"
      [ "$r" = ABORTED ] && ! grep -qE '^\s+at ' "$CONSOLE" && grep -q '^Aborted by' "$CONSOLE" \
        && [ "$(grep -c '\[schedpolicy\].*aborted' "$CONSOLE")" = 1 ] && ok_end=$((ok_end + 1))
      # the slowed sh holds the shim back 8 s: a build that ends within the bound was not waiting for it
      [ "$r" = ABORTED ] && [ "$ms" -le "$ABORT_BOUND_MS" ] && ok_prompt=$((ok_prompt + 1))
      sleep 9  # the slowed sh then runs the shim, which finds no handshake and exits 125
      [ ! -e "$FLAGS/f-abort-ran" ] && ok_never=$((ok_never + 1))
      leftovers f-abort && ok_left=$((ok_left + 1))
      notes="$notes${notes:+; }cycle $c: $r after $ms ms, $LEFT"
      line=$(grep -E '^\[schedpolicy\].*aborted|^ERROR|Exception' "$CONSOLE" | head -2 | tr '\n' ' ' | cut -c1-220)
    done
    check "aborted while the $phase launch waits for the handshake: ABORTED, one [schedpolicy] line, no stack trace ($ok_end/$CYCLES)" test "$ok_end" = "$CYCLES"
    note "${line:-(no [schedpolicy] line)}"
    check "aborted $phase handshake: the build ended within $ABORT_BOUND_MS ms of the stop, not when the slow shim came ($ok_prompt/$CYCLES)" test "$ok_prompt" = "$CYCLES"
    check "aborted $phase handshake: the command never ran, not even when the slow shim came late ($ok_never/$CYCLES)" test "$ok_never" = "$CYCLES"
    check "aborted $phase handshakes: nothing left (processes, handshake directories, groups) ($ok_left/$CYCLES)" test "$ok_left" = "$CYCLES"
    note "$notes"
  done
else
  fail "abort: the agent with a slow /bin/sh did not start (see $OUT/agent-fault.log)"
fi
# --- 4b. a build aborted while a container launch waits for its container -----------------------------------
# docker-workflow's inside issues its `docker run` through the block's launcher; the engine places the container and
# the release waits (up to 5 s) for it to run. In the fault agent's own mount namespace `docker` is a wrapper that
# sleeps 8 s before it runs the real client for `run` (any other subcommand runs at once), so the release waits for
# a container that is slow to appear, and the build is stopped meanwhile. The body's sh writes a marker into the
# workspace (the only host directory the container sees): it must never be there.
IMAGE=${SCHEDPOLICY_TEST_IMAGE:-}
why_not=
grep -q '"active":true,"shortName":"docker-workflow"' <<<"$(jcurl "$J/pluginManager/api/json?depth=1&tree=plugins\[shortName,active\]")" \
  || why_not="docker-workflow is not among the plugins given"
[ -n "$why_not" ] || docker info >/dev/null 2>&1 || why_not="no Docker daemon answers (DOCKER_HOST=${DOCKER_HOST:-unset})"
[ -n "$why_not" ] || { [ -n "$IMAGE" ] && docker image inspect "$IMAGE" >/dev/null 2>&1; } \
  || why_not="no local image to run (SCHEDPOLICY_TEST_IMAGE=${IMAGE:-unset})"
if [ -n "$why_not" ]; then
  skip "faults: a build aborted while a container launch waits for its container: $why_not"
else
  REAL_DOCKER=$(readlink -f "$(command -v docker)")
  cp "$REAL_DOCKER" "$FD/real-docker"
  printf '#!/bin/sh\n[ "$1" = run ] && sleep 8\nexec %s "$@"\n' "$FD/real-docker" >"$FD/slow-docker"
  chmod +x "$FD/slow-docker"
  fa_stop
  if fa_start "mount --bind '$FD/slow-docker' '$REAL_DOCKER'"; then
    pipeline_job f-ctabort <<G
node('fault') { withEnv(['FAULTMARK=f-ctabort']) { withSchedPolicy(cpuQuota: 50) {
  docker.image('$IMAGE').inside { sh ': > ran-marker' }
} } }
G
    ok_end=0 ok_prompt=0 ok_never=0 ok_left=0 notes= line=
    for c in $(seq "$CYCLES"); do
      containers_before=$(docker ps -aq | sort)
      rm -f "$FD/workspace/f-ctabort/ran-marker"
      n=$(start_build f-ctabort)
      for _ in $(seq 600); do pgrep -f "^/bin/sh $REAL_DOCKER run " >/dev/null && break; sleep 0.1; done
      sleep 0.5  # the release is waiting for the container's id
      t0=$(date +%s%N)
      jpost "job/f-ctabort/$n/stop" -o /dev/null; FAULTS=$((FAULTS + 1))
      r=$(wait_build f-ctabort "$n" 120)
      ms=$(( ($(date +%s%N) - t0) / 1000000 ))
      console_of f-ctabort "$n"
      [ "$r" = ABORTED ] && ! grep -qE '^\s+at |MaskedException' "$CONSOLE" && grep -q '^Aborted by' "$CONSOLE" \
        && [ "$(grep -c '\[schedpolicy\].*aborted' "$CONSOLE")" = 1 ] && ok_end=$((ok_end + 1))
      [ "$r" = ABORTED ] && [ "$ms" -le "$ABORT_BOUND_MS" ] && ok_prompt=$((ok_prompt + 1))
      sleep 9  # a client that was not stopped would reach the daemon by now
      [ ! -e "$FD/workspace/f-ctabort/ran-marker" ] && ok_never=$((ok_never + 1))
      extra=$(comm -13 <(echo "$containers_before") <(docker ps -aq | sort) | grep -c .)
      leftovers f-ctabort && [ "$extra" = 0 ] && ok_left=$((ok_left + 1))
      [ "$extra" = 0 ] || echo "containers left after f-ctabort: $(comm -13 <(echo "$containers_before") <(docker ps -aq | sort))" >>"$OUT/checks.log"
      LEFTOVERS=$((LEFTOVERS + extra))
      notes="$notes${notes:+; }cycle $c: $r after $ms ms, $LEFT, $extra containers"
      line=$(grep -m1 '\[schedpolicy\].*aborted' "$CONSOLE" | cut -c1-220)
    done
    check "aborted while the container launch waits for its container: ABORTED, one [schedpolicy] line, no stack trace ($ok_end/$CYCLES)" test "$ok_end" = "$CYCLES"
    note "${line:-(no [schedpolicy] line)}"
    check "aborted container launch: the build ended within $ABORT_BOUND_MS ms of the stop, not when the slow client came ($ok_prompt/$CYCLES)" test "$ok_prompt" = "$CYCLES"
    check "aborted container launch: the body's sh never ran in a container ($ok_never/$CYCLES)" test "$ok_never" = "$CYCLES"
    check "aborted container launches: nothing left (containers, processes, handshake entries, groups) ($ok_left/$CYCLES)" test "$ok_left" = "$CYCLES"
    note "$notes"
  else
    fail "container abort: the agent with a slow docker client did not start (see $OUT/agent-fault.log)"
  fi
fi

# --- 5. the agent's state directory unwritable, or on a full disk; the cpu cgroup controller read-only ------
# policy_refused NAME SETUP POLICY WHAT: the agent started with SETUP in its mount namespace; a block there fails
refused_case() {
  local name=$1 setup=$2 policy=$3 what=$4 ok=0 ok_left=0 line=
  fa_stop
  fa_start "$setup" || { fail "$what: the agent did not start"; return; }
  pipeline_job "$name" <<G
node('fault') { withEnv(['FAULTMARK=$name']) { withSchedPolicy($policy) { sh ': > $FLAGS/$name-ran; $KV $name' } } }
G
  for c in $(seq "$CYCLES"); do
    rm -f "$FLAGS/$name-ran"
    run_build "$name" 120; FAULTS=$((FAULTS + 1))
    [ "$RESULT" = FAILURE ] && [ ! -e "$FLAGS/$name-ran" ] && grep -q '^ERROR: \[schedpolicy\]' "$CONSOLE" \
      && ! grep -qE '^\s+at ' "$CONSOLE" && ok=$((ok + 1))
    line=$(grep -m1 '\[schedpolicy\]' "$CONSOLE" | cut -c1-200)
    leftovers "$name" && ok_left=$((ok_left + 1))
  done
  check "$what: FAILURE with one [schedpolicy] ERROR line, the body never ran ($ok/$CYCLES)" test "$ok" = "$CYCLES"
  note "$line"
  check "$what: nothing left ($ok_left/$CYCLES)" test "$ok_left" = "$CYCLES"
}
refused_case f-state-ro "mount -t tmpfs -o ro,mode=0700,size=64k tmpfs '$RUNDIR'" "'idle'" \
  "state directory unwritable (read-only tmpfs under XDG_RUNTIME_DIR)"
refused_case f-state-full "mount -t tmpfs -o mode=0700,size=16k tmpfs '$RUNDIR' && (dd if=/dev/zero of='$RUNDIR/fill' bs=4k 2>/dev/null; true)" \
  "'idle'" "state directory on a full disk (16 KiB tmpfs, filled)"
refused_case f-cgroup-ro "mount -o remount,bind,ro $CPU_ROOT" "cpuQuota: 50" \
  "cpu cgroup controller read-only in the agent's mount namespace"
fa_stop
fa_start  # as the next checks expect it: no fault

# --- 6. the idle parent removed while a build runs under it ------------------------------------------------
IDLE_PARENT=$CPU_ROOT/schedpolicy.idle
if [ -d "$IDLE_PARENT" ]; then
  skip "idle parent removal: $IDLE_PARENT exists already (made outside this check), so it is not removed here"
else
  (cd "$ROOT" && ./schedpolicy setup) >>"$OUT/checks.log" 2>&1
  CLEANUPS+=("[ -d '$IDLE_PARENT' ] && cd '$ROOT' && ./schedpolicy setup --remove")
  groovy "dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setCgroupParent('$IDLE_PARENT'); print 'ok'" >/dev/null
  blocking_job f-parent fault "cpuIdle: true"
  ok_refused=0 ok_build=0 ok_after=0 ok_left=0 line=
  for c in $(seq "$CYCLES"); do
    [ -d "$IDLE_PARENT" ] || (cd "$ROOT" && ./schedpolicy setup) >>"$OUT/checks.log" 2>&1
    fresh_flags f-parent
    n=$(start_build f-parent) && wait_file "$FLAGS/f-parent-started" || { fail "idle parent cycle $c: the block did not start"; break; }
    removal=$(cd "$ROOT" && ./schedpolicy setup --remove 2>&1); rc=$?; FAULTS=$((FAULTS + 1))
    rmdir "$IDLE_PARENT" 2>/dev/null; rmdir_rc=$?
    [ "$rc" != 0 ] && [ "$rmdir_rc" != 0 ] && [ -d "$IDLE_PARENT" ] && kernel_all f-parent 0 /schedpolicy.idle/schedpolicy- >>"$OUT/checks.log" \
      && ok_refused=$((ok_refused + 1))
    line="exit $rc: $(tr '\n' ' ' <<<"$removal" | cut -c1-160)"
    : >"$FLAGS/f-parent-go"
    r=$(wait_build f-parent "$n" 120); console_of f-parent "$n"
    [ "$r" = SUCCESS ] && console_has '^KERNEL f-parent-after .*cgroup=/schedpolicy.idle/' && ok_build=$((ok_build + 1))
    # once the build is over the parent goes; a block asking for it then fails in words
    (cd "$ROOT" && ./schedpolicy setup --remove) >>"$OUT/checks.log" 2>&1
    pipeline_job f-parent-gone <<G
node('fault') { withEnv(['FAULTMARK=f-parent-gone']) { withSchedPolicy(cpuIdle: true) { sh ': > $FLAGS/f-parent-gone-ran' } } }
G
    rm -f "$FLAGS/f-parent-gone-ran"
    run_build f-parent-gone 120
    [ ! -d "$IDLE_PARENT" ] && [ "$RESULT" = FAILURE ] && [ ! -e "$FLAGS/f-parent-gone-ran" ] \
      && grep -q '^ERROR: \[schedpolicy\].*schedpolicy.idle' "$CONSOLE" && ok_after=$((ok_after + 1))
    after_line=$(grep -m1 'schedpolicy.idle' "$CONSOLE" | cut -c1-200)
    leftovers f-parent && ok_left=$((ok_left + 1))
  done
  groovy "dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setCgroupParent(''); print 'ok'" >/dev/null
  check "idle parent: 'schedpolicy setup --remove' (and a bare rmdir) refused while a block's sh runs under it ($ok_refused/$CYCLES)" test "$ok_refused" = "$CYCLES"
  note "$line"
  check "idle parent: the build under it goes on to SUCCESS ($ok_build/$CYCLES)" test "$ok_build" = "$CYCLES"
  check "idle parent removed after the build: the next cpuIdle block fails in words naming it, its body never ran ($ok_after/$CYCLES)" test "$ok_after" = "$CYCLES"
  note "$after_line"
  check "idle parent: nothing left ($ok_left/$CYCLES)" test "$ok_left" = "$CYCLES"
fi

check "faults: $FAULTS faults injected in $CYCLES cycles per case; $SWEPT groups of dead JVMs removed by the next start; $LEFTOVERS leftovers" \
  test "$LEFTOVERS" = 0
note "faults: $(( $(date +%s) - FAULTS_T0 )) s for $CYCLES cycles; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
fa_stop
