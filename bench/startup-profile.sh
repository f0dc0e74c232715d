#!/bin/sh
# Where the start-up of `schedpolicy run --policy idle -- /bin/true` goes: async-profiler (wall clock, every
# thread) on RUNS runs with the launcher's own JVM flags and CDS archive, then the main thread's time by phase
# and the launch thread's time by step. Figures count only from a quiet machine (docs/startup.md).
#   bench/startup-profile.sh            # 20 runs
#   RUNS=50 bench/startup-profile.sh
# async-profiler comes from Maven Central (tools.profiler:async-profiler, linux-x64 or linux-arm64) into
# target/; the collapsed stacks stay in target/startup-profile/ for a flame graph or a closer look.
# The sampling signal is SIGWINCH (28): `run` forwards SIGPROF and SIGVTALRM, the profiler's defaults, to the
# command, which would end the profile where the signal forwarding is set up.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd -P)
runs=${RUNS:-20}
version=4.2
case $(uname -m) in
  x86_64) arch=linux-x64 ;;
  aarch64) arch=linux-arm64 ;;
  *) echo "bench/startup-profile.sh: async-profiler has no build for $(uname -m)" >&2; exit 2 ;;
esac
out=$here/bench/target/startup-profile
lib=$here/bench/target/async-profiler-$version/$arch/libasyncProfiler.so
if [ ! -f "$lib" ]; then
  "$here/mvnw" -q -B dependency:copy -Dartifact="tools.profiler:async-profiler:$version:jar:$arch" \
    -DoutputDirectory="$here/bench/target" >&2
  (cd "$here/bench/target" && mkdir -p "async-profiler-$version" &&
    unzip -q -o "async-profiler-$version-$arch.jar" "$arch/*" -d "async-profiler-$version")
fi
"$here/schedpolicy" --version >/dev/null        # builds the jar and its CDS archive when needed
rm -rf "$out" && mkdir -p "$out"
i=1
while [ "$i" -le "$runs" ]; do
  SCHEDPOLICY_JAVA_OPTS="-agentpath:$lib=start,event=wall,interval=200us,signal=28,threads,collapsed,file=$out/run-$i.collapsed" \
    "$here/schedpolicy" run --policy idle -- /bin/true >/dev/null
  i=$((i + 1))
done
# Each sample of the main thread counts once, in the first phase whose pattern its stack matches.
awk -v runs="$runs" -v interval_ms=0.2 '
function phase(s) {
  if (s ~ /LauncherHelper/) return "JVM launcher: open the jar, load and link the main class"
  if (s ~ /cli\/Main\.<clinit>/) return "first lambda of the run (java.lang.invoke set-up)"
  if (s ~ /cli\/Main\.commandLine/) return "picocli: build the command model (built-in converters included)"
  if (s ~ /jna\/Native\.<clinit>;java\/util\/logging/) return "JNA: java.util.logging set-up for its logger"
  if (s ~ /JnaKernel\.get/) return "JNA: native library and libc binding (a proxy class)"
  if (s ~ /SignalForwarder\.install/) return "signal forwarding set-up"
  if (s ~ /PolicyThreadLauncher|PolicedProcess|waitFor/) return "the launch (see the launch thread below), read-back, wait"
  if (s ~ /cli\/Main\.main/) return "picocli parse and dispatch, options to a policy, state directory"
  return "JVM start before the launcher, and exit"
}
function step(s) {
  if (s ~ /ProcessBuilder\.start/) return "ProcessBuilder.start (spawn and exec)"
  if (s ~ /ReadBack\.read/) return "read the thread back from /proc"
  if (s ~ /restoreHelperThreads|ProcFs\.threads/) return "list the JVM threads, restore helpers born meanwhile"
  if (s ~ /TaskPolicyApplier/) return "apply the policy (syscalls)"
  return "thread start, signal mask, other"
}
{
  n = $NF; stack = $0; sub(/ [0-9]+$/, "", stack)
  if (stack ~ /^\[main tid/) { main[phase(stack)] += n; mainTotal += n }
  else if (stack ~ /^\[schedpolicy-launch/) { launch[step(stack)] += n; launchTotal += n }
}
END {
  printf "main thread, ms per run (wall clock, from the agent start; the mean of %d runs):\n", runs
  for (p in main) printf "%7.1f  %s\n", main[p] * interval_ms / runs, p | "sort -rn"
  close("sort -rn")
  printf "%7.1f  total\n\nlaunch thread, ms per run:\n", mainTotal * interval_ms / runs
  for (p in launch) printf "%7.1f  %s\n", launch[p] * interval_ms / runs, p | "sort -rn"
  close("sort -rn")
  printf "%7.1f  total\n", launchTotal * interval_ms / runs
}' "$out"/run-*.collapsed
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (figures count only when the machine is quiet); stacks in $out"
