# Measuring every step where the work runs in containers (issue 31 item 10): docker-workflow's inside runs each sh as
# 'docker exec', whose processes the container runtime starts, not the launch. A build whose work is all in inside must
# not look measured by the launches outside it: its page and api/json say how many launches ran in containers and were
# not measured. Needs what 85-docker needs; without it this says which is missing and counts as skipped, not passed.
why_not=$(docker_missing)
if [ -n "$why_not" ]; then
  skip "measuring containers: $why_not"
else
  IMAGE=$SCHEDPOLICY_TEST_IMAGE
  containers_before=$(docker ps -aq | sort)
  groovy 'dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setMeasureAllSteps(true); println "ok"' >>"$OUT/checks.log"
  pipeline_job p-measure-inside <<G
node {
  sh 'echo checkout'
  docker.image('$IMAGE').inside { sh 'echo compiling'; sh 'echo testing' }
}
G
  run_build p-measure-inside 180
  groovy 'dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setMeasureAllSteps(false); println "ok"' >>"$OUT/checks.log"
  not_measured=$(jcurl "$J/job/p-measure-inside/$BUILD/schedpolicy-measure/api/json" | json_get '" | ".join(d.get("notMeasured", []))' 2>&1 | tail -1)
  check "measuring on, inside { sh; sh }: $RESULT, api/json says the launches in containers were not measured ($not_measured)" \
    bash -c 'test "$1" = SUCCESS && grep -qE "^[0-9]+ launches in containers not measured: " <<<"$2"' _ "$RESULT" "$not_measured"
  # at least the two sh steps' docker exec: each is a launch the page must count
  count=$(grep -oE '^[0-9]+' <<<"$not_measured")
  check "measuring on, inside { sh; sh }: at least the two sh steps counted (${count:-none})" test "${count:-0}" -ge 2
  said=$(grep -c '^\[schedpolicy\] not measured: ' "$CONSOLE")
  check "measuring on, inside { sh; sh }: the console says it once for the build's container launches ($said)" test "$said" = 1
  check "measuring on, inside { sh; sh }: the build page says it in the summary" \
    grep -q 'launches in containers not measured' <<<"$(jcurl "$J/job/p-measure-inside/$BUILD/")"
  shot "job/p-measure-inside/$BUILD/" measure-inside
  left=$(comm -13 <(echo "$containers_before") <(docker ps -aq | sort) | tr '\n' ' ')
  check "measuring containers: none of the build's containers is left${left:+ (left: $left)}" test -z "$left"
fi
