#!/usr/bin/env bash
# The live suite: runs the plugin in a real Jenkins and drives it as a user does (HTTP with a crumb, job
# config XML, console text, the kernel's view of the launched processes read from /proc, forms and pages in
# a headless Chromium), one PASS/FAIL line per check.
#
#   plugin/live/suite.sh JENKINS_WAR PLUGINS_DIR [CHECK...]
#   LIVE_HPI=plugin/target/schedpolicy.hpi plugin/live/suite.sh ...   (the .hpi maven-hpi-plugin made; else build-hpi.sh)
#
# PLUGINS_DIR holds the .jpi files Jenkins runs with (Pipeline: workflow-*, durable-task, structs,
# echarts-api, plugin-util-api, jackson2-api and their dependencies). CHECK names files of plugin/live/checks
# (e.g. 20-pipeline) to run only those, or the path of a benchmark file (plugin/live/bench-*.sh); the start-up checks
# always run. Without a war it prints one line and
# exits 0. Output (Jenkins and agent logs, consoles, screenshots): plugin/target/live-run/ (LIVE_OUT).
# Stops everything it started: Jenkins, agents, the cgroups and folders it made. Needs: root (policies and
# cgroups are checked for real), a JDK, curl, chromium, util-linux (ionice), python3 (the fleet check reads JSON).
set -uo pipefail
LIVE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$LIVE/../.." && pwd)
if [ $# -lt 2 ] || [ ! -f "$1" ] || [ ! -d "$2" ]; then
  echo "live suite: skipped, no Jenkins war and plugins folder given (usage: $0 JENKINS_WAR PLUGINS_DIR)"
  exit 0
fi
WAR=$(realpath "$1") PLUGINS=$(realpath "$2"); shift 2
ONLY=("$@")
for tool in curl chromium ionice java python3; do
  command -v "$tool" >/dev/null || { echo "live suite: $tool is missing (install it; .ci/run does)" >&2; exit 2; }
done

OUT=$(realpath -m "${LIVE_OUT:-$ROOT/plugin/target/live-run}")
rm -rf "$OUT" && mkdir -p "$OUT/screenshots" "$OUT/console" "$OUT/tools"
: >"$OUT/checks.log"
source "$LIVE/lib.sh"

STARTED_PIDS=()  # process-group leaders (setsid) to stop at exit
CLEANUPS=()      # commands to run at exit, last first
cleanup() {
  local i
  for ((i = ${#CLEANUPS[@]} - 1; i >= 0; i--)); do eval "${CLEANUPS[$i]}" >>"$OUT/checks.log" 2>&1 || true; done
  for pid in "${STARTED_PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for pid in "${STARTED_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
  rm -rf "${JHOME:-/nonexistent-schedpolicy-live}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  local p
  for p in $(seq "${1:-18180}" 18999); do (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }; done
  return 1
}

# --- the plugin: the .hpi given in LIVE_HPI (e.g. plugin/target/schedpolicy.hpi from the -Pjenkins build), or built
# from this repository against the war and the plugins given (build-hpi.sh, for those with only a war at hand) -------
HPI="$OUT/schedpolicy.hpi"
if [ -n "${LIVE_HPI:-}" ]; then
  [ -f "$LIVE_HPI" ] || { echo "live suite: LIVE_HPI=$LIVE_HPI is no file" >&2; exit 2; }
  cp "$LIVE_HPI" "$HPI"
  echo "live suite: the .hpi given in LIVE_HPI ($(realpath "$LIVE_HPI"))"
else
  echo "live suite: building the .hpi against $WAR"
  if ! "$LIVE/build-hpi.sh" "$WAR" "$PLUGINS" "$HPI" 2>"$OUT/build-hpi.log"; then
    cat "$OUT/build-hpi.log" >&2; echo "live suite: the .hpi did not build" >&2; exit 1
  fi
fi

# the kernel's view, printed by a launched process about itself (tools/kernel-view TAG); the cpu controller's
# hierarchy is this machine's (CPU_ROOT, lib.sh)
sed "s|@CPU_ROOT@|$CPU_ROOT|" >"$OUT/tools/kernel-view" <<'EOF'
#!/bin/sh
# Prints what the kernel reports for this process (a child of the launched sh, which it inherits from):
# scheduling class (0 normal, 3 batch, 5 idle), nice, I/O priority, cpu cgroup and the group's controls.
tag=$1
rest=$(sed 's/^.*) //' /proc/$$/stat)
set -- $rest
nice=${17} policy=${39}
io=$(ionice -p $$ | tr -d ' ')
cg=$(sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}cpu\(,[^:]*\)\{0,1\}:\(.*\)$/\3/p' /proc/$$/cgroup | head -1)
[ -n "$cg" ] || cg=$(sed -n 's/^0:://p' /proc/$$/cgroup)
dir=@CPU_ROOT@$cg
quota=$(cat "$dir/cpu.cfs_quota_us" 2>/dev/null || cut -d' ' -f1 "$dir/cpu.max" 2>/dev/null)
idle=$(cat "$dir/cpu.idle" 2>/dev/null)
anc= p=$$
while [ "${p:-0}" -gt 1 ]; do p=$(sed -n 's/^PPid:[[:space:]]*//p' /proc/$p/status 2>/dev/null); anc="$anc${anc:+,}$p"; done
echo "KERNEL $tag pid=$$ policy=$policy nice=$nice io=$io cgroup=$cg quota=${quota:-none} idle=${idle:-none} cwd=$(pwd) ancestors=$anc"
EOF
chmod +x "$OUT/tools/kernel-view"
KV="$OUT/tools/kernel-view"

# --- Jenkins with a throw-away JENKINS_HOME ------------------------------------------------------------------
# new_home: a fresh JENKINS_HOME holding the plugins given and this .hpi (removed at exit)
new_home() {
  local home; home=$(mktemp -d "${TMPDIR:-/tmp}/schedpolicy-live-home.XXXXXX")
  mkdir -p "$home/plugins"
  cp "$PLUGINS"/*.jpi "$home/plugins/" 2>/dev/null; cp "$PLUGINS"/*.hpi "$home/plugins/" 2>/dev/null
  cp "$HPI" "$home/plugins/schedpolicy.jpi"
  echo "$home"
}
# start_jenkins HOME PORT LOG [NAME=VALUE...]: the war on 127.0.0.1:PORT in a process group of its own, with the
# environment given (e.g. CASC_JENKINS_CONFIG), its output appended to LOG; sets JPID, stopped at exit
start_jenkins() {
  local home=$1 port=$2 log=$3; shift 3
  env "$@" JENKINS_HOME="$home" setsid java -Xmx1g -Djenkins.install.runSetupWizard=false \
    -Dhudson.model.UpdateCenter.never=true -Dhudson.model.DownloadService.never=true \
    -jar "$WAR" --httpPort="$port" --httpListenAddress=127.0.0.1 --webroot="$home/war" \
    >>"$log" 2>&1 </dev/null &
  JPID=$!
  STARTED_PIDS+=("$JPID")
}
# wait_jenkins PID LOG [SECONDS [UP]]: succeeds once that Jenkins is fully up (LOG says so more than UP times, 0 unless
# given: a Jenkins started again on the same log); fails when it ended or was not up within SECONDS (120)
wait_jenkins() {
  local up
  for _ in $(seq $((${3:-120} * 2))); do
    up=$(grep -c "Jenkins is fully up and running" "$2" 2>/dev/null)
    [ "${up:-0}" -gt "${4:-0}" ] && return 0
    kill -0 "$1" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}
# stop_jenkins PID: its whole process group, TERM then KILL after 10 s
stop_jenkins() {
  kill -TERM -- "-$1" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.2; done
  kill -KILL -- "-$1" 2>/dev/null || true
}

JHOME=$(new_home)
PORT=$(free_port) || { echo "live suite: no free port" >&2; exit 1; }
J="http://127.0.0.1:$PORT"
JENKINS_VERSION=$(cd "$OUT" && jar xf "$WAR" META-INF/MANIFEST.MF && sed -n 's/^Jenkins-Version: //p' META-INF/MANIFEST.MF | tr -d '\r')
rm -rf "$OUT/META-INF"
echo "live suite: starting Jenkins $JENKINS_VERSION on $J (home $JHOME)"
start_jenkins "$JHOME" "$PORT" "$OUT/jenkins.log"
JENKINS_PID=$JPID
wait_jenkins "$JENKINS_PID" "$OUT/jenkins.log" \
  || { tail -30 "$OUT/jenkins.log" >&2; echo "live suite: Jenkins did not start" >&2; exit 1; }

wanted() { # a check file runs when no CHECK was named or its name was
  [ ${#ONLY[@]} -eq 0 ] && return 0
  local c; for c in "${ONLY[@]}"; do [ "$c" = "$1" ] && return 0; done; return 1
}
for file in "$LIVE"/checks/*.sh; do
  name=$(basename "$file" .sh)
  case $name in 10-*) ;; *) wanted "$name" || continue ;; esac
  echo "--- $name"
  CHECK_LOG_FROM=$(stat -c %s "$OUT/checks.log")
  source "$file"
done
for extra in "${ONLY[@]}"; do # a benchmark outside checks/, named by its path (plugin/live/bench-fleet-agents.sh)
  [ -f "$extra" ] || continue
  echo "--- $(basename "$extra" .sh)"
  CHECK_LOG_FROM=$(stat -c %s "$OUT/checks.log")
  source "$extra"
done

# whatever ran: nothing from the plugin may have logged a warning or worse
echo "--- log"
plugin_log=$(grep -E '^[0-9-]+ [0-9:.+]+ \[id=[0-9]+\][[:space:]]+(SEVERE|WARNING)[[:space:]]+(d\.s\.|dev\.schedpolicy)' "$OUT/jenkins.log" || true)
stack=$(grep -B3 -E '^\s+at .*dev\.schedpolicy\.' "$OUT/jenkins.log" | grep -E '(SEVERE|WARNING)' || true)
if [ -z "$plugin_log$stack" ]; then pass "no SEVERE or WARNING from the plugin in the Jenkins log"; else
  fail "the plugin logged warnings:"; printf '%s\n%s\n' "$plugin_log" "$stack" | sort -u | head -20 | sed 's/^/      /'; fi

echo "live suite: $PASSED passed, $FAILED failed, $SKIPPED skipped (Jenkins $JENKINS_VERSION; output in $OUT)"
for f in "${FAILURES[@]}"; do echo "  failed: $f"; done
[ "$FAILED" -eq 0 ]
