# Cgroup policies from a block (cpuQuota, cpuIdle), and the global cgroupParent set to the machine-wide idle
# parent that `schedpolicy setup` makes, so a cpu-idle block yields to every other service on the machine.
pipeline_job p-cgroup <<G
node {
  withSchedPolicy(cpuQuota: 50) { sh '$KV quota' }
  withSchedPolicy(cpuIdle: true) { sh '$KV cpu-idle' }
  withSchedPolicy(policy: 'batch', cpuQuota: 150, cpuIdle: true) { sh '$KV both' }
}
G
groups_before=$(cpu_groups)
run_build p-cgroup
check "cgroup blocks: SUCCESS" test "$RESULT" = SUCCESS
check "withSchedPolicy(cpuQuota: 50): the sh runs in its own cpu cgroup ($(kernel_field quota cgroup), named after the Jenkins JVM) with a 50% quota" \
  bash -c "[[ '$(kernel_field quota cgroup)' == /schedpolicy-$JENKINS_PID-* ]] && test '$(kernel_field quota quota)' = 50000"
check "withSchedPolicy(cpuIdle: true): the sh runs in a cgroup with cpu.idle = 1" \
  bash -c "test '$(kernel_field cpu-idle cgroup)' != / && test '$(kernel_field cpu-idle idle)' = 1"
check "withSchedPolicy(policy: 'batch', cpuQuota: 150, cpuIdle: true): class batch, quota 150%, idle group" \
  test "$(kernel_field both policy) $(kernel_field both quota) $(kernel_field both idle)" = "3 150000 1"
check "cgroup blocks: the console reports each block's cgroup usage" test "$(grep -c '^\[schedpolicy\] block cgroup usage' "$CONSOLE")" = 3
left_groups=$(new_groups "$groups_before" | tr '\n' ' ')
check "cgroup blocks: every group is removed when its block ends${left_groups:+ (left: $left_groups)}" test -z "$left_groups"

idle_parent_up
check "schedpolicy setup made the machine-wide idle parent $IDLE_PARENT (cpu.idle = 1)" test "$(cat "$IDLE_PARENT/cpu.idle" 2>/dev/null)" = 1
browser open "$J/manage/configure" \
  eval "(() => { const f = document.querySelector('input[name=\"_.cgroupParent\"]'); f.value = '$IDLE_PARENT'; f.dispatchEvent(new Event('change')); return f.value; })()" \
  submit "document.querySelector('form[name=config] button[name=Submit]').click()" >/dev/null
check "global cgroupParent: set to the idle parent through the System form, it reads back after a reload" \
  test "$(browser open "$J/manage/configure" eval "document.querySelector('input[name=\"_.cgroupParent\"]').value")" = "$IDLE_PARENT"
pipeline_job p-cgroup-parent <<G
node { withSchedPolicy(cpuIdle: true) { sh '$KV under-parent' } }
G
run_build p-cgroup-parent
check "cgroupParent: the cpu-idle block's group is made under the idle parent ($(kernel_field under-parent cgroup))" \
  bash -c "[[ '$(kernel_field under-parent cgroup)' == /schedpolicy.idle/* ]] && test '$(kernel_field under-parent idle)' = 1 && test '$RESULT' = SUCCESS"
browser open "$J/manage/configure" \
  eval "(() => { const f = document.querySelector('input[name=\"_.cgroupParent\"]'); f.value = ''; return f.value; })()" \
  submit "document.querySelector('form[name=config] button[name=Submit]').click()" >/dev/null
check "idle parent: no group of the build is left under it" test -z "$(find "$IDLE_PARENT" -mindepth 1 -type d -name 'schedpolicy-*' 2>/dev/null)"
idle_parent_down
