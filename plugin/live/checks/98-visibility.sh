# What a viewer learns from the measurement (docs/jenkins.md, "Security and visibility"): with matrix-auth's
# project-based strategy, alice may read job vis-blue but not job red; red runs a CPU-heavy sh beside vis-blue's
# measured step. Alice must not find "red" on vis-blue's build page, its api/json, the job page or the fleet view and
# fleet.txt; the neighbour is "another build", its part of the wait still shown. bob, who may read red, sees its name.
groovy 'dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setMeasureAllSteps(true); Jenkins.get().setNumExecutors(3); println "ok"' \
  >>"$OUT/checks.log"
# vis_job NAME READERS < groovy: a Pipeline job whose project matrix lets READERS (user ids) read it
vis_job() {
  local name=$1 readers=$2 script perms="" u; script=$(xml_escape)
  for u in $readers; do perms+="<permission>USER:hudson.model.Item.Read:$u</permission>"; done
  create_job "$name" <<X
<flow-definition plugin="workflow-job"><description>live suite</description>
<properties><hudson.security.AuthorizationMatrixProperty>
<inheritanceStrategy class="org.jenkinsci.plugins.matrixauth.inheritance.InheritParentStrategy"/>$perms
</hudson.security.AuthorizationMatrixProperty></properties>
<definition class="org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition" plugin="workflow-cps"><script>$script</script><sandbox>true</sandbox></definition>
</flow-definition>
X
}
vis_job red "bob" <<G
node { sh 'echo heavy-started; for i in 1 2 3; do timeout 90 sh -c "while :; do :; done" & done; while [ ! -e "$OUT/vis-red.stop" ]; do sleep 0.2; done; pkill -P \$\$ timeout; wait; true' }
G
vis_job vis-blue "alice bob" <<'G'
node { sh 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' }
G
rm -f "$OUT/vis-red.stop"
HEAVY=$(start_build red)
for _ in $(seq 100); do jcurl "$J/job/red/$HEAVY/consoleText" | grep -q '^heavy-started' && break; sleep 0.2; done
sleep 1
run_build vis-blue 600
touch "$OUT/vis-red.stop"
RED_RESULT=$(wait_build red "$HEAVY" 120)
check "visibility: red #$HEAVY ($RED_RESULT) ran its CPU-heavy sh beside vis-blue #$BUILD ($RESULT)" test "$RESULT $RED_RESULT" = "SUCCESS SUCCESS"
BLUE=$BUILD
MEASURE="job/vis-blue/$BLUE/schedpolicy-measure/api/json?depth=2"
for _ in $(seq 30); do jcurl "$J/$MEASURE" | grep -q '"neighbours"' && break; sleep 0.5; done

secured=$(groovy '
import hudson.security.*
import jenkins.model.Jenkins
import org.jenkinsci.plugins.matrixauth.*
def j = Jenkins.get()
def realm = new HudsonPrivateSecurityRealm(false)
realm.createAccount("vis-admin", "vis-admin-password-1")
realm.createAccount("alice", "alice-password-1")
realm.createAccount("bob", "bob-password-1")
Jenkins.SYSTEM_READ.setEnabled(true)   // the fleet view needs Overall/SystemRead
def s = new ProjectMatrixAuthorizationStrategy()
s.add(Jenkins.ADMINISTER, new PermissionEntry(AuthorizationType.USER, "vis-admin"))
["alice", "bob"].each {
  s.add(Jenkins.READ, new PermissionEntry(AuthorizationType.USER, it))
  s.add(Jenkins.SYSTEM_READ, new PermissionEntry(AuthorizationType.USER, it))
}
j.setSecurityRealm(realm)
j.setAuthorizationStrategy(s)
j.save()
print "secured"')
# as USER PATH: the body of PATH as that user (password USER-password-1), "HTTP nnn" on an error status
as() {
  curl -sS -u "$1:$1-password-1" -w '\n%{http_code}' "$J/$2" | python3 -c '
import sys
body, _, code = sys.stdin.read().rpartition("\n")
print(body if code == "200" else "HTTP " + code)'
}
# st USER PATH: the HTTP status of PATH as that user
st() { curl -sS -o /dev/null -w '%{http_code}' -u "$1:$1-password-1" "$J/$2"; }
# no_red TEXT: "red" as a word nowhere in TEXT (not in "measured", nor the charts' colour "--red")
no_red() { ! grep -qP '(?<!-)\bred\b' <<<"$1"; }
fleet_share() { as "$1" "manage/schedpolicy-fleet/api/json?depth=2" | json_get "row('built-in').get('unloweredWaitShare')"; }
check "visibility: security on ($secured): job red is 404 to alice and 200 to bob, vis-blue 200 to both" \
  test "$(st alice job/red/) $(st bob job/red/) $(st alice job/vis-blue/) $(st bob job/vis-blue/)" = "404 200 200 200"
# another_build TEXT: no red in TEXT, and the neighbour shown as "another build"
another_build() { no_red "$1" && grep -q "another build" <<<"$1"; }
BOB_JSON=$(as bob "$MEASURE")
note "bob's neighbours of vis-blue #$BLUE: $(json_get "d['launches'][0]['neighbours']" <<<"$BOB_JSON")"
check "visibility: bob, who may read red, sees red #$HEAVY beside vis-blue #$BLUE in api/json" grep -qF "red #$HEAVY › sh (no policy): " <<<"$BOB_JSON"
ALICE_JSON=$(as alice "$MEASURE")
note "alice's neighbours of vis-blue #$BLUE: $(json_get "d['launches'][0]['neighbours']" <<<"$ALICE_JSON")"
check "visibility: alice's api/json of vis-blue #$BLUE: no red, the neighbour is \"another build: N% of the wait\"" \
  another_build "$ALICE_JSON"
check "visibility: alice's build page of vis-blue #$BLUE: no red, \"another build\" in the Beside cell" \
  another_build "$(as alice "job/vis-blue/$BLUE/")"
check "visibility: alice's api/json of the build (depth 3): no red" no_red "$(as alice "job/vis-blue/$BLUE/api/json?depth=3")"
check "visibility: alice's job page of vis-blue (the trend): no red" no_red "$(as alice job/vis-blue/)"
A_SHARE=$(fleet_share alice); B_SHARE=$(fleet_share bob); A_AGAIN=$(fleet_share alice)
note "fleet view, built-in, unlowered wait share: alice $A_SHARE, bob $B_SHARE, alice again $A_AGAIN"
check "visibility: the fleet view counts each viewer's own jobs: alice 1 launch (vis-blue), bob 2 (red too), alice again 1" \
  test "${A_SHARE##* over } ${B_SHARE##* over } ${A_AGAIN##* over }" = "1 launch 2 launches 1 launch"
check "visibility: alice's fleet page, api/json and fleet.txt: no red" \
  no_red "$(as alice manage/schedpolicy-fleet/) $(as alice 'manage/schedpolicy-fleet/api/json?depth=2') $(as alice manage/schedpolicy-fleet/fleet.txt)"
curl -sS -u alice:alice-password-1 "$J/job/vis-blue/$BLUE/" >"$OUT/vis-blue-as-alice.html"
# back to the suite's unsecured Jenkins, as the administrator
jar="$OUT/cookies-vis-admin"
c=$(user_crumb vis-admin vis-admin-password-1 "$jar")
curl -sS -u vis-admin:vis-admin-password-1 -b "$jar" -c "$jar" -H "$c" -X POST "$J/scriptText" --data-urlencode \
  'script=import hudson.security.*; def j = jenkins.model.Jenkins.get(); j.setSecurityRealm(SecurityRealm.NO_AUTHENTICATION); j.setAuthorizationStrategy(AuthorizationStrategy.UNSECURED); j.save(); dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setMeasureAllSteps(false); print "unsecured"' >/dev/null
CRUMB=
check "visibility: back to unsecured (anonymous reads job red again)" test "$(curl -sS -o /dev/null -w '%{http_code}' "$J/job/red/")" = 200
