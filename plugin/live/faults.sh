# The fault checks' shared vocabulary (checks/*-fault-*.sh source it, then call faults_begin): faults around a running
# block, each check one kind of fault. Each case says what the user sees (result, console), what the kernel shows
# (/proc of the block's processes, found by a FAULTMARK variable in their environment) and what is left on the machine
# afterwards (cgroups schedpolicy-PID-* of every JVM involved, handshake entries in the agent's state directory,
# processes), repeated FAULT_CYCLES times (1 by default; docs/no-leak.md gives 20 cycles, two runs of 10).
# Groups a dead JVM left are what the next start removes: after each case an engine start (the agent's, or a
# `schedpolicy run` with a cgroup policy) is made, and only what survives it counts as left over.
# The fault agent, its folder and the list of dead JVMs are made by the first fault check of a run and kept for the next.
CYCLES=${FAULT_CYCLES:-1}

# faults_begin WHAT [SETUP]: the counters of one check, no default policy, the fault agent online (started with SETUP,
# see fa_start), said in one check line
faults_begin() {
  FAULTS_WHAT=$1 FAULTS_T0=$(date +%s) FAULTS=0 LEFTOVERS=0 SWEPT=0
  JVMS+=("$JENKINS_PID")
  # a session of our own: an earlier check may have talked to another Jenkins on 127.0.0.1 (curl keeps cookies per host)
  reset_session
  # no default policy from earlier checks (86-fleet leaves batch+nice5): each block here says all it asks for
  groovy 'dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setDefaultPolicy(""); print "ok"' >/dev/null
  fa_start "${2:-true}"
  check "faults ($1): inbound agent fault-agent is online (state directory $STATE)" fa_online
}
# check_cycles DESCRIPTION COUNT: PASS when what was counted held in every one of the $CYCLES cycles
check_cycles() { check "$1 ($2/$CYCLES)" test "$2" = "$CYCLES"; }
# faults_end: what the check injected and left, in one check line; the fault agent stopped
faults_end() {
  check "faults ($FAULTS_WHAT): $FAULTS faults injected in $CYCLES cycles per case; $SWEPT groups of dead JVMs removed by the next start; $LEFTOVERS leftovers" \
    test "$LEFTOVERS" = 0
  note "faults ($FAULTS_WHAT): $(( $(date +%s) - FAULTS_T0 )) s for $CYCLES cycles; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
  fa_stop
}

# policy_of PID: scheduling class (field 41 of /proc/PID/stat); cg_of PID (lib.sh): its cpu cgroup
policy_of() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f39; }
# kernel_all MARK CLASS GROUP-PREFIX: every process of the block runs in CLASS, in a group whose path starts so
kernel_all() {
  local p n=0 cls cg
  for p in $(procs_marked "$1"); do
    cls=$(policy_of "$p") cg=$(cg_of "$p")
    [ -n "$cls" ] && [ -n "$cg" ] || continue  # ended since it was listed (the wait loop's sleeps come and go)
    [ "$cls" = "$2" ] || { echo "pid $p class $cls"; return 1; }
    [[ "$cg" == $3* ]] || { echo "pid $p cgroup $cg"; return 1; }
    n=$((n + 1))
  done
  [ "$n" -gt 0 ]
}
no_procs_marked() { [ -z "$(procs_marked "$1")" ]; }
# sigkill_jvm PID: the fault itself: SIGKILL, counted, its groups noted as a dead JVM's, waited for until it is gone
sigkill_jvm() {
  kill -KILL "$1"; wait "$1" 2>/dev/null; gone "$1"; FAULTS=$((FAULTS + 1))
  for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
}
# PIDs wrap within minutes on a busy machine, and another program's engine may then make groups under a dead JVM's
# PID: a dead JVM's groups are the ones it had when it died (gone PID), not whatever carries its PID later
gone() { groups_made_by "$1" >>"$FD/dead-groups"; echo "$1" >>"$FD/dead-pids"; }
dead_now() { while read -r g; do [ -d "$g" ] && echo "$g"; done <"$FD/dead-groups"; return 0; }
ours_now() { # groups of the live JVMs of the fault checks, and those the dead ones left that still exist
  local p
  for p in "${JVMS[@]}"; do kill -0 "$p" 2>/dev/null && ! grep -qx "$p" "$FD/dead-pids" 2>/dev/null && groups_made_by "$p"; done
  dead_now
}
none_of_ours() { [ -z "$(ours_now)" ]; }
# handshake entries; a JVM's long-lived directory (jvm-PID-N: the agent's container client wrappers) counts once the
# JVM is gone (the next start sweeps it)
handshakes() {
  local e n p
  for e in $(find "$STATE" -mindepth 1 -maxdepth 1 ! -name 'park-shim-*.sh' 2>/dev/null); do
    n=${e##*/}
    case $n in jvm-*) p=${n#jvm-}; p=${p%%-*}; kill -0 "$p" 2>/dev/null && continue ;; esac
    echo "$e"
  done
}
# next_start: an engine start that creates a group under the root cpu cgroup, which sweeps the empty groups of dead
# creators there (StaleGroups); what it leaves is counted
next_start() { (cd "$ROOT" && ./schedpolicy run --cpu-quota 50 -- true) >>"$OUT/checks.log" 2>&1; }
# leftovers MARK: processes of MARK, groups of every JVM of the fault checks, handshake entries; counted, said in LEFT
leftovers() {
  local procs groups hs before
  wait_for 30 no_procs_marked "$1"
  # a live agent's registry reaps an empty group of a launch outside any block every 15 s
  wait_for 20 none_of_ours
  before=$(dead_now | grep -c .)
  next_start
  # a group that goes within 10 s more was in flight, not left: after a reconnect the controller probes the agent
  # again, in a scratch group of the new connection's, at a moment a busy machine makes late
  [ -z "$(ours_now)" ] || wait_for 10 none_of_ours
  groups=$(ours_now) procs=$(procs_marked "$1") hs=$(handshakes)
  SWEPT=$((SWEPT + before - $(dead_now | grep -c .)))
  LEFT="$(wc -w <<<"$procs") processes, $(grep -c . <<<"$groups") groups, $(grep -c . <<<"$hs") handshake entries"
  LEFTOVERS=$((LEFTOVERS + $(wc -w <<<"$procs") + $(grep -c . <<<"$groups") + $(grep -c . <<<"$hs")))
  [ -z "$procs$groups$hs" ] || {
    echo "left after $1: $procs $groups $hs" >>"$OUT/checks.log"
    local g q m
    for g in $groups; do
      # who the name points to, and since when: a group older than the process holding its PID is a wrapped PID's
      m=${g##*/schedpolicy-}; m=${m%%-*} q=$(ps -o lstart=,args= -p "$m" 2>/dev/null | cut -c1-140)
      echo "  $g: made $(stat -c %y "$g" 2>/dev/null), tasks [$(tr '\n' ' ' 2>/dev/null <"$g/tasks")]; pid $m: ${q:-gone}" \
        >>"$OUT/checks.log"
      for q in $(cat "$g/cgroup.procs" 2>/dev/null); do
        echo "  in $g: $q $(tr '\0' ' ' <"/proc/$q/cmdline" 2>/dev/null | cut -c1-120)" >>"$OUT/checks.log"; done
    done
    return 1
  }
}
reset_session() { CRUMB=; rm -f "$OUT/cookies"; }

# restart_jenkins: the controller started again on the same JENKINS_HOME, exactly as suite.sh started it (its log
# appended to the same file, so the plugin's warnings of both runs are looked for at the end)
restart_jenkins() {
  local up; up=$(grep -c 'Jenkins is fully up and running' "$OUT/jenkins.log")
  start_jenkins "$JHOME" "$PORT" "$OUT/jenkins.log"
  JENKINS_PID=$JPID
  JVMS+=("$JENKINS_PID")
  reset_session
  wait_jenkins "$JENKINS_PID" "$OUT/jenkins.log" 240 "$up"
}

# the fault agent: an inbound agent (WebSocket) with its own state directory (XDG_RUNTIME_DIR); fa_start [SETUP]
# runs SETUP (shell, as root) in a private mount namespace of the agent's own before it becomes the agent JVM
fa_online() { agent_online fault-agent; }
fa_start() {
  # shellcheck disable=SC2016 # "$@" is the agent's command, expanded by the inner sh
  start_inbound_agent fault-agent "$FD" "$OUT/agent-fault.log" \
    unshare -m --propagation private sh -c "${1:-true}"' && exec "$@"' fault-setup env XDG_RUNTIME_DIR="$RUNDIR"
  FA_PID=$AGENT_STARTED
  JVMS+=("$FA_PID")
  for _ in $(seq 240); do fa_online && break; kill -0 "$FA_PID" 2>/dev/null || return 1; sleep 0.5; done
  fa_online || return 1
  # the controller probes an agent as it connects, in scratch groups of the agent's: a fault injected meanwhile would
  # find the probe's group among the leftovers (seen on a busy machine), so faults begin once it has its result
  for _ in $(seq 240); do fa_probed && return 0; sleep 0.5; done
  return 1
}
fa_probed() {
  [ "$(jcurl "$J/manage/schedpolicy-fleet/api/json" \
    | json_get "row('fault-agent')['probeAgeSeconds'] >= 0 and not row('fault-agent')['probing']" 2>/dev/null)" = True ]
}
fa_stop() { # SIGTERM, as a service manager stops it
  kill -TERM "$FA_PID" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$FA_PID" 2>/dev/null || break; sleep 0.2; done
  kill -KILL "$FA_PID" 2>/dev/null
  wait "$FA_PID" 2>/dev/null
  gone "$FA_PID"
  for _ in $(seq 100); do fa_online || return 0; sleep 0.2; done
}
# blocking_job NAME NODE POLICY-ARGS [AFTER-BLOCK]: a policed sh that says what it runs under, waits for a go flag,
# and says it again
blocking_job() {
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
# started_blocking NAME: starts the blocking job's build and prints its number once its sh runs
started_blocking() { local n; n=$(start_build "$1") && wait_for 120 test -e "$FLAGS/$1-started" && echo "$n"; }

# the fault agent's folder and node, made once per run
if [ -z "${FD:-}" ]; then
  FD=$(mktemp -d "${TMPDIR:-/tmp}/schedpolicy-live-faults.XXXXXX")
  CLEANUPS+=("rm -rf '$FD'")
  FLAGS=$FD/flags RUNDIR=$FD/run
  mkdir -p "$FLAGS" "$RUNDIR" && chmod 700 "$RUNDIR"
  STATE=$RUNDIR/schedpolicy  # the fault agent's state directory: XDG_RUNTIME_DIR=$RUNDIR (StateDirs.choose)
  JVMS=()                    # every controller and agent JVM of the fault checks: their groups are looked for
  : >"$FD/dead-groups"
  reset_session
  create_inbound_node fault-agent fault "$FD" 2 faults
fi

# --- a guard with another build lowered (the guard fault checks: 88-fault-guard-restart, 89-fault-guard-abort,
# 90-fault-guard-drop). On the fault agent: f-ghog, measured and so unlowered (its launch goes through the agent), runs
# two busy loops on CPU 0; f-gtests, allowed to guard, runs a busy loop on CPU 0 in withSchedGuard until the flag
# f-gtests-go. Both carry FAULTMARK=f-guard. guard_lowered starts both and waits until the guard moved the loops.
guard_jobs() {
  groovy "def c = dev.schedpolicy.jenkins.SchedPolicyConfiguration.get(); c.setMeasureAllSteps(true); c.setGuardJobs('f-gtests');
println 'ok'" >>"$OUT/checks.log"
  pipeline_job f-ghog <<G
node('fault') { withEnv(['FAULTMARK=f-guard']) {
  sh 'for i in 1 2; do timeout 300 taskset -c 0 sh -c ": ghog-loop; while :; do :; done" & done; : > $FLAGS/f-ghog-started; wait'
} }
G
  pipeline_job f-gtests <<G
node('fault') { withEnv(['FAULTMARK=f-guard']) { withSchedGuard {
  sh 'timeout 300 taskset -c 0 sh -c ": gtests-loop; while [ ! -e $FLAGS/f-gtests-go ]; do :; done"; echo gtests-done'
} } }
G
}
guard_jobs_off() {
  groovy "def c = dev.schedpolicy.jenkins.SchedPolicyConfiguration.get(); c.setMeasureAllSteps(false); c.setGuardJobs('');
println 'ok'" >>"$OUT/checks.log"
}
ghog_pids() { pgrep -f '^sh -c : ghog-loop' | sort -n; }
gtests_pid() { pgrep -f '^sh -c : gtests-loop' | head -1; }
# in_guard_group JVM-PID: every loop of the hog sits in a group that JVM made (the guard's idle group)
in_guard_group() { local p; for p in $HOG_LOOPS; do [[ "$(cg_of "$p")" == /schedpolicy-$1-* ]] || return 1; done; test -n "$HOG_LOOPS"; }
# loops_home: every loop of the hog is back in the group and scheduling class it had before the guard (or has ended)
loops_home() {
  local p cg cls
  for p in $HOG_LOOPS; do
    cg=$(cg_of "$p") cls=$(policy_of "$p")
    [ -z "$cg" ] && continue  # ended
    [ "$cg" = "${HOME_OF[$p]}" ] && [ "$cls" = "${CLASS_OF[$p]}" ] || return 1
  done
}
where_loops() { local p; for p in $HOG_LOOPS; do printf '%s:%s:%s ' "$p" "$(cg_of "$p")" "$(policy_of "$p")"; done; }
# guard_idle_groups JVM-PID: the cpu.idle (or lowest-weight) groups that JVM made, none once its guards put all back
guard_idle_groups() {
  local g
  for g in $(groups_made_by "$1"); do
    if [ "$(cat "$g/cpu.idle" 2>/dev/null)" = 1 ] || [ "$(cat "$g/cpu.shares" "$g/cpu.weight" 2>/dev/null | head -1)" = 2 ]; then echo "$g"; fi
  done
  return 0
}
no_guard_idle_groups() { [ -z "$(guard_idle_groups "$1")" ]; }
# guard_lowered: the hog started, then the guarded build; HOG_LOOPS, HOME_OF, CLASS_OF, HOG and TESTS set; true once the
# agent's guard moved every loop into its group
guard_lowered() {
  rm -f "$FLAGS/f-ghog-started" "$FLAGS/f-gtests-go"
  HOG=$(start_build f-ghog) && wait_for 120 test -e "$FLAGS/f-ghog-started" || return 1
  wait_for 30 bash -c "test \$(pgrep -cf '^sh -c : ghog-loop') -ge 2" || true
  HOG_LOOPS=$(ghog_pids | tr '\n' ' ')
  declare -gA HOME_OF=() CLASS_OF=()
  local p
  for p in $HOG_LOOPS; do HOME_OF[$p]=$(cg_of "$p") CLASS_OF[$p]=$(policy_of "$p"); done
  TESTS=$(start_build f-gtests) || return 1
  wait_for 60 in_guard_group "$FA_PID"
}
# ms_until LIMIT-S CONDITION...: milliseconds until CONDITION holds (polled every 20 ms), -1 when not within LIMIT-S
ms_until() {
  local limit=$(( $1 * 1000 )) t0 now; shift
  t0=$(date +%s%3N)
  while :; do
    "$@" && { now=$(date +%s%3N); echo $(( now - t0 )); return 0; }
    now=$(date +%s%3N)
    [ $(( now - t0 )) -ge "$limit" ] && { echo -1; return 1; }
    sleep 0.02
  done
}
# end_hog: the hog's loops and its build stopped (its console then says what it yielded)
end_hog() {
  local p
  for p in $HOG_LOOPS; do kill "$p" 2>/dev/null; done
  wait_build f-ghog "$HOG" 120 >/dev/null
}
# restore_times T0-MS GUARDED-PID [LIMIT-S]: END_MS, when the guarded loop ended, and BACK_MS, when every loop of the hog
# was home again, both in ms after T0 (-1: not within LIMIT-S, 30 by default); polled every 20 ms
restore_times() {
  local t0=$1 limit=$(( ${3:-30} * 1000 )) now
  END_MS=-1 BACK_MS=-1
  while :; do
    now=$(date +%s%3N)
    [ "$END_MS" = -1 ] && ! kill -0 "$2" 2>/dev/null && END_MS=$(( now - t0 ))
    [ "$BACK_MS" = -1 ] && loops_home && BACK_MS=$(( now - t0 ))
    [ "$END_MS" != -1 ] && [ "$BACK_MS" != -1 ] && return 0
    [ $(( now - t0 )) -ge "$limit" ] && return 1
    sleep 0.02
  done
}
# build_end_at NAME N: notes, in the background, when the build ends (its API says building false; polled every 0.2 s);
# build_ended: BUILD_ENDED, that time (epoch ms), once it has ended (waited for here: not in a $(...), whose subshell
# cannot wait for this shell's child)
build_end_at() { rm -f "$FD/build-ended"; ( wait_build "$1" "$2" 300 >/dev/null; date +%s%3N >"$FD/build-ended" ) & BUILD_WATCH=$!; }
build_ended() { wait "$BUILD_WATCH" 2>/dev/null; BUILD_ENDED=$(cat "$FD/build-ended" 2>/dev/null); BUILD_ENDED=${BUILD_ENDED:-0}; }
