#!/usr/bin/env bash
# `schedpolicy bench` against the independent harness (harness.sh, no project code), cell by cell: the same victim
# (sysbench cpu, fixed work), the same background (COPIES C++ compile loops), the same topology and policy. Prints
# one line per cell with both kept % (95% CI) and their difference; exits 1 when a difference exceeds LIMIT points.
#
#   bench/independent/compare.sh [CELLS]      CELLS e.g. "other-session:default,idle same-agent:default,nice19,idle"
#   env: COPIES (4), REPS (5), LIMIT (2), VICTIM_EVENTS (3000), OUT (bench-out/independent)
#
# bench is kept off the machine-wide idle parent (as the harness is). Run it on a quiet machine: both sides measure the victim's wall time beside real compiles, and anything else
# that runs meanwhile moves them by different amounts. Takes about 2 minutes per cell on 2 CPUs.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CELLS=${1:-"same-agent:default,nice19,idle,cpu-idle other-session:default,nice19,idle,cpu-idle outside-agent:default,cpu-idle"}
COPIES=${COPIES:-4} REPS=${REPS:-5} LIMIT=${LIMIT:-2} EVENTS=${VICTIM_EVENTS:-3000}
OUT=${OUT:-$ROOT/bench-out/independent}
mkdir -p "$OUT"
VICTIM="sysbench cpu --threads=1 --events=$EVENTS --time=0 run"
BACKGROUND="while :; do g++ -O2 -c $HERE/bg.cpp -o /dev/null; done"
status=0
printf '%-14s %-9s %18s %18s %6s\n' topology policy "bench kept %" "harness kept %" diff | tee "$OUT/compare.txt"
for cell in $CELLS; do
  topology=${cell%%:*} policies=${cell#*:}
  "$ROOT/schedpolicy" bench --scenario compile-vs-test --victim "$VICTIM" --background "$BACKGROUND" \
    --topology "$topology" --policies "$policies" --loads "$COPIES" --repetitions "$REPS" \
    --idle-parent /nonexistent/schedpolicy.idle --out "$OUT/bench-$topology" >"$OUT/bench-$topology.txt" 2>&1 || { echo "bench failed: $OUT/bench-$topology.txt" >&2; exit 2; }
  for policy in ${policies//,/ }; do
    bench=$(python3 - "$OUT/bench-$topology/report.json" "$topology" "$policy" "$COPIES" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["cells"]:
    if c["topology"] == sys.argv[2] and c["policy"] == sys.argv[3] and c["load"] == float(sys.argv[4]):
        k = c["keptPct"]; print(f'{k["mean"]:.1f} {k["ciHalfWidth"]:.1f}'); break
else:
    sys.exit(f"no cell {sys.argv[2:]} in {sys.argv[1]}")
EOF
)
    line=$("$HERE/harness.sh" "$topology" "$policy" "$COPIES" "$REPS")
    harness=$(sed -n 's/.* kept=\([0-9.]*\) ci95=\([0-9.na]*\).*/\1 \2/p' <<<"$line")
    echo "$line" >>"$OUT/harness.txt"
    read -r bm bci <<<"$bench"; read -r hm hci <<<"$harness"
    diff=$(python3 -c "print(f'{$bm - $hm:+.1f}')")
    printf '%-14s %-9s %11s ± %4s %11s ± %4s %6s\n' "$topology" "$policy" "$bm" "$bci" "$hm" "$hci" "$diff" | tee -a "$OUT/compare.txt"
    python3 -c "import sys; sys.exit(0 if abs($bm - $hm) <= $LIMIT else 1)" || status=1
  done
done
echo "compare: within $LIMIT points: $([ $status = 0 ] && echo yes || echo NO) ($OUT/compare.txt)"
exit $status
