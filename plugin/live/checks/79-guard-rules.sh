# The administrator's guard rules by node and by label, no withSchedGuard anywhere (docs/jenkins.md, "Guarding a test
# step"): beside an unlowered busy build ('rules-hog', measured, not granted) on CPU 0, a build the grant allows runs the
# same CPU work unit as 99-guard. First the node's own stage rule: the built-in node's property says stages '^Smoke$'
# (the global rule, '(?i)test', is replaced there): job 'rule-node' runs stage 'Test' and stage 'Smoke'; PASS when
# exactly one guard line (stage 'Smoke''s: 'Test' is not guarded there) says it acted and lowered the hog, the hog's
# loops sat in the guard's idle group meanwhile and are back after, and the page shows the block. Then the label
# rule: the built-in node labelled 'test-pool', guardLabel 'test-pool': Pipeline 'rule-tests' in node('test-pool') and
# freestyle 'rule-fs' each get one guard line for the whole build (after its last step), the same lowering and a page
# entry; 'rule-other', not granted, gets no line at all. The form's check of a label that does not parse is one line.
GUARD_EVENTS=${GUARD_EVENTS:-6000}
groovy "def c = dev.schedpolicy.jenkins.SchedPolicyConfiguration.get(); c.setMeasureAllSteps(true);
c.setGuardJobs('rule-node|rule-tests|rule-fs'); c.setGuardStages('(?i)test');
def p = new dev.schedpolicy.jenkins.SchedPolicyNodeProperty('normal'); p.setGuardStages('^Smoke\$');
Jenkins.get().getNodeProperties().replace(p); Jenkins.get().setNumExecutors(3); println 'ok'" >>"$OUT/checks.log"
rule_work="taskset -c 0 sysbench cpu --threads=1 --cpu-max-prime=10000 --events=$GUARD_EVENTS --time=0 run | grep 'total time'"
pipeline_job rule-node <<G
node { stage('Test') { sh '$KV staged' }; stage('Smoke') { sh "$rule_work" } }
G
pipeline_job rule-tests <<G
node('test-pool') { stage('Build') { sh 'echo build-ran' }; stage('Check') { sh "$rule_work" } }
G
create_job rule-fs <<X
<project><builders><hudson.tasks.Shell><command>echo fs-build-ran</command></hudson.tasks.Shell>
<hudson.tasks.Shell><command>$rule_work</command></hudson.tasks.Shell></builders></project>
X
pipeline_job rule-other <<G
node('test-pool') { sh 'echo other-ran' }
G
pipeline_job rules-hog <<'G'
node { sh 'echo hog-started; for i in 1 2; do timeout 180 taskset -c 0 sh -c ": rules-hog-loop; while :; do :; done" & done; wait' }
G
rule_line() { grep '^\[schedpolicy\] guard: ' "$CONSOLE"; }
HOG=$(start_build rules-hog)
wait_for 60 bash -c "test \$(pgrep -cf '^sh -c : rules-hog-loop') -ge 2" || true
HOG_PIDS=$(pgrep -f '^sh -c : rules-hog-loop' | sort | tr '\n' ' ')
declare -A RULE_HOME
for p in $HOG_PIDS; do RULE_HOME[$p]=$(cg_of "$p"); done
note "hog #$HOG loops: $HOG_PIDS"
rules_back_home() { local p; for p in $HOG_PIDS; do test "$(cg_of "$p")" = "${RULE_HOME[$p]}" || return 1; done; }
rules_lowered_in() { local p; for p in $HOG_PIDS; do grep -q "^$p /schedpolicy-" "$1" || return 1; done; test -n "$HOG_PIDS"; }
# guarded_by_rule JOB WHAT SHOT: runs JOB beside the hog, sampling the loops' groups every 100 ms; checks one guard line
# that acted and lowered the hog's launch, once however many of the block's launches lowered it (named on the page), the loops lowered meanwhile and back after, the page entry
guarded_by_rule() {
  local job=$1 what=$2 seen="$OUT/rules-hog-groups-$1.txt" sampler
  : >"$seen"; ( while [ ! -e "$OUT/rules-done" ]; do for p in $HOG_PIDS; do echo "$p $(cg_of "$p")"; done >>"$seen"; sleep 0.1; done ) &
  sampler=$!
  run_build "$job"
  touch "$OUT/rules-done"; wait "$sampler" 2>/dev/null; rm -f "$OUT/rules-done"
  check "guard rules: $what: SUCCESS, exactly one guard line, saying it acted and lowered another launch" \
    bash -c "test '$RESULT' = SUCCESS && test \$(grep -c '^\[schedpolicy\] guard: ' '$CONSOLE') = 1 \
      && grep -qE '^\[schedpolicy\] guard: .*; acted [0-9]+ times? for .*; lowered 1 launch, [0-9]+ times? in all: another launch on this agent; all put back' '$CONSOLE'"
  note "$what: $(rule_line)"
  check "guard rules: each of the hog's loops sat in the guard's idle group while $what ran" rules_lowered_in "$seen"
  jcurl "$J/job/$job/$BUILD/" >"$OUT/rules-page-$job.html"
  check "guard rules: '$job' build page shows the block, naming the hog's launch" \
    bash -c "grep -q 'class=\"schedpolicy-guard-block\">guard: waited ' '$OUT/rules-page-$job.html' && grep -q 'rules-hog #$HOG › sh' '$OUT/rules-page-$job.html'"
  shot "job/$job/$BUILD/" "$3"
  check "guard rules: the hog's loops are back in their own groups after $what ended" wait_for 2 rules_back_home
}
guarded_by_rule rule-node "the node's own stage rule ('^Smoke\$' on built-in), stage 'Smoke' of 'rule-node'" guard-rules-node-build
check "guard rules: stage 'Test' of 'rule-node', which the global rule would guard, ran (unguarded: the one line is Smoke's)" \
  test -n "$(kernel_line staged)"
shot "computer/(built-in)/configure" guard-rules-node-form

groovy "def c = dev.schedpolicy.jenkins.SchedPolicyConfiguration.get(); c.setGuardStages(''); c.setGuardLabel('test-pool');
Jenkins.get().getNodeProperties().removeAll(dev.schedpolicy.jenkins.SchedPolicyNodeProperty); Jenkins.get().setLabelString('test-pool'); println 'ok'" >>"$OUT/checks.log"
guarded_by_rule rule-tests "the label rule ('test-pool'), Pipeline 'rule-tests' in node('test-pool')" guard-rules-label-build
check "guard rules: 'rule-tests' has its one line for the whole build after its last step" \
  bash -c "grep -n -e '^build-ran' -e '^\[schedpolicy\] guard: ' '$CONSOLE' | cut -d: -f2 | tr -d '\n' | grep -q '^build-ran\[schedpolicy\] guard'"
guarded_by_rule rule-fs "the label rule ('test-pool'), freestyle 'rule-fs'" guard-rules-label-freestyle
run_build rule-other
check "guard rules: 'rule-other' on test-pool, not granted, runs with no guard line and no refusal line" \
  bash -c "test '$RESULT' = SUCCESS && grep -q '^other-ran' '$CONSOLE' && ! grep -q '^\[schedpolicy\] guard: ' '$CONSOLE' && ! grep -q 'not guarded' '$CONSOLE'"
bad=$(jpost "descriptorByName/dev.schedpolicy.jenkins.SchedPolicyConfiguration/checkGuardLabel" --data-urlencode 'value=test-pool &&' \
  | python3 -c 'import html, re, sys; print(html.unescape(re.sub(r"<[^>]+>", "", sys.stdin.read())).strip())')
check "guard rules: the form refuses a label that does not parse in one line saying what is allowed ($bad)" \
  bash -c "grep -q \"^the nodes whose steps run guarded must be a Jenkins label expression, .*; 'test-pool &&' is not one: \" <<<\"\$1\"" _ "$bad"
shot "manage/configure" guard-rules-configure

jpost "job/rules-hog/$HOG/stop" -o /dev/null
wait_build rules-hog "$HOG" 60 >/dev/null
for p in $HOG_PIDS; do kill "$p" 2>/dev/null; done
groovy "def c = dev.schedpolicy.jenkins.SchedPolicyConfiguration.get(); c.setMeasureAllSteps(false); c.setGuardJobs('');
c.setGuardLabel(''); Jenkins.get().setLabelString(''); println 'ok'" >>"$OUT/checks.log"
