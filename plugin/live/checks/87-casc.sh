# Configuration as Code: docs/jenkins.md's YAML (global settings and a node property) applied at start-up through
# CASC_JENKINS_CONFIG by a Jenkins of its own, read back from the System page and the node's config.xml, and exported
# again with the same keys; the same YAML with defaultPolicy: turbo stops the start-up with the plugin's reason.
CASC="$OUT/casc"
mkdir -p "$CASC"
awk '/^### Configuration as Code/ {f = 1} f && /^```yaml/ {y = 1; next} y && /^```/ {exit} y' "$ROOT/docs/jenkins.md" >"$CASC/jenkins.yaml"
sed 's/^\( *defaultPolicy:\).*/\1 "turbo"/' "$CASC/jenkins.yaml" >"$CASC/turbo.yaml"
# yaml_get FILE EXPR: a Python expression over the YAML as y (g: its unclassified.schedPolicy, n: node builder-1's property)
yaml_get() {
  python3 - "$1" "$2" <<'PY'
import sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
g = y["unclassified"]["schedPolicy"]
node = next(n["permanent"] for n in y["jenkins"]["nodes"] if n.get("permanent", {}).get("name") == "builder-1")
n = next(p["schedPolicy"] for p in node["nodeProperties"] if "schedPolicy" in p)
v = eval(sys.argv[2])
print(str(v).lower() if isinstance(v, bool) else v)
PY
}
if ! ls "$PLUGINS"/configuration-as-code.[jh]pi >/dev/null 2>&1; then
  skip "Configuration as Code: configuration-as-code is not among the plugins given"
elif ! python3 -c 'import yaml' 2>/dev/null; then
  fail "Configuration as Code: python3 has no yaml module (apt-get install python3-yaml)"
elif ! grep -q 'schedPolicy:' "$CASC/jenkins.yaml"; then
  fail "Configuration as Code: no YAML block with schedPolicy under docs/jenkins.md's 'Configuration as Code'"
else
  MAIN_J=$J MAIN_CRUMB=${CRUMB:-}
  CHOME=$(new_home); CLEANUPS+=("rm -rf '$CHOME'")
  CPORT=$(free_port $((PORT + 1)))
  start_jenkins "$CHOME" "$CPORT" "$CASC/jenkins.log" CASC_JENKINS_CONFIG="$CASC/jenkins.yaml"
  CASC_PID=$JPID
  if wait_jenkins "$CASC_PID" "$CASC/jenkins.log"; then
    J="http://127.0.0.1:$CPORT" CRUMB=
    pass "Configuration as Code: Jenkins started with docs/jenkins.md's YAML in CASC_JENKINS_CONFIG"
    fields='defaultPolicy cgroupParent minNice maxQuotaPercent handshakeTimeoutSeconds allowRaise allowCgroups allowAboveDefault measureAllSteps guardJobs guardStages guardWholeJobs guardLabel benchmarkMaxLoad benchmarkMaxRepetitions benchmarkMaxMinutes'
    shown=$(browser open "$J/manage/configure" shot "$OUT/screenshots/casc-configure.png" eval "'$fields'.split(' ').map(n => {
        const f = document.querySelector('input[name=\"_.' + n + '\"]'); return n + '=' + (f.type === 'checkbox' ? f.checked : f.value); }).join(' ')" | tail -1)
    wanted=$(for f in $fields; do printf '%s=%s ' "$f" "$(yaml_get "$CASC/jenkins.yaml" "g['$f']")"; done)
    check "Configuration as Code: the System page shows the 16 global settings of the YAML (${wanted% })" test "$shown" = "${wanted% }"
    note "shown: $shown"
    jcurl "$J/computer/builder-1/config.xml" >"$CASC/builder-1.xml"
    prop=$(python3 -c 'import sys, xml.etree.ElementTree as E
p = E.parse(sys.argv[1]).getroot().find("nodeProperties/dev.schedpolicy.jenkins.SchedPolicyNodeProperty")
print("none" if p is None else " ".join(p.findtext(k) for k in ("policy", "cgroupParent", "guardStages", "guardWholeJobs")))' "$CASC/builder-1.xml" 2>&1)
    check "Configuration as Code: node builder-1 carries the node property of the YAML in its config.xml ($prop)" \
      test "$prop" = "$(yaml_get "$CASC/jenkins.yaml" "' '.join(n[k] for k in ('policy', 'cgroupParent', 'guardStages', 'guardWholeJobs'))")"
    jpost manage/configuration-as-code/export -o "$CASC/export.yaml"
    # the same keys with the same values, global settings and node property alike
    verdict=$(python3 - "$CASC/jenkins.yaml" "$CASC/export.yaml" <<'PY'
import sys, yaml
def ours(path):
    y = yaml.safe_load(open(path))
    node = next(n["permanent"] for n in y["jenkins"]["nodes"] if n.get("permanent", {}).get("name") == "builder-1")
    return y["unclassified"]["schedPolicy"], next(p["schedPolicy"] for p in node["nodeProperties"] if "schedPolicy" in p)
(g, n), (eg, en) = ours(sys.argv[1]), ours(sys.argv[2])
bad = [k for k in set(g) | set(eg) if g.get(k) != eg.get(k)] + ["node " + k for k in set(n) | set(en) if n.get(k) != en.get(k)]
print("same: global " + ", ".join(sorted(eg)) + "; node " + ", ".join(sorted(en)) if not bad else "differs: " + ", ".join(sorted(bad)))
PY
)
    check "Configuration as Code: the export has the same keys and values: $verdict" grep -q '^same' <<<"$verdict"
    J=$MAIN_J CRUMB=$MAIN_CRUMB
  else
    fail "Configuration as Code: Jenkins with docs/jenkins.md's YAML did not start"; tail -20 "$CASC/jenkins.log" | sed 's/^/      /'
  fi
  stop_jenkins "$CASC_PID"
  casc_log=$(grep -E '^[0-9-]+ [0-9:.+]+ \[id=[0-9]+\][[:space:]]+(SEVERE|WARNING)[[:space:]]+(d\.s\.|dev\.schedpolicy|i\.j\.p\.casc|io\.jenkins\.plugins\.casc)' "$CASC/jenkins.log" || true)
  check "Configuration as Code: no SEVERE or WARNING from the plugin or configuration-as-code in that Jenkins' log" test -z "$casc_log"

  THOME=$(new_home); CLEANUPS+=("rm -rf '$THOME'")
  start_jenkins "$THOME" "$CPORT" "$CASC/turbo.log" CASC_JENKINS_CONFIG="$CASC/turbo.yaml"
  TURBO_PID=$JPID
  for _ in $(seq 240); do
    grep -qE 'Jenkins is fully up and running|Failed to initialize Jenkins' "$CASC/turbo.log" 2>/dev/null && break
    kill -0 "$TURBO_PID" 2>/dev/null || break
    sleep 0.5
  done
  turbo_status=$(curl -sS -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$CPORT/" 2>/dev/null)
  stop_jenkins "$TURBO_PID"
  check "Configuration as Code: defaultPolicy: turbo stops the start-up (not fully up; Jenkins answers $turbo_status)" \
    bash -c "! grep -q 'Jenkins is fully up and running' '$CASC/turbo.log' && grep -q 'SEVERE.*Failed ConfigurationAsCode.init' '$CASC/turbo.log'"
  check "Configuration as Code: the log names the attribute (Failed to set attribute defaultPolicy) and gives the plugin's one-line reason" \
    bash -c "grep -q 'Failed to set attribute defaultPolicy' '$CASC/turbo.log' && grep -qE '^(Caused: )?[a-zA-Z.]*Exception: unknown policy token .turbo. in .turbo.; use tokens joined by' '$CASC/turbo.log'"
  note "$(grep -m1 -E 'Exception: unknown policy token' "$CASC/turbo.log" | cut -c1-170)"
fi
