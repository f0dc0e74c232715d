#!/usr/bin/env bash
# Builds the plugin's .hpi without repo.jenkins-ci.org: compiles plugin/src/main against the jars of a
# Jenkins war and of the plugins in a folder (the annotation processors those jars carry run: SezPoz for
# @Extension, annotation-indexer for @Symbol, Stapler's for @DataBoundConstructor), and packs the .hpi as
# maven-hpi-plugin lays it out. The -Pjenkins build stays the standard one where that repository is
# reachable; this one is for Jenkins installations at hand (and the live suite).
#
#   plugin/live/build-hpi.sh JENKINS_WAR PLUGINS_DIR [OUT.hpi]
#
# PLUGINS_DIR holds the .jpi/.hpi files of the plugins this one depends on (a JENKINS_HOME/plugins
# folder will do). The manifest declares the war's Jenkins version and the versions of the plugins found.
# Needs a JDK (javac, jar) and python3 (the Messages classes), and builds the engine with ./mvnw when its jar is missing
# or older than its sources.
# The manifest has what maven-hpi-plugin writes for Jenkins to read; compare-hpi.sh checks the two .hpi load the same.
set -euo pipefail
usage() { echo "usage: $0 JENKINS_WAR PLUGINS_DIR [OUT.hpi]" >&2; exit 2; }
[ $# -ge 2 ] || usage
WAR=$(realpath "$1") PLUGINS=$(realpath "$2")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(realpath -m "${3:-$ROOT/plugin/target/live/schedpolicy.hpi}")
[ -f "$WAR" ] || { echo "no Jenkins war at $1" >&2; exit 2; }
[ -d "$PLUGINS" ] || { echo "no plugins folder at $2" >&2; exit 2; }

# The plugins the code compiles against (Plugin-Dependencies); their own dependencies are found by Jenkins.
DEPENDS=(structs workflow-step-api workflow-api jackson2-api plugin-util-api echarts-api)
# Only for compiling: what the compiled-against plugins themselves need on the classpath.
COMPILE_ALSO=(workflow-support scm-api bootstrap5-api font-awesome-api jquery3-api)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedpolicy-hpi.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

plugin_file() {
  local f
  for f in "$PLUGINS/$1.jpi" "$PLUGINS/$1.hpi"; do [ -f "$f" ] && { echo "$f"; return 0; }; done
  return 1
}
manifest_value() { # FILE KEY: one manifest attribute (continuation lines joined)
  (cd "$WORK" && rm -rf mf && mkdir mf && cd mf && jar xf "$1" META-INF/MANIFEST.MF \
    && tr -d '\r' < META-INF/MANIFEST.MF | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n //g' | sed -n "s/^$2: //p")
}

# 1. the engine jar and its runtime libraries (Jackson and JNA come from Jenkins: left out)
ENGINE_JAR=$(ls "$ROOT"/engine/target/schedpolicy-engine-*.jar 2>/dev/null | grep -v -e sources -e tests | head -1 || true)
if [ -z "$ENGINE_JAR" ] || [ -n "$(find "$ROOT/engine/src/main" -newer "$ENGINE_JAR" -type f | head -1)" ]; then
  echo "building the engine (./mvnw -pl engine package -DskipTests)" >&2
  (cd "$ROOT" && ./mvnw -q -pl engine -am package -DskipTests) >&2
  ENGINE_JAR=$(ls "$ROOT"/engine/target/schedpolicy-engine-*.jar | grep -v -e sources -e tests | head -1)
fi
mkdir -p "$WORK/bundle"
(cd "$ROOT" && ./mvnw -q -pl engine dependency:copy-dependencies -DincludeScope=runtime \
  -DexcludeGroupIds=net.java.dev.jna,com.fasterxml.jackson.core -DoutputDirectory="$WORK/bundle") >&2
cp "$ENGINE_JAR" "$WORK/bundle/"

# 2. the compile classpath: the war's libraries and the plugins' jars
mkdir -p "$WORK/war" "$WORK/plugins"
# the servlet API is the container's (winstone, inside the war): provided, as in a Maven plugin build
(cd "$WORK/war" && jar xf "$WAR" WEB-INF/lib executable/winstone.jar)
[ -n "$(ls "$WORK/war/WEB-INF/lib/" 2>/dev/null)" ] || { echo "$WAR holds no WEB-INF/lib: not a Jenkins war" >&2; exit 2; }
JENKINS_VERSION=$(manifest_value "$WAR" Jenkins-Version)
[ -n "$JENKINS_VERSION" ] || JENKINS_VERSION=$(manifest_value "$WAR" Implementation-Version)
deps=()
for name in "${DEPENDS[@]}" "${COMPILE_ALSO[@]}"; do
  f=$(plugin_file "$name") || {
    case " ${DEPENDS[*]} " in *" $name "*) echo "plugin $name not found in $PLUGINS (needed: ${DEPENDS[*]})" >&2; exit 2;; esac
    continue; }
  mkdir -p "$WORK/plugins/$name" && (cd "$WORK/plugins/$name" && jar xf "$f" WEB-INF/lib)
  case " ${DEPENDS[*]} " in *" $name "*) deps+=("$name:$(manifest_value "$f" Plugin-Version)");; esac
done
CP=$(find "$WORK/war/WEB-INF/lib" "$WORK/war/executable" "$WORK/plugins" "$WORK/bundle" -name '*.jar' | sort | tr '\n' ':')

# 3. compile with the processors found on the classpath, then the jar as maven-hpi-plugin names it
mkdir -p "$WORK/classes"
# -parameters and -g as in Maven's build: Stapler takes a web method's parameter names from the class (MethodParameters,
# then the debug table) before its .stapler files, which javac's annotation rounds do not always write (compare-hpi.sh).
# the Messages classes of Messages.properties, as the plugin parent's localizer-maven-plugin generates them
python3 "$ROOT/plugin/live/localizer.py" "$ROOT/plugin/src/main/resources" "$WORK/localizer" >/dev/null
find "$ROOT/plugin/src/main/java" "$WORK/localizer" -name '*.java' | sort > "$WORK/sources.txt"
javac --release 17 -encoding UTF-8 -parameters -g -nowarn -d "$WORK/classes" -cp "$CP" -processorpath "$CP" \
  @"$WORK/sources.txt"
cp -R "$ROOT/plugin/src/main/resources/." "$WORK/classes/"
for index in META-INF/annotations/hudson.Extension META-INF/services/annotations/hudson.Extension; do
  [ -f "$WORK/classes/$index" ] && found_index=1
done
[ -n "${found_index:-}" ] || { echo "the @Extension index was not generated (SezPoz missing from $WAR?)" >&2; exit 1; }

VERSION=$(sed -n 's:.*<revision>\(.*\)</revision>.*:\1:p' "$ROOT/plugin/pom.xml" | head -1)
PLUGIN_VERSION="$VERSION-live-$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo local)"
cat > "$WORK/MANIFEST.MF" <<EOF
Group-Id: dev.schedpolicy
Artifact-Id: schedpolicy
Short-Name: schedpolicy
Long-Name: Sched Policy
Extension-Name: schedpolicy
Specification-Title: Sched Policy
Implementation-Title: schedpolicy
Implementation-Version: $PLUGIN_VERSION
Plugin-Version: $PLUGIN_VERSION
Jenkins-Version: $JENKINS_VERSION
Hudson-Version: $JENKINS_VERSION
Url: https://github.com/schedpolicy/schedpolicy
Plugin-Dependencies: $(IFS=,; echo "${deps[*]}")
EOF
# The plugin's own jar carries the plugin manifest too (as maven-hpi-plugin writes it): Jenkins' class
# filter (JEP-200) lets XStream save a plugin's classes only from a jar whose manifest names a plugin.
mkdir -p "$WORK/hpi/WEB-INF/lib"
jar cfm "$WORK/hpi/WEB-INF/lib/schedpolicy.jar" "$WORK/MANIFEST.MF" -C "$WORK/classes" .
cp "$WORK"/bundle/*.jar "$WORK/hpi/WEB-INF/lib/"
mkdir -p "$(dirname "$OUT")"
rm -f "$OUT"
jar cfm "$OUT" "$WORK/MANIFEST.MF" -C "$WORK/hpi" .
echo "$OUT (Plugin-Version $PLUGIN_VERSION, Jenkins-Version $JENKINS_VERSION, depends on ${deps[*]})" >&2
