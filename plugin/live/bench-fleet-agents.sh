# Benchmark, not a check of the default suite: the fleet view's refresh through real remoting with as many inbound
# agents as this machine holds (FLEET_AGENTS, default 8; each is a JVM of about 100 MB). Run it as an extra check file:
#   plugin/live/suite.sh WAR PLUGINS plugin/live/bench-fleet-agents.sh
# It starts the agents (WebSocket, each in its own directory, as root), waits until every one was probed on
# connecting, then times five full refreshes (POST refresh until no row is probing) and reads each node's probe time.
# The 1,000-agent figures with generated probe results are bench/fleet-scale.sh (docs/jenkins.md).
N=${FLEET_AGENTS:-8}
FLEET=manage/schedpolicy-fleet
bjson() { jcurl "$J/$FLEET/api/json$1"; }
bench_agent() {
  create_inbound_node "$1" bench "$2" 1 bench
  AGENT_JAVA_OPTS=-Xmx96m start_inbound_agent "$1" "$2" "$OUT/agent-$1.log" env HOME="$2"
}
BENCH_DIR=$(mktemp -d "${TMPDIR:-/tmp}/schedpolicy-live-bench.XXXXXX")
CLEANUPS+=("rm -rf '$BENCH_DIR'")
t0=$(date +%s)
for i in $(seq "$N"); do mkdir -p "$BENCH_DIR/a$i"; bench_agent "bench-$i" "$BENCH_DIR/a$i"; done
all_probed() { [ "$(bjson '?label=bench' | json_get "sum(1 for a in d['agents'] if a['probeAgeSeconds'] >= 0 and not a['probing'])")" = "$N" ]; }
for _ in $(seq 600); do all_probed && break; sleep 1; done
check "fleet bench: $N inbound agents online and probed on connecting ($(( $(date +%s) - t0 )) s after the first was created)" all_probed
note "first probes (ms, the engine loaded through remoting): $(bjson '?label=bench&sort=name' | json_get "' '.join(str(a['probeMillis']) + ('' if a['probeError'] is None else ' (' + a['probeError'] + ')') for a in d['agents'])")"
nodes=$((N + $(bjson '?label=!bench' | json_get "len(d['agents'])")))
for r in 1 2 3 4 5; do
  before=$(date +%s%N)
  http_status POST "$FLEET/refresh" >/dev/null
  peak=0
  for _ in $(seq 1200); do
    probing=$(bjson '?tree=agents%5Bprobing%5D' | json_get "sum(1 for a in d['agents'] if a['probing'])")
    [ "$probing" -gt "$peak" ] && peak=$probing
    [ "$probing" = 0 ] && break
    sleep 0.1
  done
  ms=$(( ($(date +%s%N) - before) / 1000000 ))
  per=$(bjson '?sort=name' | json_get "' '.join(str(a['probeMillis']) + ('' if a['probeError'] is None else '!') for a in d['agents'])")
  note "refresh $r: $nodes nodes fresh after $ms ms (most pending at once: $peak); probe ms per node (! failed): $per; load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "$ms" >>"$OUT/fleet-bench-refresh-ms.txt"
done
check "fleet bench: five full refreshes of $nodes nodes each ended (ms: $(tr '\n' ' ' <"$OUT/fleet-bench-refresh-ms.txt"))" \
  test "$(wc -l <"$OUT/fleet-bench-refresh-ms.txt")" = 5
agents_rss=0
for p in "${STARTED_PIDS[@]}"; do [ "$p" = "$JENKINS_PID" ] || agents_rss=$((agents_rss + $(ps -o rss= -p "$p" 2>/dev/null || echo 0))); done
note "memory: controller JVM $(( $(ps -o rss= -p "$JENKINS_PID") / 1024 )) MB RSS; the $N agent JVMs $((agents_rss / 1024)) MB RSS in all"
