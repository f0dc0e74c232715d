#!/bin/sh
# Start-up of `schedpolicy run --policy idle -- /bin/true`, before and after the start-up work, with hyperfine
# (Debian package hyperfine). Figures count only from a quiet machine (docs/startup.md):
#   bench/startup.sh                  # build if needed, then 5 warm-ups and 30 runs of each variant
#   RUNS=10 bench/startup.sh          # fewer runs
# Variants: "before" is the plain jar with default JVM settings, as `./schedpolicy` started it until the
# launcher change; "./schedpolicy" is the checkout's launcher; "bin/schedpolicy" the unpacked tarball;
# "chrt" is util-linux's chrt for scale; "bare-JVM" is `java -Xshare:auto -XX:TieredStopAtLevel=1 -version`, the
# JVM's own start, and the launchers' medians are also printed as a ratio of it. Peak RSS (max of 10 runs) too.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd -P)
runs=${RUNS:-30}
command -v hyperfine >/dev/null || { echo "bench/startup.sh: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
"$here/schedpolicy" --version >/dev/null        # builds the jar and its CDS archive when needed
tarball=$(ls "$here"/dist/target/schedpolicy-*.tar.gz 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "bench/startup.sh: run ./mvnw -q package -DskipTests first (no dist tarball)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$tarball" -C "$tmp"
installed=$(ls -d "$tmp"/schedpolicy-*)/bin/schedpolicy
export XDG_CACHE_HOME="$tmp/cache"
"$installed" --version >/dev/null                # its first run makes its own CDS archive
args="run --policy idle -- /bin/true"
before="java -jar $here/cli/target/schedpolicy.jar $args"
after="$here/schedpolicy $args"
dist="$installed $args"
ref="chrt --idle 0 /bin/true"
jvm="java -Xshare:auto -XX:TieredStopAtLevel=1 -version"
hyperfine -N --warmup 5 --runs "$runs" --export-json "$tmp/startup.json" \
  -n before "$before" -n ./schedpolicy "$after" -n bin/schedpolicy "$dist" -n chrt "$ref" -n bare-JVM "$jvm"
# the target is a median: hyperfine prints means, its JSON has medians
echo "median wall time:"
tr -d ' \n' <"$tmp/startup.json" | sed 's/"command":/\n/g' | sed -n 's/^"\([^"]*\)".*"median":\([0-9.e-]*\).*/\1 \2/p' |
  while read -r name median || [ -n "${name:-}" ]; do echo "$name $median"; done >"$tmp/medians"
jvm_median=$(sed -n 's/^bare-JVM //p' "$tmp/medians")
while read -r name median; do
  case $name in
    ./schedpolicy|bin/schedpolicy) ratio=$(awk "BEGIN { printf \" (%.2fx the bare JVM)\", $median / $jvm_median }") ;;
    *) ratio= ;;
  esac
  echo "  $name: $(awk "BEGIN { printf \"%.1f ms\", $median * 1000 }")$ratio"
done <"$tmp/medians"
for v in "$before" "$after" "$dist"; do
  peak=0
  for i in 1 2 3 4 5 6 7 8 9 10; do
    kb=$(/usr/bin/time -f %M $v 2>&1 >/dev/null | tail -n 1)
    [ "$kb" -gt "$peak" ] && peak=$kb
  done
  echo "peak RSS $((peak / 1024)) MiB: ${v%% run *}"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (figures count only when the machine is quiet)"
