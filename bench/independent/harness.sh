#!/usr/bin/env bash
# An independent measurement of what `schedpolicy bench` reports, made with no project code: plain setsid, nice,
# chrt, mkdir in cgroupfs and bash's own clock. The victim is a fixed-work single-threaded CPU benchmark
# (sysbench cpu), the background COPIES real C++ compile loops (g++ -O2 of bg.cpp), each placed as the topology
# says and lowered as the policy says. Kept % = mean unloaded wall time / loaded wall time, per repetition; the
# unloaded runs alternate with the loaded ones, the background stopped (SIGSTOP) meanwhile.
#
#   bench/independent/harness.sh TOPOLOGY POLICY [COPIES] [REPETITIONS]
#     TOPOLOGY  same-agent     victim and background in the harness's own session (one task group)
#               other-session  each background copy in a new session, the victim in one more (setsid)
#               outside-agent  victim and each copy in a sibling cgroup of its own under the harness's cpu cgroup
#     POLICY    default | nice19 | idle (SCHED_IDLE, chrt -i 0) | cpu-idle (a cpu.idle=1 group, placed as bench
#               places its policy groups when no machine-wide idle parent is used)
#   Prints one line: TOPOLOGY POLICY kept=MEAN ci95=HALF n=N (the victim's kept % of its unloaded speed).
#   bench/independent/compare.sh runs this beside `schedpolicy bench` for the same cells.
#
# Needs: root for outside-agent (a writable v1 or v2 cpu cgroup), sysbench, g++, util-linux (setsid, chrt), python3.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOPOLOGY=${1:?topology: same-agent, other-session or outside-agent} POLICY=${2:?policy: default, nice19, idle, cpu-idle}
COPIES=${3:-4} REPS=${4:-5}
EVENTS=${VICTIM_EVENTS:-3000}
for tool in bash sysbench g++ setsid chrt python3; do
  command -v "$tool" >/dev/null || { echo "harness: $tool is missing" >&2; exit 2; }
done
case "$POLICY" in
  default) LOWER=() ;;
  nice19) LOWER=(nice -n 19) ;;
  idle) LOWER=(chrt -i 0) ;;
  cpu-idle) LOWER=() ;;
  *) echo "harness: unknown policy $POLICY (default, nice19, idle, cpu-idle)" >&2; exit 2 ;;
esac
case "$TOPOLOGY" in same-agent | other-session | outside-agent) ;; *) echo "harness: unknown topology $TOPOLOGY" >&2; exit 2 ;; esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedpolicy-harness.XXXXXX")
PIDS=() GROUPS_MADE=()
cleanup() {
  local p g
  for p in "${PIDS[@]}"; do
    kill -KILL -- "-$p" 2>/dev/null || { pkill -KILL -P "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; } || true
  done
  sleep 0.2
  local i
  for ((i = ${#GROUPS_MADE[@]} - 1; i >= 0; i--)); do
    g=${GROUPS_MADE[$i]}
    for p in $(cat "$g/cgroup.procs" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done
    for _ in $(seq 50); do rmdir "$g" 2>/dev/null && break; sleep 0.1; done
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# the harness's own cpu cgroup directory (v1 cpu controller, else v2)
own_cpu_dir() {
  local rel
  rel=$(sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}cpu\(,[^:]*\)\{0,1\}:\(.*\)$/\3/p' /proc/self/cgroup | head -1)
  if [ -n "$rel" ]; then
    for m in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do [ -f "$m/tasks" ] && { echo "$m$rel"; return; }; done
  fi
  echo "/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)"
}
# makes a sibling group and sets NEW_GROUP (not a $(...) call: the cleanup list must grow in this shell)
new_group() {
  NEW_GROUP="$(own_cpu_dir)/harness-$$-$1"
  mkdir "$NEW_GROUP"
  GROUPS_MADE+=("$NEW_GROUP")
}
# runs "$@" placed as the topology says (and, for cpu-idle, in a cpu.idle=1 group where `schedpolicy bench` makes its
# policy group: beside the victim's task group for same-agent and other-session, inside the copy's own group for
# outside-agent, as an agent's build group sits under the agent's cgroup); in the background, appended to PIDS
place() {
  local name=$1; shift
  local dir=""
  case "$TOPOLOGY" in
    same-agent | other-session)
      if [ "$POLICY" = cpu-idle ]; then
        if [ "$TOPOLOGY" = other-session ] || [ -z "${SHARED_IDLE:-}" ]; then
          new_group "$name"; echo 1 >"$NEW_GROUP/cpu.idle"; SHARED_IDLE=$NEW_GROUP
        fi
        dir=$SHARED_IDLE
        [ "$TOPOLOGY" = other-session ] && SHARED_IDLE=""
      fi ;;
    outside-agent)
      new_group "$name"; dir=$NEW_GROUP
      if [ "$POLICY" = cpu-idle ]; then
        mkdir "$dir/idle"; GROUPS_MADE+=("$dir/idle"); echo 1 >"$dir/idle/cpu.idle"; dir=$dir/idle
      fi ;;
  esac
  local launcher=()
  [ "$TOPOLOGY" = other-session ] && launcher=(setsid)
  if [ -n "$dir" ]; then
    "${launcher[@]}" sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$dir" "$@" 2>/dev/null &
  else
    "${launcher[@]}" "$@" 2>/dev/null &
  fi
  PIDS+=($!); disown $!
}

# The victim's own wall time, in ms: bash reads its clock ($EPOCHREALTIME) just before and after the command, inside
# the victim's session or cgroup, so making the group and moving into it (a cgroup move waits for an RCU grace
# period) stay out of the figure, as the `date` forks around it do
victim_ms() {
  local timed=(bash -c 't0=$EPOCHREALTIME; "$@" >/dev/null; t1=$EPOCHREALTIME; echo $(( (${t1/./} - ${t0/./}) / 1000 ))' victim
    sysbench cpu --threads=1 --events="$EVENTS" --time=0 run)
  case "$TOPOLOGY" in
    same-agent) "${timed[@]}" ;;
    other-session) setsid -w "${timed[@]}" ;;
    outside-agent)
      new_group "victim$1"
      sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$NEW_GROUP" "${timed[@]}" ;;
  esac
}

# every process of the background (the loops and the compilers they run), depth first
tree() {
  local p c
  for p in "$@"; do
    echo "$p"
    for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do tree "$c"; done
  done
}
# SIGSTOPs the whole background, again until none of it runs (a loop may fork between the listing and the signal)
pause_background() {
  local again=1 p state
  while [ $again = 1 ]; do
    again=0
    for p in $(tree "${PIDS[@]}"); do
      state=$(sed 's/.*) //' /proc/"$p"/stat 2>/dev/null | cut -d' ' -f1) || state="" # gone meanwhile
      case "$state" in T | t | Z | X | "") ;; *) kill -STOP "$p" 2>/dev/null || true; again=1 ;; esac
    done
  done
}
resume_background() {
  local p
  for p in $(tree "${PIDS[@]}"); do kill -CONT "$p" 2>/dev/null || true; done
}

# The background runs throughout and is stopped (SIGSTOP) for each unloaded run, so unloaded and loaded runs
# alternate: a drift of the machine over the minutes of a cell (the host's load on its vCPUs) falls on both alike
g++ -O2 -c "$HERE/bg.cpp" -o /dev/null
for c in $(seq "$COPIES"); do
  place "bg$c" \
    "${LOWER[@]}" sh -c 'while :; do g++ -O2 -c "$0" -o /dev/null; done' "$HERE/bg.cpp"
done
sleep 2 # the loops reach steady state
for r in $(seq "$REPS"); do
  pause_background
  sleep 0.3
  victim_ms "u$r" >>"$WORK/unloaded"
  resume_background
  sleep 0.5 # the woken loops' task groups regain their load
  victim_ms "l$r" >>"$WORK/loaded"
done

python3 - "$WORK/unloaded" "$WORK/loaded" "$TOPOLOGY" "$POLICY" <<'EOF'
import statistics, sys
unloaded = [float(x) for x in open(sys.argv[1])]
loaded = [float(x) for x in open(sys.argv[2])]
base = statistics.mean(unloaded)
kept = [100.0 * base / x for x in loaded]
t95 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306, 10: 2.262}
n = len(kept)
half = t95.get(n, 2.0) * statistics.stdev(kept) / n ** 0.5 if n > 1 else float("nan")
print(f"{sys.argv[3]} {sys.argv[4]} kept={statistics.mean(kept):.1f} ci95={half:.1f} n={n}"
      f" unloaded_ms={base:.0f} loaded_ms={statistics.mean(loaded):.0f}")
EOF
