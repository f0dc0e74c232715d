# schedBenchmark at its quickest: the build page summary, the detail page's tables and charts, the job page's
# trend after two builds, the gate marking the build unstable, and an abort stopping the runs on the agent.
engine_procs() { pgrep -f "$JHOME/plugins/schedpolicy/WEB-INF/lib/" | wc -l; }
pipeline_job p-bench <<G
node {
  schedBenchmark(scenario: 'seed-cpu-looper', quick: true, policies: 'default,idle', loads: '1', repetitions: 1,
                 gatePolicy: 'default', unstableBelow: 99.5)
}
G
run_build p-bench
check "schedBenchmark: the gate (default keeps < 99.5%) marks the build UNSTABLE and says why" \
  bash -c "test '$RESULT' = UNSTABLE && grep -q '^\[schedpolicy\] benchmark gate: under .default. the test job kept' '$CONSOLE'"
check "schedBenchmark: progress lines stream to the console" grep -q '^\[schedpolicy\] \[1/' "$CONSOLE"
summary=$(browser open "$J/job/p-bench/$BUILD/" shot "$OUT/screenshots/benchmark-build.png" \
  eval 'document.querySelector("#schedpolicy-benchmark-summary").innerText')
check "schedBenchmark: the build page summary names the scenario and what the test job kept per policy" \
  bash -c "grep -q 'scenario seed-cpu-looper' <<<'$summary' && grep -qE 'default: test job keeps [0-9.]+%' <<<'$summary' && grep -qE 'idle: test job keeps [0-9.]+%' <<<'$summary'"
detail=$(browser open "$J/job/p-bench/$BUILD/schedpolicy-benchmark/" shot "$OUT/screenshots/benchmark-detail.png" \
  eval '[document.querySelectorAll("#schedpolicy-kept tr").length, document.querySelectorAll("#schedpolicy-chart-kept canvas, #schedpolicy-chart-background canvas").length, /NaN|undefined/.test(document.body.innerText)].join(" ")')
check "schedBenchmark: the detail page has the table (header + 2 policies) and both charts drawn, no NaN" test "$detail" = "3 2 false"
check "schedBenchmark: report.json (the detail page's link) serves the report" \
  grep -q '"scenario"' <<<"$(jcurl "$J/job/p-bench/$BUILD/schedpolicy-benchmark/reportJson")"
run_build p-bench
trend=$(browser open "$J/job/p-bench/" shot "$OUT/screenshots/benchmark-job.png" \
  eval '(() => { const el = document.querySelector("div[_echarts_instance_]"); if (!el || !window.echarts) return "no chart"; const o = echarts.getInstanceByDom(el).getOption(); return o.xAxis[0].data.length + " builds, " + o.series.length + " series"; })()')
check "schedBenchmark: the job page's trend shows both builds ($trend)" test "$trend" = "2 builds, 2 series"

pipeline_job p-bench-abort <<G
node { schedBenchmark(scenario: 'seed-cpu-looper', policies: 'default,idle', loads: '1,2', repetitions: 50) }
G
groups_before=$(cpu_groups)
BUILD=$(start_build p-bench-abort)
for _ in $(seq 300); do jcurl "$J/job/p-bench-abort/$BUILD/consoleText" | grep -q '^\[schedpolicy\] \[3/' && break; sleep 0.2; done
running=0  # workload JVMs come and go between runs: look for one for up to 5 s
for _ in $(seq 50); do running=$(engine_procs); [ "$running" -gt 0 ] && break; sleep 0.1; done
jpost "job/p-bench-abort/$BUILD/stop" -o /dev/null
RESULT=$(wait_build p-bench-abort "$BUILD" 30)
sleep 1
check "schedBenchmark abort: workload processes ran ($running), the build is ABORTED within 30 s" \
  test "$running" -gt 0 -a "$RESULT" = ABORTED
left_procs=$(engine_procs)
left_groups=$(new_groups "$groups_before" | tr '\n' ' ')
check "schedBenchmark abort: no workload process and no cgroup of the benchmark is left ($left_procs processes; ${left_groups:-no new groups})" \
  test "$left_procs $left_groups" = "0 "
jcurl "$J/job/p-bench-abort/$BUILD/consoleText" >"$OUT/console/p-bench-abort-$BUILD.txt"
check "schedBenchmark abort: the runs done so far are kept on the build page" \
  bash -c "grep -q 'runs done so far are kept' '$OUT/console/p-bench-abort-$BUILD.txt' && test \"\$(curl -s -o /dev/null -w '%{http_code}' '$J/job/p-bench-abort/$BUILD/schedpolicy-benchmark/')\" = 200"
