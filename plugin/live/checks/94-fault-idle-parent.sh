# Fault: the machine-wide idle parent removed while a build runs under it: `schedpolicy setup --remove` and a bare
# rmdir are refused, the build goes on; removed once the build is over, the next cpuIdle block fails in words.
source "$LIVE/faults.sh"
faults_begin "idle parent removed"
if [ -d "$IDLE_PARENT" ]; then
  skip "idle parent removal: $IDLE_PARENT exists already (made outside this check), so it is not removed here"
else
  idle_parent_up
  groovy "dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setCgroupParent('$IDLE_PARENT'); print 'ok'" >/dev/null
  blocking_job f-parent fault "cpuIdle: true"
  pipeline_job f-parent-gone <<G
node('fault') { withEnv(['FAULTMARK=f-parent-gone']) { withSchedPolicy(cpuIdle: true) { sh ': > $FLAGS/f-parent-gone-ran' } } }
G
  ok_refused=0 ok_build=0 ok_after=0 ok_left=0 line=
  for c in $(seq "$CYCLES"); do
    [ -d "$IDLE_PARENT" ] || (cd "$ROOT" && ./schedpolicy setup) >>"$OUT/checks.log" 2>&1
    fresh_flags f-parent
    n=$(started_blocking f-parent) || { fail "idle parent cycle $c: the block did not start"; break; }
    removal=$(cd "$ROOT" && ./schedpolicy setup --remove 2>&1); rc=$?; FAULTS=$((FAULTS + 1))
    rmdir "$IDLE_PARENT" 2>/dev/null; rmdir_rc=$?
    [ "$rc" != 0 ] && [ "$rmdir_rc" != 0 ] && [ -d "$IDLE_PARENT" ] && kernel_all f-parent 0 /schedpolicy.idle/schedpolicy- >>"$OUT/checks.log" \
      && ok_refused=$((ok_refused + 1))
    line="exit $rc: $(tr '\n' ' ' <<<"$removal" | cut -c1-160)"
    : >"$FLAGS/f-parent-go"
    r=$(wait_build f-parent "$n" 120); console_of f-parent "$n"
    [ "$r" = SUCCESS ] && console_has '^KERNEL f-parent-after .*cgroup=/schedpolicy.idle/' && ok_build=$((ok_build + 1))
    # once the build is over the parent goes; a block asking for it then fails in words
    (cd "$ROOT" && ./schedpolicy setup --remove) >>"$OUT/checks.log" 2>&1
    rm -f "$FLAGS/f-parent-gone-ran"
    run_build f-parent-gone 120
    [ ! -d "$IDLE_PARENT" ] && [ "$RESULT" = FAILURE ] && [ ! -e "$FLAGS/f-parent-gone-ran" ] \
      && grep -q '^ERROR: \[schedpolicy\].*schedpolicy.idle' "$CONSOLE" && ok_after=$((ok_after + 1))
    after_line=$(grep -m1 'schedpolicy.idle' "$CONSOLE" | cut -c1-200)
    leftovers f-parent && ok_left=$((ok_left + 1))
  done
  groovy "dev.schedpolicy.jenkins.SchedPolicyConfiguration.get().setCgroupParent(''); print 'ok'" >/dev/null
  check_cycles "idle parent: 'schedpolicy setup --remove' (and a bare rmdir) refused while a block's sh runs under it" "$ok_refused"
  note "$line"
  check_cycles "idle parent: the build under it goes on to SUCCESS" "$ok_build"
  check_cycles "idle parent removed after the build: the next cpuIdle block fails in words naming it, its body never ran" "$ok_after"
  note "$after_line"
  check_cycles "idle parent: nothing left" "$ok_left"
fi
faults_end
