#!/usr/bin/env bash
# What the guard costs on an agent, and how soon it acts and puts back, through the registry the Jenkins agent drives
# (engine/src/jmh/java/dev/schedpolicy/engine/agent/GuardCost.java): LAUNCHES busy shell steps' loops, then one guarded
# busy launch beside them. Prints the guard's CPU as a share of one CPU, the first action after the guarded launch's
# release and the time until all are back after it ended (medians and maxima over ROUNDS). Needs root and a writable
# cpu cgroup hierarchy. Figures count only from a quiet machine.
#
#   bench/guard-cost.sh [LAUNCHES [SECONDS [ROUNDS [WARMUP]]]]      default 8 20 7 60 (WARMUP: seconds of a first guard)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "guard-cost: needs root (the guard moves the loops into an idle cpu cgroup)" >&2; exit 2; }
for n in "$@"; do
  [ "$n" -ge 1 ] 2>/dev/null || { echo "guard-cost: LAUNCHES, SECONDS, ROUNDS and WARMUP are whole numbers of 1 or more, got '$n'" >&2; exit 2; }
done
./mvnw -q -B -pl engine -am -Pbench test-compile
./mvnw -q -B -pl engine -Pbench dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/guard-cost.cp
exec java ${GUARD_COST_JVM_OPTS:-} -cp "engine/target/classes:engine/target/test-classes:$(cat engine/target/guard-cost.cp)" \
  dev.schedpolicy.engine.agent.GuardCost "$@"
