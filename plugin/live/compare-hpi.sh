#!/usr/bin/env bash
# Checks that two .hpi files of this plugin load the same in Jenkins: the one maven-hpi-plugin makes
# (plugin/target/schedpolicy.hpi) and the one build-hpi.sh packs without repo.jenkins-ci.org.
#
#   plugin/live/compare-hpi.sh A.hpi B.hpi
#
# Same means what Jenkins reads: the manifest attributes its plugin manager uses (name, Jenkins version, dependencies
# with their versions, class loading, dynamic loading, minimum Java), the same libraries in WEB-INF/lib (byte for byte
# but the plugin's own jar), and in the plugin's own jar the same entries (classes, Jelly views, help, indexes that
# @Extension and @Symbol generate, Stapler's parameter names: see below), resources byte for byte, classes with the same members
# (javap; debug tables may differ) and class file version, and a plugin manifest in that jar too (JEP-200 lets XStream
# save only classes from a jar that names its plugin). Differences allowed: Plugin-Version and the build's own attributes,
# and META-INF/maven (Maven's copy of the POM). One line per difference; exit 1 when there is one.
set -euo pipefail
[ $# -eq 2 ] && [ -f "$1" ] && [ -f "$2" ] || { echo "usage: $0 A.hpi B.hpi" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedpolicy-hpi-compare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
A=$(realpath "$1") B=$(realpath "$2")
mkdir -p "$WORK/a" "$WORK/b"
(cd "$WORK/a" && jar xf "$A")
(cd "$WORK/b" && jar xf "$B")

python3 - "$WORK/a" "$WORK/b" "$1" "$2" <<'PY'
import os, subprocess, sys, zipfile

a, b, name_a, name_b = sys.argv[1:5]
OWN = "WEB-INF/lib/schedpolicy.jar"
# what Jenkins' plugin manager reads from an .hpi's manifest (PluginWrapper, ClassicPluginStrategy)
LOADER_KEYS = ["Short-Name", "Long-Name", "Group-Id", "Artifact-Id", "Jenkins-Version", "Plugin-Class", "Mask-Classes",
               "Global-Mask-Classes", "PluginFirstClassLoader", "Support-Dynamic-Loading", "Minimum-Java-Version"]
differences = []

def manifest(text):
    attrs, last = {}, None
    for line in text.replace("\r", "").split("\n"):
        if line.startswith(" ") and last:
            attrs[last] += line[1:]
        elif ": " in line:
            last, value = line.split(": ", 1)
            attrs[last] = value
    return attrs

def deps(value):
    return set(filter(None, (value or "").split(",")))

def read(root, path):
    with open(os.path.join(root, path), "rb") as f:
        return f.read()

ma = manifest(read(a, "META-INF/MANIFEST.MF").decode())
mb = manifest(read(b, "META-INF/MANIFEST.MF").decode())
for key in LOADER_KEYS:
    if ma.get(key) != mb.get(key):
        differences.append(f"manifest {key}: {ma.get(key)!r} / {mb.get(key)!r}")
if deps(ma.get("Plugin-Dependencies")) != deps(mb.get("Plugin-Dependencies")):
    differences.append(f"manifest Plugin-Dependencies: {sorted(deps(ma.get('Plugin-Dependencies')) ^ deps(mb.get('Plugin-Dependencies')))} in one only")

libs = lambda root: sorted(os.listdir(os.path.join(root, "WEB-INF/lib")))
if libs(a) != libs(b):
    differences.append(f"WEB-INF/lib: {sorted(set(libs(a)) ^ set(libs(b)))} in one only")
for lib in sorted(set(libs(a)) & set(libs(b))):
    path = "WEB-INF/lib/" + lib
    if path != OWN:
        ja, jb = zipfile.ZipFile(os.path.join(a, path)), zipfile.ZipFile(os.path.join(b, path))
        content = lambda z: {i.filename: z.read(i) for i in z.infolist() if not i.is_dir()}
        if content(ja) != content(jb):
            differences.append(f"{path}: content differs")

za, zb = zipfile.ZipFile(os.path.join(a, OWN)), zipfile.ZipFile(os.path.join(b, OWN))
def entries(z):
    return {i.filename for i in z.infolist() if not i.is_dir() and i.filename != "META-INF/MANIFEST.MF"
            and not i.filename.startswith("META-INF/maven/")}
ea, eb = entries(za), entries(zb)
classes = sorted(e for e in ea & eb if e.endswith(".class"))
def javap(root, *args):
    return subprocess.run(["javap", "-cp", os.path.join(root, OWN), *args], capture_output=True, text=True, check=True).stdout
# A web method's parameter-name file (Class/Nested/method.stapler, from Stapler's @QueryParameter processor) is the last
# place Stapler looks, after the class's own MethodParameters (javac -parameters) and debug table. javac's annotation
# rounds do not always write it: two fresh Maven builds of the same sources, one had it for
# WithSchedPolicyStep.DescriptorImpl.doCheckPolicy and one did not. So where one side lacks such a file, the class
# must carry the names itself, on both sides.
def web_method_class(entry):
    owner = entry[:entry.rindex("/")]
    return next((c for c in classes if c[:-len(".class")].replace("$", "/") == owner), None)
for e in sorted(ea ^ eb):
    owner = web_method_class(e) if e.endswith(".stapler") else None
    if owner is None:
        differences.append(f"{OWN}: {e} only in {name_a if e in ea else name_b}")
        continue
    method = e[e.rindex("/") + 1:-len(".stapler")]
    for root, label in ((a, name_a), (b, name_b)):
        listing = javap(root, "-v", "-p", owner[:-len(".class")].replace("/", "."))
        block = next((m for m in listing.split("\n\n") if f" {method}(" in m), "")
        if "MethodParameters:" not in block:
            differences.append(f"{OWN}: {e} only in {name_a if e in ea else name_b}, and {label}'s class has no parameter names for {method}")
    ea.discard(e)
    eb.discard(e)
for e in sorted(ea & eb):
    if not e.endswith(".class") and za.read(e) != zb.read(e):
        differences.append(f"{OWN}: {e} differs")
for e in classes:
    va, vb = za.read(e)[6:8], zb.read(e)[6:8]
    if va != vb:
        differences.append(f"{OWN}: {e} class file version {int.from_bytes(va, 'big')} / {int.from_bytes(vb, 'big')}")
def members(root):
    # each class's members in name order: javac keeps the source's order, and the localizer writes a Messages class's
    # methods in its hash table's order, localizer.py in the keys' order; the order does not change what Jenkins loads
    blocks, current = [], []
    for line in javap(root, "-p", *[c[:-len(".class")].replace("/", ".") for c in classes]).splitlines():
        if line.startswith("  "):
            current.append(line)
        else:
            blocks.extend(sorted(current))
            current = []
            blocks.append(line)
    return blocks + sorted(current)
if members(a) != members(b):
    differences.append(f"{OWN}: the classes' members differ (javap -p)")
for root, label in ((za, name_a), (zb, name_b)):
    own = manifest(root.read("META-INF/MANIFEST.MF").decode())
    if own.get("Short-Name") != ma.get("Short-Name"):
        differences.append(f"{OWN} of {label}: its manifest names no plugin (Short-Name {own.get('Short-Name')!r})")

for d in differences:
    print("differs: " + d)
print(f"compare-hpi: {len(classes)} classes, {len(ea & eb) - len(classes)} other entries, {len(libs(a))} libraries, "
      f"{len(LOADER_KEYS) + 1} manifest attributes compared; {len(differences)} differences")
sys.exit(1 if differences else 0)
PY
