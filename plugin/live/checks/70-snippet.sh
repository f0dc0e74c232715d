# The snippet generator renders the steps' forms and generates the expected calls; every help link opens.
SNIPPET="$J/job/p-idle/pipeline-syntax/"
[ "$(jcurl -o /dev/null -w '%{http_code}' "$J/job/p-idle/api/json")" = 200 ] || pipeline_job p-idle <<<"node { }"
pick_step() { echo "(() => { const s = document.querySelector('select'); const o = Array.from(s.options).find(o => o.text.startsWith('$1:')); s.value = o.value; s.dispatchEvent(new Event('change')); return o.value; })()"; }
fill_and_generate() { # NAME=VALUE...: fills the step's fields and clicks Generate
  local js="(() => { const set = (n, v) => { const f = document.querySelector('input[name=\"_.' + n + '\"]'); f.value = v; f.dispatchEvent(new Event('change')); };"
  local kv; for kv in "$@"; do js="$js set('${kv%%=*}', '${kv#*=}');"; done
  echo "$js document.querySelector('#generatePipelineScript').click(); return 'ok'; })()"
}
generated='Array.from(document.querySelectorAll("textarea")).map(t => t.value).join("")'
snippet() { # STEP SCREENSHOT NAME=VALUE...
  local step=$1 png=$2; shift 2
  browser open "$SNIPPET" eval "$(pick_step "$step")" wait 'document.querySelector("input[name=\"_.'"$( [ "$step" = schedBenchmark ] && echo scenario || echo policy)"'\"]")' \
    eval "$(fill_and_generate "$@")" wait "/$step/.test($generated)" eval "$generated" shot "$OUT/screenshots/$png.png" | tail -n +3
}
got=$(snippet withSchedPolicy snippet-positional policy=idle)
check "snippet generator: policy 'idle' alone gives the positional form withSchedPolicy('idle') {" \
  test "$(head -1 <<<"$got")" = "withSchedPolicy('idle') {"
got=$(snippet withSchedPolicy snippet-named policy=batch nice=19 io=idle)
check "snippet generator: batch, nice 19, I/O idle gives withSchedPolicy(io: 'idle', nice: 19, policy: 'batch') {" \
  test "$(head -1 <<<"$got")" = "withSchedPolicy(io: 'idle', nice: 19, policy: 'batch') {"
got=$(snippet schedBenchmark snippet-benchmark scenario=seed-cpu-looper)
check "snippet generator: schedBenchmark with a scenario gives a call naming it ($(head -1 <<<"$got"))" \
  grep -qE "^schedBenchmark.*seed-cpu-looper" <<<"$got"

create_job fs-help <<<"<project/>"
# help: every '?' of the step, wrapper, node property and global configuration forms opens a help text
help_urls() { # PAGE SETUP-JS WAIT-JS: the plugin's help links on a page, after SETUP-JS rendered what it needs
  browser open "$1" eval "$2" wait "$3" eval 'Array.from(document.querySelectorAll("[helpURL]")).map(e => e.getAttribute("helpURL")).filter(u => /schedpolicy/i.test(u)).join(" ")' | tail -1
}
field() { echo "document.querySelector('input[name=\"_.$1\"]')"; }
urls="$(help_urls "$SNIPPET" "$(pick_step withSchedPolicy)" "$(field policy)") $(help_urls "$SNIPPET" "$(pick_step schedBenchmark)" "$(field scenario)")"
urls="$urls $(help_urls "$J/manage/configure" 1 "$(field defaultPolicy)")"
urls="$urls $(help_urls "$J/computer/(built-in)/configure" "document.querySelector('input[name=\"dev-schedpolicy-jenkins-SchedPolicyNodeProperty\"]').click()" "$(field cgroupParent)")"
urls="$urls $(help_urls "$J/job/fs-help/configure" "document.querySelector('input[name=\"dev-schedpolicy-jenkins-SchedPolicyWrapper\"]').click()" "$(field policy)")"
urls=$(tr ' ' '\n' <<<"$urls" | grep . | sort -u)
broken=
for u in $urls; do
  body=$(jcurl -w '\n%{http_code}' "$J$u")
  [ "$(tail -1 <<<"$body")" = 200 ] && [ "$(sed '$d' <<<"$body" | sed 's/<[^>]*>//g' | tr -d ' \n' | wc -c)" -gt 20 ] || broken="$broken $u"
done
check "help: all $(wc -w <<<"$urls") help links of the plugin's forms open a help text${broken:+ (broken:$broken)}" \
  test -z "$broken" -a "$(wc -w <<<"$urls")" -ge 30
