# schedBenchmark within the administrator's caps: with *most repetitions* set to 2 on the System page, a benchmark
# that asks for 3 fails before anything of it starts, in one console line naming the cap and where it is set.
set_global benchmarkMaxRepetitions 2
pipeline_job p-bench-capped <<G
node { schedBenchmark(scenario: 'seed-cpu-looper', quick: true, policies: 'default', loads: '1', repetitions: 3) }
G
run_build p-bench-capped 180
set_global benchmarkMaxRepetitions 50
capped_in_one_line() {
  test "$RESULT" = FAILURE \
    && test "$(grep -c "schedBenchmark asks for 3 repetitions, above the administrator's cap (most repetitions: 2, set in Manage Jenkins » System » Sched Policy)" "$CONSOLE")" = 1 \
    && ! grep -q '^\[schedpolicy\] benchmark:' "$CONSOLE" && ! grep -qE $'^\tat ' "$CONSOLE"
}
check "schedBenchmark over the repetitions cap set on the System page: FAILURE in one line naming the cap, nothing run" capped_in_one_line
note "$(grep -m1 'above the administrator' "$CONSOLE" | cut -c1-200)"
check "the System page keeps the cap it was given back (50)" test "$(read_global benchmarkMaxRepetitions | tail -1)" = 50
