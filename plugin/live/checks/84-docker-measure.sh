# Measuring every step where the work runs in containers (issue 31 item 10): docker-workflow's inside runs each sh as
# 'docker exec', whose processes the container runtime starts, not the launch. The agent measures them through the
# container's cgroup (the processes there that carry the exec's marker): the page and api/json show each inside step
# with its CPU and wait share, marked in a container; only the container start is said not measured. Needs what
# 85-docker needs; without it this says which is missing and counts as skipped, not passed.
why_not=$(docker_missing)
if [ -n "$why_not" ]; then
  skip "measuring containers: $why_not"
else
  IMAGE=$SCHEDPOLICY_TEST_IMAGE
  containers_before=$(docker ps -aq | sort)
  groovy 'dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setMeasureAllSteps(true); println "ok"' >>"$OUT/checks.log"
  # the busy step: about 2 to 6 s of one CPU in busybox sh (busy machine), all of it in the container
  pipeline_job p-measure-inside <<G
node {
  sh 'echo checkout'
  docker.image('$IMAGE').inside { sh 'set +x; i=0; while [ \$i -lt 2000000 ]; do i=\$((i+1)); done; echo busy done'; sh 'echo testing' }
}
G
  run_build p-measure-inside 240
  groovy 'dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setMeasureAllSteps(false); println "ok"' >>"$OUT/checks.log"
  api=$(jcurl "$J/job/p-measure-inside/$BUILD/schedpolicy-measure/api/json?depth=2")
  echo "$api" >"$OUT/measure-inside.json"
  # the inside steps are measured through the container's cgroup: the busy one with its CPU and wait, marked in a container
  busy=$(python3 -c 'import json,sys; d=json.load(sys.stdin)
c=[l for l in d["launches"] if l.get("inContainer")]
b=max(c, key=lambda l: l["cpuSeconds"]) if c else None
print(len(c), b["cpuSeconds"] if b else -1, b["waitSharePercent"] if b else -1, b["source"].split(":")[0] if b else "")' <<<"$api" 2>&1 | tail -1)
  read -r in_container busy_cpu busy_wait busy_source <<<"$busy"
  check "measuring on, inside { sh busy; sh }: $RESULT, the two sh steps measured in the container (api/json: $in_container launches inContainer)" \
    bash -c 'test "$1" = SUCCESS && test "$2" -ge 2' _ "$RESULT" "${in_container:-0}"
  check "measuring on, inside { sh busy; sh }: the busy step's CPU measured in the container ($busy_cpu s, busy machine) and its wait share ($busy_wait%), source '$busy_source'" \
    python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 0.5 and float(sys.argv[2]) >= 0 and sys.argv[3].startswith("container ") else 1)' \
    "${busy_cpu:--1}" "${busy_wait:--1}" "${busy_source:-none} x"
  whole=$(python3 -c 'import json,sys; d=json.load(sys.stdin)
c=[l for l in d["launches"] if l.get("inContainer")]
b=max(c, key=lambda l: l["cpuSeconds"]) if c else {"notes": []}
print(next((n for n in b["notes"] if n.startswith("the container")), "none"))' <<<"$api" 2>&1 | tail -1)
  check "measuring on, inside { sh busy; sh }: the busy step's notes give the container group's whole CPU ($whole)" \
    grep -q "^the container's group used [0-9.]* s of CPU" <<<"$whole"
  not_measured=$(json_get '" | ".join(d.get("notMeasured", []))' <<<"$api" 2>&1 | tail -1)
  check "measuring on, inside { sh busy; sh }: only the container start is said not measured ($not_measured)" \
    bash -c 'grep -qE "^1 container start not measured " <<<"$1" && ! grep -q "launches in containers not measured" <<<"$1"' _ "$not_measured"
  said=$(grep -c '^\[schedpolicy\] not measured: ' "$CONSOLE")
  check "measuring on, inside { sh busy; sh }: the console says the start's reason once ($said)" test "$said" = 1
  page=$(jcurl "$J/job/p-measure-inside/$BUILD/schedpolicy-measure/")
  check "measuring on, inside { sh busy; sh }: the measure page marks the steps in a container" grep -q 'schedpolicy-in-container' <<<"$page"
  check "measuring on, inside { sh busy; sh }: the build page says the container start in the summary" \
    grep -q 'container start not measured' <<<"$(jcurl "$J/job/p-measure-inside/$BUILD/")"
  shot "job/p-measure-inside/$BUILD/schedpolicy-measure/" measure-inside-page
  shot "job/p-measure-inside/$BUILD/" measure-inside
  left=$(comm -13 <(echo "$containers_before") <(docker ps -aq | sort) | tr '\n' ' ')
  check "measuring containers: none of the build's containers is left${left:+ (left: $left)}" test -z "$left"
fi
