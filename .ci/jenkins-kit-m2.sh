#!/usr/bin/env bash
# Prepares the stand-in for repo.jenkins-ci.org on a machine without it (../shared/jenkins-m2, its README) for Maven and
# prints the path of a settings file that uses it:
#
#   ./mvnw -s "$(.ci/jenkins-kit-m2.sh)" -Pjenkins -Dbom.groupId=... -pl plugin -am verify   (see .ci/run)
#
# The kit reaches its war and .jpi files through relative symlinks; where the folder was copied without them,
# each such file holds only its link's target as text (42 bytes for the war), and Maven would cache that text as
# the artifact. Then this makes a copy under target/jenkins-kit-m2 with real links in their place, writes a
# settings file mirroring everything but Central to the copy, and drops such broken files from the local
# repository. With intact links it prints the kit's own settings.xml. Exits 1 with one line when there is no kit.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KIT=${JENKINS_M2:-$ROOT/../shared/jenkins-m2}
[ -f "$KIT/settings.xml" ] || { echo "jenkins-kit-m2: no Maven kit at $KIT" >&2; exit 1; }
KIT=$(cd "$KIT" && pwd)
is_pointer() { [ ! -L "$1" ] && [ "$(stat -c %s "$1")" -lt 512 ] && ! unzip -tqq "$1" >/dev/null 2>&1; }
war=$(find "$KIT" -path '*/jenkins-war/*' -name '*.war' | head -1)
if [ -z "$war" ] || ! is_pointer "$war"; then echo "$KIT/settings.xml"; exit 0; fi

COPY=$ROOT/target/jenkins-kit-m2
rm -rf "$COPY" && mkdir -p "$COPY"
(cd "$KIT" && find . -type d) | (cd "$COPY" && xargs mkdir -p)
(cd "$KIT" && find . -type f) | while read -r f; do
  src="$KIT/${f#./}"
  if [[ $f == *.war || $f == *.hpi || $f == *.jpi || $f == *.jar ]] && is_pointer "$src"; then
    target=$(realpath -m "$(dirname "$src")/$(cat "$src")")
    [ -f "$target" ] || { echo "jenkins-kit-m2: $f points to $target, which is missing" >&2; exit 1; }
    ln -s "$target" "$COPY/${f#./}"
  else
    ln -s "$src" "$COPY/${f#./}"
  fi
done
sed "s|file://\${maven.multiModuleProjectDirectory}/../shared/jenkins-m2|file://$COPY|" "$KIT/settings.xml" \
  >"$ROOT/target/jenkins-kit-settings.xml"
grep -q "file://$COPY" "$ROOT/target/jenkins-kit-settings.xml" \
  || { echo "jenkins-kit-m2: the kit's settings.xml has no mirror to rewrite" >&2; exit 1; }
# what an earlier build cached from the pointer files
LOCAL=${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}
if [ -d "$LOCAL" ]; then
  find "$LOCAL" -type f \( -name '*.war' -o -name '*.hpi' -o -name '*.jpi' \) -size -512c -print0 2>/dev/null |
    while IFS= read -r -d '' f; do is_pointer "$f" && rm -f "$f"; done
fi
echo "$ROOT/target/jenkins-kit-settings.xml"
