# Fault: a build aborted while its launch waits for the handshake. The agent's /bin/sh (dash) is, in its own mount
# namespace, a wrapper that sleeps 8 s before it runs the park shim (any other sh runs at once): the launch waits for
# the shim's PID as on a very slow machine, and the build is aborted meanwhile. Two phases: the block's own probe
# launch (/bin/sh -c :, when the block starts) and the sh step's launch (durable-task's nohup sh); $FD/slow-mode says
# which one is slowed. The build must end within ABORT_BOUND_MS of the stop (stop_and_judge; the sh launch's abort
# reaches the agent through the plugin's AbortWatch, which polls every 0.2 s).
source "$LIVE/faults.sh"
ABORT_BOUND_MS=${FAULT_ABORT_BOUND_MS:-2500}
cp "$(readlink -f /bin/sh)" "$FD/real-sh"
cat >"$FD/slow-sh" <<S
#!$FD/real-sh
case "\$*:\$(cat $FD/slow-mode 2>/dev/null)" in
  *park-shim-*' -c ::probe') sleep 8 ;;
  *park-shim-*' -c ::'*) ;;
  *park-shim-*:sh) sleep 8 ;;
esac
exec $FD/real-sh "\$@"
S
chmod +x "$FD/slow-sh"
# slowed_shim: a `sleep 8` whose parent runs a park shim: the launch waits for the shim's PID now
slowed_shim() {
  local p
  for p in $(pgrep -x sleep); do
    grep -q park-shim "/proc/$(cut -d' ' -f4 "/proc/$p/stat" 2>/dev/null)/cmdline" 2>/dev/null && return 0
  done
  return 1
}
faults_begin "aborted handshake" "mount --bind '$FD/slow-sh' '$(readlink -f /bin/sh)'"
if fa_online; then
  pipeline_job f-abort <<G
node('fault') { withEnv(['FAULTMARK=f-abort']) { withSchedPolicy('idle') { sh ': > $FLAGS/f-abort-ran; $KV f-abort' } } }
G
  for phase in probe sh; do
    echo "$phase" >"$FD/slow-mode"
    ok_end=0 ok_prompt=0 ok_never=0 ok_left=0 notes=
    for c in $(seq "$CYCLES"); do
      rm -f "$FLAGS/f-abort-ran"
      n=$(start_build f-abort)
      # waiting: the slowed sh sleeps before the shim of the phase's launch (not the shim of a launch that passes at
      # once: an abort timed by that one landed between the probe and the body)
      wait_for 30 slowed_shim
      stop_and_judge f-abort "$n" "$ABORT_BOUND_MS"; FAULTS=$((FAULTS + 1))
      ok_end=$((ok_end + ENDED_CLEAN)) ok_prompt=$((ok_prompt + ENDED_PROMPT))
      sleep 9  # the slowed sh then runs the shim, which finds no handshake and exits 125
      [ ! -e "$FLAGS/f-abort-ran" ] && ok_never=$((ok_never + 1))
      leftovers f-abort && ok_left=$((ok_left + 1))
      notes="$notes${notes:+; }cycle $c: $RESULT after $STOP_MS ms, $LEFT"
      line=$(grep -E '^\[schedpolicy\].*aborted|^ERROR|Exception' "$CONSOLE" | head -2 | tr '\n' ' ' | cut -c1-220)
    done
    check_cycles "aborted while the $phase launch waits for the handshake: ABORTED, one [schedpolicy] line, no stack trace" "$ok_end"
    note "${line:-(no [schedpolicy] line)}"
    check_cycles "aborted $phase handshake: the build ended within $ABORT_BOUND_MS ms of the stop, not when the slow shim came" "$ok_prompt"
    check_cycles "aborted $phase handshake: the command never ran, not even when the slow shim came late" "$ok_never"
    check_cycles "aborted $phase handshakes: nothing left (processes, handshake directories, groups)" "$ok_left"
    note "$notes"
  done
else
  fail "abort: the agent with a slow /bin/sh did not start (see $OUT/agent-fault.log)"
fi
faults_end
