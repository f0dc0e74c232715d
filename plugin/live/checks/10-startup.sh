# Jenkins loaded our plugin, and its global configuration renders on the System page.
plugins_json=$(jcurl "$J/pluginManager/api/json?depth=1&tree=plugins\[shortName,active,version\]")
if grep -qE '"active":true,"shortName":"schedpolicy"' <<<"$plugins_json"; then
  pass "Jenkins $JENKINS_VERSION started with the plugin active ($(grep -o '"shortName":"schedpolicy","version":"[^"]*"' <<<"$plugins_json" | sed 's/.*"version":"//;s/"//'))"
else
  fail "the plugin is not active: $(grep -o '[^{]*schedpolicy[^}]*' <<<"$plugins_json")"
fi
browser open "$J/manage/configure" shot "$OUT/screenshots/configure.png" \
  eval 'Array.from(document.querySelectorAll("input[name]")).map(e => e.name).join(" ")' >"$OUT/configure-fields.txt" 2>&1
check "the System page shows the Sched Policy section with all its fields" \
  grep -q '_.defaultPolicy .*_.cgroupParent .*_.measureAllSteps .*_.guardJobs .*_.guardStages .*_.guardWholeJobs .*_.guardLabel .*_.allowAboveDefault .*_.allowRaise .*_.minNice .*_.allowCgroups .*_.maxQuotaPercent .*_.handshakeTimeoutSeconds .*_.benchmarkMaxLoad .*_.benchmarkMaxRepetitions .*_.benchmarkMaxMinutes' "$OUT/configure-fields.txt"
