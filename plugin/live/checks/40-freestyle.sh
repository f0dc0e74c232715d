# Freestyle: the build wrapper, ticked in the job's own configuration form, polices the shell step; its block
# (and the cgroup a quota needs) ends after the publishers, and after a failed checkout.
create_job fs-wrap <<X
<project><builders><hudson.tasks.Shell><command>$KV freestyle
echo artifact &gt; out.txt</command></hudson.tasks.Shell></builders>
<publishers><hudson.tasks.ArtifactArchiver><artifacts>out.txt</artifacts></hudson.tasks.ArtifactArchiver></publishers></project>
X
WRAP_BOX='input[name="dev-schedpolicy-jenkins-SchedPolicyWrapper"]'
browser open "$J/job/fs-wrap/configure" \
  eval "(() => { const b = document.querySelector('$WRAP_BOX'); if (!b.checked) b.click();
                 const set = (n, v) => { const f = document.querySelector('input[name=\"_.' + n + '\"]'); f.value = v; f.dispatchEvent(new Event('change')); };
                 set('policy', 'batch'); set('nice', '19'); set('cpuQuota', '50'); return b.checked; })()" \
  shot "$OUT/screenshots/freestyle-configure.png" \
  submit "document.querySelector('form[name=config] button[name=Submit]').click()" >/dev/null
jcurl "$J/job/fs-wrap/config.xml" | tr -d '\n ' >"$OUT/fs-wrap-config.xml"
check "freestyle: the wrapper ticked in the job form saves policy batch, nice 19, cpuQuota 50" \
  bash -c "cd '$OUT' && grep -q '<dev.schedpolicy.jenkins.SchedPolicyWrapper' fs-wrap-config.xml && grep -q '<policy>batch</policy>' fs-wrap-config.xml && grep -q '<nice>19</nice>' fs-wrap-config.xml && grep -q '<cpuQuota>50</cpuQuota>' fs-wrap-config.xml"
run_build fs-wrap
check "freestyle: SUCCESS" test "$RESULT" = SUCCESS
check "freestyle: the shell step runs batch, nice 19, in a cgroup with a 50% quota" \
  test "$(kernel_field freestyle policy) $(kernel_field freestyle nice) $(kernel_field freestyle quota)" = "3 19 50000"
cg=$(kernel_field freestyle cgroup)
check "freestyle: the block ends after the publishers (its cgroup usage line follows 'Archiving artifacts')" \
  bash -c "awk '/^Archiving artifacts/ {a = NR} /^\[schedpolicy\] build cgroup usage/ {u = NR} END {exit !(a && u > a)}' '$CONSOLE'"
check "freestyle: the block's cgroup ($cg) is gone after the build" test ! -d "$CPU_ROOT$cg"
check "freestyle: the build page lists the block as ended with its launch verified" \
  bash -c "browser_text=\$(java '$LIVE/Browser.java' open '$J/job/fs-wrap/$BUILD/' eval 'document.querySelector(\"#schedpolicy-blocks\").innerText' shot '$OUT/screenshots/freestyle-build.png'); grep -q '1 of 1 launches verified' <<<\"\$browser_text\" && ! grep -q '(running)' <<<\"\$browser_text\""

create_job fs-checkout-fails <<X
<project><customWorkspace>/proc/schedpolicy-live-cannot-exist</customWorkspace>
<builders><hudson.tasks.Shell><command>$KV never</command></hudson.tasks.Shell></builders>
<buildWrappers><dev.schedpolicy.jenkins.SchedPolicyWrapper><fields><policy>batch</policy><cpuQuota>50</cpuQuota></fields></dev.schedpolicy.jenkins.SchedPolicyWrapper></buildWrappers></project>
X
groups_before=$(cpu_groups)
run_build fs-checkout-fails
check "freestyle, failed checkout (workspace cannot be made): FAILURE, the step never ran" \
  bash -c "test '$RESULT' = FAILURE && ! grep -q '^KERNEL never' '$CONSOLE'"
browser open "$J/job/fs-checkout-fails/$BUILD/" eval 'document.querySelector("#schedpolicy-blocks").innerText' >"$OUT/fs-checkout-fails-summary.txt"
left_groups=$(new_groups "$groups_before" | tr '\n' ' ')
check "freestyle, failed checkout: the block is ended (not running) and no cgroup is left${left_groups:+ (left: $left_groups)}" \
  bash -c "grep -q 'wrapper batch+quota50' '$OUT/fs-checkout-fails-summary.txt' && ! grep -q '(running)' '$OUT/fs-checkout-fails-summary.txt' && test -z '$left_groups'"
