# Helpers of the live suite (sourced by suite.sh): HTTP as a user's client speaks it (session cookie, crumb),
# jobs from config XML, builds waited for, pass/fail lines. Needs J (Jenkins URL), OUT (output folder).

PASSED=0 FAILED=0 SKIPPED=0
FAILURES=()

pass() { PASSED=$((PASSED + 1)); echo "PASS  $*"; }
# fail: the first failures also print what the check file logged last (a build's result and console tail, a command's
# error), so a CI log that keeps only its failing lines still says why
fail() {
  FAILED=$((FAILED + 1)); FAILURES+=("$*"); echo "FAIL  $*"
  [ "$FAILED" -le 5 ] && [ -s "$OUT/checks.log" ] \
    && tail -c +$((${CHECK_LOG_FROM:-0} + 1)) "$OUT/checks.log" | tail -n 12 | sed 's/^/      | /'
  return 0
}
# check DESCRIPTION COMMAND...: PASS when the command succeeds
check() { local what=$1; shift; if "$@" >>"$OUT/checks.log" 2>&1; then pass "$what"; else fail "$what"; fi; }
note() { echo "      $*"; }
# skip WHY: a group of checks that cannot run here, said as such (never counted as passed)
skip() { SKIPPED=$((SKIPPED + 1)); echo "SKIP  $*"; }

jcurl() { curl -sS --max-time 120 -b "$OUT/cookies" -c "$OUT/cookies" "$@"; }
crumb() {
  if [ -z "${CRUMB:-}" ]; then
    local json; json=$(jcurl "$J/crumbIssuer/api/json")
    CRUMB="$(sed 's/.*"crumbRequestField":"\([^"]*\)".*/\1/' <<<"$json"):$(sed 's/.*"crumb":"\([^"]*\)".*/\1/' <<<"$json")"
  fi
  echo "$CRUMB"
}
jpost() { local path=$1; shift; jcurl -H "$(crumb)" -X POST "$@" "$J/$path"; }
# http_status METHOD PATH: the status code only
http_status() { jcurl -o /dev/null -w '%{http_code}' -H "$(crumb)" -X "$1" "$J/$2"; }

xml_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'; }

# create_job NAME < config.xml (replaces a job of that name)
create_job() {
  local name=$1 xml; xml=$(cat)
  if [ "$(jcurl -o /dev/null -w '%{http_code}' "$J/job/$name/api/json")" = 200 ]; then
    jpost "job/$name/config.xml" -H 'Content-Type: application/xml' --data-binary "$xml" -o /dev/null
  else
    jpost "createItem?name=$name" -H 'Content-Type: application/xml' --data-binary "$xml" -o /dev/null
  fi
}
# pipeline_job NAME < groovy
pipeline_job() {
  local name=$1 script; script=$(xml_escape)
  create_job "$name" <<EOF
<flow-definition plugin="workflow-job"><description>live suite</description>
<definition class="org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition" plugin="workflow-cps"><script>$script</script><sandbox>true</sandbox></definition>
</flow-definition>
EOF
}

# start_build NAME: queues a build and prints its number once it left the queue
start_build() {
  local name=$1 headers item number
  headers=$(jpost "job/$name/build?delay=0sec" -D - -o /dev/null)
  item=$(tr -d '\r' <<<"$headers" | sed -n 's|^[Ll]ocation: .*/queue/item/\([0-9]*\)/.*|\1|p')
  [ -n "$item" ] || { echo "no queue item for $name: $headers" >&2; return 1; }
  for _ in $(seq 600); do
    number=$(jcurl "$J/queue/item/$item/api/json" | sed -n 's/.*"executable":{[^}]*"number":\([0-9]*\).*/\1/p')
    [ -n "$number" ] && { echo "$number"; return 0; }
    sleep 0.2
  done
  echo "build of $name stayed in the queue" >&2; return 1
}
# wait_build NAME N [SECONDS]: waits until the build finished, prints its result
wait_build() {
  local name=$1 n=$2 limit=${3:-300} json
  for _ in $(seq $((limit * 5))); do
    json=$(jcurl "$J/job/$name/$n/api/json?tree=building,result")
    if grep -q '"building":false' <<<"$json"; then sed -n 's/.*"result":"\{0,1\}\([A-Z_]*\).*/\1/p' <<<"$json"; return 0; fi
    sleep 0.2
  done
  echo "TIMEOUT"
}
# console_of NAME N: saves the build's console text; sets CONSOLE (file)
console_of() { mkdir -p "$OUT/console"; CONSOLE="$OUT/console/$1-$2.txt"; jcurl "$J/job/$1/$2/consoleText" >"$CONSOLE"; }
# finished_console_of NAME N: the same for a build that ended, once its console is whole: a run says building false
# before its completion listeners have written (a freestyle guard's line among them), and "Finished:" comes after them
finished_console_of() {
  local _
  for _ in $(seq 50); do console_of "$1" "$2"; grep -q '^Finished: ' "$CONSOLE" && return 0; sleep 0.2; done
}
# run_build NAME [SECONDS]: build, wait; sets BUILD (number), RESULT, CONSOLE (file)
run_build() {
  BUILD=$(start_build "$1") || { RESULT=NOT_STARTED; CONSOLE=/dev/null; return 0; }
  RESULT=$(wait_build "$1" "$BUILD" "${2:-300}")
  finished_console_of "$1" "$BUILD"
  echo "build $1 #$BUILD: $RESULT" >>"$OUT/checks.log"
  [ "$RESULT" = SUCCESS ] || tail -n 15 "$CONSOLE" >>"$OUT/checks.log"
}
# stop_and_judge NAME N BOUND_MS: stops the running build as a user does (POST stop) and judges how it ended. Sets
# RESULT, CONSOLE, STOP_MS (the stop's POST to the build's end as the API reports it, polled every 0.2 s), ENDED_CLEAN
# (1: ABORTED, "Aborted by" in the console, exactly one [schedpolicy] line saying aborted, no stack trace and no
# MaskedException) and ENDED_PROMPT (1: ABORTED within BOUND_MS of the stop)
stop_and_judge() {
  local t0; t0=$(date +%s%N)
  jpost "job/$1/$2/stop" -o /dev/null
  RESULT=$(wait_build "$1" "$2" 120)
  STOP_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
  console_of "$1" "$2"
  ENDED_CLEAN=0 ENDED_PROMPT=0
  [ "$RESULT" = ABORTED ] && ! grep -qE '^\s+at |MaskedException' "$CONSOLE" && grep -q '^Aborted by' "$CONSOLE" \
    && [ "$(grep -c '\[schedpolicy\].*aborted' "$CONSOLE")" = 1 ] && ENDED_CLEAN=1
  [ "$RESULT" = ABORTED ] && [ "$STOP_MS" -le "$3" ] && ENDED_PROMPT=1
  return 0
}
console_has() { grep -qE -- "$1" "$CONSOLE"; }
# kernel_line TAG: the line tools/kernel-view printed for TAG in the last console
kernel_line() { grep -E "^KERNEL $1 " "$CONSOLE" | head -1; }
kernel_field() { kernel_line "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# wait_for SECONDS COMMAND...: until the command succeeds (5 tries a second); fails when it never did
wait_for() {
  local n=$(($1 * 5)); shift
  for _ in $(seq "$n"); do "$@" && return 0; sleep 0.2; done
  return 1
}
# json_get EXPR: the JSON document on stdin as d, EXPR evaluated by Python and printed (True, 3, 'text', ...); row(NAME)
# is the fleet view's row of that node (d["agents"])
json_get() {
  python3 -c 'import json,sys; d=json.load(sys.stdin)
print(eval(sys.argv[1], {"d": d, "row": lambda n: next(a for a in d["agents"] if a["name"] == n)}))' "$1"
}
# user_crumb USER PASSWORD JAR: the crumb header of a session of that user (its cookies in JAR)
user_crumb() {
  curl -sS -u "$1:$2" -b "$3" -c "$3" "$J/crumbIssuer/api/json" | json_get 'd["crumbRequestField"] + ":" + d["crumb"]'
}
# procs_marked MARK: the PIDs of the processes whose environment holds FAULTMARK=MARK (a job's withEnv sets it)
procs_marked() { grep -l "FAULTMARK=$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 | sort -n; }

# --- inbound agents, as an administrator adds them (New Node > Permanent Agent; agent.jar from this Jenkins, WebSocket)
# create_inbound_node NAME LABELS DIR [EXECUTORS] [DESCRIPTION]: the New Node form's submission; DIR gets agent.jar
create_inbound_node() {
  local name=$1 labels=$2 dir=$3 executors=${4:-1} description=${5:-live suite}
  local json='{"name":"'$name'","nodeDescription":"'$description'","numExecutors":"'$executors'","remoteFS":"'$dir'","labelString":"'$labels'","mode":"EXCLUSIVE",
 "":["hudson.slaves.JNLPLauncher","hudson.slaves.RetentionStrategy$Always"],
 "launcher":{"stapler-class":"hudson.slaves.JNLPLauncher","$class":"hudson.slaves.JNLPLauncher","webSocket":true},
 "retentionStrategy":{"stapler-class":"hudson.slaves.RetentionStrategy$Always","$class":"hudson.slaves.RetentionStrategy$Always"},
 "nodeProperties":{"stapler-class-bag":"true"},"type":"hudson.slaves.DumbSlave"}'
  local status try
  for try in 1 2 3; do
    status=$(jpost computer/doCreateItem --data-urlencode name="$name" --data-urlencode type=hudson.slaves.DumbSlave \
      --data-urlencode "json=$json" -o "$OUT/create-$name.html" -w '%{http_code}')
    [ "$(jcurl -o /dev/null -w '%{http_code}' "$J/computer/$name/api/json")" = 200 ] && break
    # said where a CI log shows it: a node that is not there fails every check of it afterwards
    echo "      live suite: creating node $name (try $try) answered HTTP $status; the node is not there" \
      "($(sed -e 's/<[^>]*>//g' "$OUT/create-$name.html" | tr -s ' \n' ' ' | cut -c1-200))"
    CRUMB=; sleep 2
  done
  jcurl -o "$dir/agent.jar" "$J/jnlpJars/agent.jar"
}
# agent_secret NAME: the secret in the node's JNLP file
agent_secret() { jcurl "$J/computer/$1/jenkins-agent.jnlp" | sed -n 's/.*<argument>\([0-9a-f]\{64\}\)<\/argument>.*/\1/p'; }
# start_inbound_agent NAME DIR LOG [WRAPPER...]: the agent JVM in a process group of its own (setsid WRAPPER java ...,
# e.g. WRAPPER env HOME=DIR), java options from AGENT_JAVA_OPTS; sets AGENT_STARTED to its PID, stopped at the suite's end
start_inbound_agent() {
  local name=$1 dir=$2 log=$3; shift 3
  # shellcheck disable=SC2086 # AGENT_JAVA_OPTS is a list of options
  setsid "$@" java ${AGENT_JAVA_OPTS:-} -jar "$dir/agent.jar" -url "$J/" -secret "$(agent_secret "$name")" -name "$name" \
    -webSocket -workDir "$dir" >>"$log" 2>&1 </dev/null &
  AGENT_STARTED=$!
  STARTED_PIDS+=("$AGENT_STARTED")
}
# new_inbound_agent NAME LABELS DIR LOG [WRAPPER...]: creates the node and starts its agent (see both above)
new_inbound_agent() {
  local name=$1 labels=$2 dir=$3 log=$4; shift 4
  create_inbound_node "$name" "$labels" "$dir"
  start_inbound_agent "$name" "$dir" "$log" "$@"
}
# agent_online NAME: the controller sees the node online
agent_online() { grep -q '"offline":false' <<<"$(jcurl "$J/computer/$1/api/json?tree=offline")"; }

# browser STEP...: headless Chromium driven over DevTools (Browser.java)
browser() { java "$LIVE/Browser.java" "$@"; }
shot() { browser open "$J/$1" shot "$OUT/screenshots/$2.png" >/dev/null; }

# set_global FIELD VALUE: types VALUE into the System page's Sched Policy field and saves the form, as a user does
set_global() {
  browser open "$J/manage/configure" \
    eval "(() => { const f = document.querySelector('input[name=\"_.$1\"]'); f.value = '$2'; f.dispatchEvent(new Event('change')); return f.value; })()" \
    submit "document.querySelector('form[name=config] button[name=Submit]').click()" >/dev/null
}
read_global() { browser open "$J/manage/configure" eval "document.querySelector('input[name=\"_.$1\"]').value"; }

# groovy SCRIPT: runs a system Groovy script (as an administrator would in the script console)
groovy() { jpost scriptText --data-urlencode "script=$1"; }

# mounts_of FSTYPE: "MOUNTPOINT SUPER-OPTIONS" of each mount of that type (the type follows the " - " of mountinfo,
# after a varying number of optional fields)
mounts_of() { awk -v t="$1" '{i = 7; while ($i != "-") i++} $(i + 1) == t {print $5, $(i + 3)}' /proc/self/mountinfo; }
# --- the machine's cpu cgroup layout, read once: CPU_ROOT is the cpu controller's hierarchy (cgroup v2 when the unified
# root offers cpu, else the v1 mount that carries cpu), so that a check reads groups where they are on this machine
if grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
  CPU_ROOT=/sys/fs/cgroup
else
  CPU_ROOT=$(mounts_of cgroup | awk '$2 ~ /(^|,)cpu(,|$)/ {print $1; exit}')
  CPU_ROOT=${CPU_ROOT:-/sys/fs/cgroup/cpu}
fi
# cg_of PID: the process's cpu cgroup as /proc shows it ("/schedpolicy-..."), on v1 or v2
cg_of() {
  if [ "$CPU_ROOT" = /sys/fs/cgroup ]; then sed -n 's/^0::\(.*\)$/\1/p' "/proc/$1/cgroup" 2>/dev/null | head -1
  else sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}cpu\(,[^:]*\)\{0,1\}:\(.*\)$/\3/p' "/proc/$1/cgroup" 2>/dev/null | head -1; fi
}
# groups_made_by PID...: the schedpolicy-PID-* groups those JVMs made that exist now
groups_made_by() { local p; for p in "$@"; do find "$CPU_ROOT" -maxdepth 4 -type d -name "schedpolicy-$p-*" 2>/dev/null; done; }
# UNIFIED_ROOT: the v2 hierarchy, the whole tree on a v2 machine, /sys/fs/cgroup/unified (empty of controllers) on a
# hybrid one, none on v1 alone
if [ "$CPU_ROOT" = /sys/fs/cgroup ]; then UNIFIED_ROOT=/sys/fs/cgroup
else UNIFIED_ROOT=$(mounts_of cgroup2 | awk '{print $1; exit}'); fi
# cpu cgroups now: every directory of the cpu hierarchy (and of an empty v2 tree beside a v1 one)
cpu_groups() { find "$CPU_ROOT" ${UNIFIED_ROOT:+"$UNIFIED_ROOT"} -type d 2>/dev/null | sort -u; }
# new_groups BEFORE: groups made since BEFORE (cpu_groups output) by this Jenkins or its agents. The engine
# names every group it makes schedpolicy-PID-TOKEN-N (PID: the JVM that made it; TOKEN: 12 hex digits drawn each
# time the JVM loads the engine, as an agent does with every connection); groups other programs on the
# machine make meanwhile (another test run's JVM, a container runtime) do not count.
new_groups() {
  local ours="$JENKINS_PID ${AGENT_PID:-}" g pid
  comm -13 <(echo "$1") <(cpu_groups) | while read -r g; do
    pid=$(sed -n 's|.*/schedpolicy-\([0-9]*\)-[0-9a-f]\{12\}-[0-9]*$|\1|p' <<<"$g")
    [ -n "$pid" ] && grep -qw "$pid" <<<"$ours" && echo "$g"
  done
  return 0
}

# The machine-wide idle parent that `schedpolicy setup` makes (checks 80-cgroup and 85-docker place groups under it).
IDLE_PARENT=$CPU_ROOT/schedpolicy.idle
# idle_parent_up: makes it unless it is there (one made outside the suite is used and left in place); a CLEANUPS
# entry removes what was made should the suite stop before idle_parent_down
idle_parent_up() {
  if [ -d "$IDLE_PARENT" ]; then
    [ -n "${IDLE_PARENT_MADE:-}" ] || note "the idle parent $IDLE_PARENT exists already; it is used and left in place"
    return 0
  fi
  (cd "$ROOT" && ./schedpolicy setup) >>"$OUT/checks.log" 2>&1
  IDLE_PARENT_MADE=1
  CLEANUPS+=("idle_parent_down")
}
# idle_parent_down: removes the idle parent if the suite made it, now rather than at exit (86-fleet looks at the
# machine before and after setup, 94-fault-idle-parent removes one under a running build); a second call does nothing
idle_parent_down() {
  [ -n "${IDLE_PARENT_MADE:-}" ] || return 0
  (cd "$ROOT" && ./schedpolicy setup --remove) >>"$OUT/checks.log" 2>&1
  # still there (a group left under it): the CLEANUPS entry tries again at exit
  [ -d "$IDLE_PARENT" ] || IDLE_PARENT_MADE=
}

# docker_missing: why the container checks cannot run here, or nothing: they need docker-workflow among the plugins
# given, a Docker daemon that answers (DOCKER_HOST) and a local image (SCHEDPOLICY_TEST_IMAGE, e.g. the busybox one
# .ci/run imports)
docker_missing() {
  grep -q '"active":true,"shortName":"docker-workflow"' <<<"$(jcurl "$J/pluginManager/api/json?depth=1&tree=plugins\[shortName,active\]")" \
    || { echo "docker-workflow is not among the plugins given ($PLUGINS)"; return; }
  docker info >/dev/null 2>&1 || { echo "no Docker daemon answers (DOCKER_HOST=${DOCKER_HOST:-unset})"; return; }
  { [ -n "${SCHEDPOLICY_TEST_IMAGE:-}" ] && docker image inspect "$SCHEDPOLICY_TEST_IMAGE" >/dev/null 2>&1; } \
    || echo "no local image to run (SCHEDPOLICY_TEST_IMAGE=${SCHEDPOLICY_TEST_IMAGE:-unset})"
}
