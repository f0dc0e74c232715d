#!/bin/sh
# The fleet view at 1,000 agents (issue 24 item 3): runs the JenkinsRule benchmark FleetScaleTest, which makes 1,000
# nodes, gives each a probe result from a generator through the plugin's own probe queue (answers after 30-370 ms, the
# live suite's measured warm probes), then times the page, api/json, fleet.txt and one agent's page over HTTP and reads
# the controller's heap. Prints target/fleet-scale.txt; docs/jenkins.md quotes it with the machine's state.
#   bench/fleet-scale.sh                 # 1,000 agents
#   AGENTS=5000 bench/fleet-scale.sh     # another size
# Needs the Jenkins Maven kit at ../shared/jenkins-m2 (.ci/jenkins-kit-m2.sh). The probe through remoting on real agents is the
# live suite's 86-fleet check (its refresh figures).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$here"
settings=$(.ci/jenkins-kit-m2.sh)
./mvnw -B -q -o -s "$settings" -Pjenkins -pl plugin -am verify -Dbom.groupId=dev.schedpolicy.kit \
  -Dbom.artifactId=jenkins-kit-bom -Dbom.version=2.516.2 '-Dtest=dev.schedpolicy.jenkins.FleetScaleTest' \
  -Dsurefire.failIfNoSpecifiedTests=false -Dschedpolicy.fleetScale.agents="${AGENTS:-1000}" >/dev/null
cat plugin/target/fleet-scale.txt
