# Faults: what the agent must write is not writable: its state directory read-only or on a full disk, the cpu cgroup
# controller read-only. The agent starts with the fault in its own mount namespace; a block there fails in one line
# and its body never runs.
source "$LIVE/faults.sh"
faults_begin "unwritable"
# refused_case NAME SETUP POLICY WHAT: the agent started with SETUP in its mount namespace; a block there fails
refused_case() {
  local name=$1 setup=$2 policy=$3 what=$4 ok=0 ok_left=0 line=
  fa_stop
  fa_start "$setup" || { fail "$what: the agent did not start"; return; }
  pipeline_job "$name" <<G
node('fault') { withEnv(['FAULTMARK=$name']) { withSchedPolicy($policy) { sh ': > $FLAGS/$name-ran; $KV $name' } } }
G
  for c in $(seq "$CYCLES"); do
    rm -f "$FLAGS/$name-ran"
    run_build "$name" 120; FAULTS=$((FAULTS + 1))
    [ "$RESULT" = FAILURE ] && [ ! -e "$FLAGS/$name-ran" ] && grep -q '^ERROR: \[schedpolicy\]' "$CONSOLE" \
      && ! grep -qE '^\s+at ' "$CONSOLE" && ok=$((ok + 1))
    line=$(grep -m1 '\[schedpolicy\]' "$CONSOLE" | cut -c1-200)
    leftovers "$name" && ok_left=$((ok_left + 1))
  done
  check "$what: FAILURE with one [schedpolicy] ERROR line, the body never ran ($ok/$CYCLES)" test "$ok" = "$CYCLES"
  note "$line"
  check_cycles "$what: nothing left" "$ok_left"
}
refused_case f-state-ro "mount -t tmpfs -o ro,mode=0700,size=64k tmpfs '$RUNDIR'" "'idle'" \
  "state directory unwritable (read-only tmpfs under XDG_RUNTIME_DIR)"
refused_case f-state-full "mount -t tmpfs -o mode=0700,size=16k tmpfs '$RUNDIR' && (dd if=/dev/zero of='$RUNDIR/fill' bs=4k 2>/dev/null; true)" \
  "'idle'" "state directory on a full disk (16 KiB tmpfs, filled)"
refused_case f-cgroup-ro "mount -o remount,bind,ro $CPU_ROOT" "cpuQuota: 50" \
  "cpu cgroup controller read-only in the agent's mount namespace"
faults_end
