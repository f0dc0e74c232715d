#!/usr/bin/env bash
# The engine's real-kernel suite on real kernels: builds once on this machine, then boots one throw-away QEMU
# guest per configuration (.ci/kernel-lab/kernel-lab.sh, one at a time: the lab is CPU-heavy) and runs
# .ci/kernel-lab/guest-suite.sh there. Prints one line per configuration (kernel, cgroup mode, tests run /
# failed / skipped, with every skip's reason below it) and fails when a test fails or a guest does not finish
# in two guests (a configuration that fails gets one more guest, for emulator crashes; both are printed).
#
#   .ci/kernel-lab-suite.sh [SUITE:CGROUP ...]     default: bookworm:v2 bullseye:v2 trixie-backports:v2 bookworm:v1
#   KERNEL_LAB_JOBS=N                              guests at once (default: the host's CPUs, at most 2)
#
# A guest emulates its CPUs on one host thread (.ci/kernel-lab/README.md), so one guest leaves the other core of
# a 2-core host idle: two guests at once take about as long each as one alone. Configurations start in the order
# given (the longest first by default: bookworm:v2 also runs the reduced benchmark) and print in that order. Each
# kernel is fetched and its boot image built once, by a first boot that runs `true`, before any two guests run,
# so no two guests fetch into the cache or install host packages at the same time.
#
# SUITE is a Debian suite the lab fetches a kernel from (bullseye 5.10, bookworm 6.1, trixie 6.12,
# trixie-backports: the newest), CGROUP a layout (v2, v1, v1-split, hybrid). Results: target/kernel-lab/.
# A machine that cannot run the lab (not Linux, not root, neither qemu nor apt-get) gets one line saying so
# and exit status 0: the lab needs root and apt (or qemu already installed), never /dev/kvm.
set -uo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
lab=.ci/kernel-lab/kernel-lab.sh
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(bookworm:v2 bullseye:v2 trixie-backports:v2 bookworm:v1)

why=""
if [ "$(uname -s)" != Linux ] || [ "$(uname -m)" != x86_64 ]; then why="it needs an x86_64 Linux host"
elif [ "$(id -u)" != 0 ]; then why="it needs root"
elif ! command -v qemu-system-x86_64 >/dev/null && ! command -v apt-get >/dev/null; then
  why="neither qemu-system-x86_64 nor apt-get (to install it) is here"
fi
if [ -n "$why" ]; then
  echo "kernel lab: not run on this machine: $why"
  exit 0
fi

./mvnw -q -B -DskipTests package || { echo "kernel lab: the host build failed"; exit 1; }
results=$PWD/target/kernel-lab
rm -rf "$results"

# sums of the surefire reports' counters, then every skipped or failed test with its message
summarize() {
  awk '
    /<testsuite / { for (k in n) if (match($0, " " k "=\"[0-9]+\"")) n[k] += substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 4) }
    /<testcase / { match($0, /name="[^"]*"/); name = substr($0, RSTART + 6, RLENGTH - 7)
                   match($0, /classname="[^"]*"/); cls = substr($0, RSTART + 11, RLENGTH - 12); sub(/.*\./, "", cls) }
    /<(skipped|failure|error)[ >\/]/ { kind = $0; sub(/^[ \t]*</, "", kind); sub(/[ >\/].*/, "", kind)
                   msg = ""; if (match($0, /message="[^"]*"/)) msg = substr($0, RSTART + 9, RLENGTH - 10)
                   else if (match($0, /Exception: .*/)) msg = substr($0, RSTART + 11)
                   gsub(/&#10;/, " ", msg); gsub(/&quot;/, "\"", msg); gsub(/&apos;/, "'\''", msg); gsub(/&lt;/, "<", msg); gsub(/&gt;/, ">", msg); gsub(/&amp;/, "\\&", msg)
                   detail[++d] = sprintf("    %-7s %s.%s: %s", kind, cls, name, substr(msg, 1, 300)) }
    BEGIN { n["tests"] = 0; n["failures"] = 0; n["errors"] = 0; n["skipped"] = 0 }
    END { printf "%d %d %d\n", n["tests"], n["failures"] + n["errors"], n["skipped"]; for (i = 1; i <= d; i++) print detail[i] }
  ' "$@" /dev/null
}

# One guest run of a configuration; sets line (its summary), details and ok (0 passed, 1 failed)
attempt() {
  local suite=$1 cgroup=$2 out=$3 config=$4 start=$SECONDS rc kernel run failed skipped g
  rm -rf "$out"; mkdir -p "$out"
  local extra=(); [ "$config" = bookworm:v2 ] && extra=(bench)
  "$lab" --kernel "$suite" --cgroup "$cgroup" --mem 3G --timeout 1500 --rw "$out" -- \
    .ci/kernel-lab/guest-suite.sh "$out" "${extra[@]}" > "$out/lab.log" 2>&1
  rc=$?
  kernel=$(cat "$out/kernel" 2>/dev/null || echo "$suite (did not boot)")
  details="" ok=0
  if [ "$rc" != 0 ] || [ ! -f "$out/maven.rc" ]; then
    line="kernel lab: $kernel, cgroup $cgroup: the guest failed (exit $rc$(grep -q 'Kernel panic' "$out/lab.log" && echo ', guest kernel panic'), see $out/lab.log)"
    ok=1
    return
  fi
  read -r run failed skipped < <(summarize "$out"/TEST-*.xml | head -1)
  details=$(summarize "$out"/TEST-*.xml | tail -n +2)
  line="kernel lab: $kernel, cgroup $cgroup, autogroup $(cat "$out/autogroup"): $run tests, $failed failed, $skipped skipped ($((SECONDS - start)) s)"
  if [ "$run" = 0 ] || [ "$failed" != 0 ] || [ "$(cat "$out/maven.rc")" != 0 ]; then
    ok=1
    [ "$run" = 0 ] && line="$line; no test ran, see $out/maven.log"
  fi
  [ -f "$out/jvm-crash" ] && line="$line; rerun after JVM crashes under emulation ($(cut -c1-160 "$out/jvm-crash"))"
  if [ -f "$out/bench.rc" ]; then
    # completed, its cgroup rows ran in launch groups, and those groups hold cpu.max / cpu.weight / cpu.idle
    g=$out/bench-groups.txt
    if [ "$(cat "$out/bench.rc")" = 0 ] && grep -q '"partial" : false' "$out/bench/report.json" 2>/dev/null &&
       [ "$(grep -c '"applied" : "background: [^;]*cpu cgroup /schedpolicy-' "$out/bench/report.json")" -ge 3 ] &&
       grep -q '^quota50: .*cpu.max=50000 100000' "$g" && grep -q '^weight10: .*cpu.weight=10 ' "$g" &&
       grep -q '^cpu-idle: .*cpu.idle=1' "$g"; then
      line="$line; bench (reduced quick) completed, cgroup rows on cpu.max, cpu.weight, cpu.idle"
    else
      line="$line; bench FAILED (exit $(cat "$out/bench.rc"), see $out/bench.log)"
      ok=1
    fi
  fi
}

# An emulated guest can still fail for the emulator's sake (a JVM or guest-kernel crash): a configuration that
# fails gets one more guest, and both attempts are printed; a real fault fails both. Runs in a subshell of its
# own and leaves its result in OUT.result (ok, then the line, then the details).
run_config() {
  local config=$1 suite=${1%%:*} cgroup=${1#*:} first first_details
  echo "kernel lab: $suite, cgroup $cgroup ..." >&2
  attempt "$suite" "$cgroup" "$results/$suite-$cgroup" "$config"
  if [ "$ok" != 0 ]; then
    mv "$results/$suite-$cgroup" "$results/$suite-$cgroup-attempt1"
    first=${line//"$results/$suite-$cgroup/"/"$results/$suite-$cgroup-attempt1/"} first_details=$details
    echo "kernel lab: $suite, cgroup $cgroup failed once, second guest ..." >&2
    attempt "$suite" "$cgroup" "$results/$suite-$cgroup" "$config"
    line="$line [second attempt; the first: ${first#kernel lab: }]"
    [ -n "$first_details" ] && details="$details${details:+
}$(printf '%s\n' "$first_details" | grep -v '^    skipped' | sed 's/^    /    (1st) /')"
  fi
  printf '%s\n%s\n%s' "$ok" "$line" "$details" > "$results/$suite-$cgroup.result"
}

jobs_max=${KERNEL_LAB_JOBS:-$(nproc)}
[ "$jobs_max" -ge 1 ] 2>/dev/null || { echo "kernel lab: KERNEL_LAB_JOBS must be a number of guests (1 or more)"; exit 2; }
[ -n "${KERNEL_LAB_JOBS:-}" ] || [ "$jobs_max" -le 2 ] || jobs_max=2
mkdir -p "$results"
# one boot per kernel first: fetches it, installs the lab's host packages, builds its boot image
declare -A warmed=()
for config in "${configs[@]}"; do
  suite=${config%%:*}
  [ -n "${warmed[$suite]:-}" ] && continue
  warmed[$suite]=1
  "$lab" --kernel "$suite" --timeout 600 -- true > "$results/warm-$suite.log" 2>&1 ||
    echo "kernel lab: the first boot of $suite failed (exit $?, see $results/warm-$suite.log); its guests will say more" >&2
done
start=$SECONDS
for config in "${configs[@]}"; do
  while [ "$(jobs -pr | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  run_config "$config" &
done
wait
status=0
lines=()
for config in "${configs[@]}"; do
  suite=${config%%:*} cgroup=${config#*:}
  result=$results/$suite-$cgroup.result
  if [ ! -f "$result" ]; then
    lines+=("kernel lab: $suite, cgroup $cgroup: no result (its runner died, see $results/$suite-$cgroup/lab.log)")
    status=1
    continue
  fi
  ok=$(sed -n 1p "$result") line=$(sed -n 2p "$result") details=$(tail -n +3 "$result")
  [ "$ok" != 0 ] && status=1
  lines+=("$line")
  [ -n "$details" ] && lines+=("$details")
done
lines+=("kernel lab: ${#configs[@]} configuration(s), $jobs_max guest(s) at once, $((SECONDS - start)) s")
printf '%s\n' "${lines[@]}"
exit $status
