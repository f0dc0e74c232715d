#!/usr/bin/env bash
# What `schedpolicy run --guard` keeps for a command beside two busy loops of the same user, each in a session of
# its own (so per-task classes could not reach them): a fixed-work shell loop, timed by itself, alone, beside the
# loops unguarded, and beside them guarded; after each guarded run the loops are read back in /proc (cgroup, class).
# Runs in a PID namespace of its own (unshare) so that the only busy processes of the caller the guard can see are
# the loops it starts. Needs root (the guard moves the loops into an idle cgroup), util-linux, the built CLI.
#
#   bench/guard-cli.sh [ROUNDS]      default 5; prints one line per round and the medians
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "guard-cli: ROUNDS must be a whole number of 1 or more, got '$rounds'" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "guard-cli: needs root (the guard moves the loops into an idle cpu cgroup)" >&2; exit 2; }
[ -f cli/target/schedpolicy.jar ] || ./mvnw -q -B -pl engine,cli -am -DskipTests package
export JAR=$PWD/cli/target/schedpolicy.jar ROUNDS=$rounds
exec unshare --pid --fork --mount-proc bash -c '
# the fixed work, timed by itself: the guarded figure must not hold the start of the CLI JVM, which runs beside the
# loops before the guard watches anything
work() { local t0 i=0; t0=$(date +%s%N); while [ $i -lt 1500000 ]; do i=$((i+1)); done; echo $(( ($(date +%s%N) - t0) / 1000000 )); }
export -f work
alone=() unguarded=() guarded=()
for r in $(seq "$ROUNDS"); do
  a=$(bash -c work)
  setsid sh -c "while :; do :; done" & h1=$!
  setsid sh -c "while :; do :; done" & h2=$!
  sleep 0.5
  u=$(bash -c work)
  g=$(java -jar "$JAR" run --guard -- bash -c work 2>/tmp/guard-cli.$$)
  back="$(grep -h ":cpu:\|^0::" /proc/$h1/cgroup /proc/$h2/cgroup | sort -u | tr "\n" " ")class $(cut -d" " -f41 /proc/$h1/stat)$(cut -d" " -f41 /proc/$h2/stat)"
  kill $h1 $h2; wait $h1 $h2 2>/dev/null || true
  printf "round %d: alone %d ms, beside 2 loops %d ms (kept %d%%), guarded %d ms (kept %d%%); loops after: %s\n" \
    "$r" "$a" "$u" $((100 * a / u)) "$g" $((100 * a / g)) "$back"
  alone+=("$a") unguarded+=("$u") guarded+=("$g")
done
median() { printf "%s\n" "$@" | sort -n | awk "{v[NR]=\$1} END {print (NR % 2) ? v[(NR+1)/2] : int((v[NR/2]+v[NR/2+1])/2)}"; }
ma=$(median "${alone[@]}") mu=$(median "${unguarded[@]}") mg=$(median "${guarded[@]}")
echo "medians of $ROUNDS: alone $ma ms; beside 2 loops kept $((100 * ma / mu))%; guarded kept $((100 * ma / mg))%"
echo "last guard report:"; sed "s/^/  /" /tmp/guard-cli.$$; rm -f /tmp/guard-cli.$$
'
