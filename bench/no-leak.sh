#!/bin/sh
# The full leak run: 1,000 wrapped launches (NoLeakITest with LAUNCHES=1000; the default build runs 200).
# Needs root or a delegated cpu cgroup for the cgroup variants, like the test suite. docs/no-leak.md.
#   bench/no-leak.sh            # 1000 launches
#   bench/no-leak.sh 2000       # any other count
set -eu
here=$(cd "$(dirname "$0")/.." && pwd -P)
n=${1:-1000}
"$here/mvnw" -q -B -f "$here/pom.xml" -pl engine -am verify -Dtest=NoLeakITest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dschedpolicy.noLeak.launches="$n"
sed -n 's/.*\(no-leak: [^]]*\).*/\1/p' "$here/engine/target/surefire-reports/TEST-dev.schedpolicy.engine.launch.NoLeakITest.xml"
