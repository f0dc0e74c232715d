#!/usr/bin/env python3
"""The Messages classes that the Jenkins plugin parent's localizer-maven-plugin generates, for build-hpi.sh (no Maven
there): for each Messages.properties under RESOURCES, a Messages.java in the same package under OUT, with the same
members (compare-hpi.sh compares them): per key K (dots and other non-identifier characters made '_'), String K(args)
and Localizable _K(args), one Object argument per {n} of the text.

    localizer.py RESOURCES OUT
"""
import pathlib
import re
import sys


def properties(text):
    """Key and value of each entry of a .properties file (comments, continuation lines, escapes)."""
    logical, pending = [], ""
    for line in text.splitlines():
        stripped = line.lstrip()
        if not pending and (not stripped or stripped[0] in "#!"):
            continue
        trailing = len(stripped) - len(stripped.rstrip("\\"))
        if trailing % 2:
            pending += stripped[:-1]
            continue
        logical.append(pending + stripped)
        pending = ""
    for entry in logical:
        m = re.match(r"((?:\\.|[^=:\s\\])+)\s*[=:\s]\s*(.*)$", entry)
        if m:
            key, value = m.group(1), m.group(2)
            unescape = lambda s: re.sub(r"\\u([0-9a-fA-F]{4})|\\(.)",
                                        lambda x: chr(int(x.group(1), 16)) if x.group(1) else x.group(2), s)
            yield unescape(key), unescape(value)


def java(package, entries):
    methods = []
    for key, value in sorted(entries, key=lambda e: e[0]):
        name = re.sub(r"[^A-Za-z0-9_]", "_", key)
        count = max((int(n) + 1 for n in re.findall(r"\{(\d+)", value)), default=0)
        params = ", ".join(f"Object arg{i}" for i in range(count))
        args = "".join(f", arg{i}" for i in range(count))
        methods.append(f"    public static String {name}({params}) {{\n"
                       f"        return holder.format(\"{key}\"{args});\n    }}\n\n"
                       f"    public static Localizable _{name}({params}) {{\n"
                       f"        return new Localizable(holder, \"{key}\"{args});\n    }}\n")
    return (f"// CHECKSTYLE:OFF\npackage {package};\n\n"
            "import org.jvnet.localizer.Localizable;\nimport org.jvnet.localizer.ResourceBundleHolder;\n\n"
            "@SuppressWarnings(\"all\")\n@org.kohsuke.accmod.Restricted(org.kohsuke.accmod.restrictions.NoExternalUse.class)\n"
            "public class Messages {\n"
            "    private final static ResourceBundleHolder holder = ResourceBundleHolder.get(Messages.class);\n\n"
            + "\n".join(methods) + "}\n")


def main(resources, out):
    root = pathlib.Path(resources)
    for source in sorted(root.rglob("Messages.properties")):
        package = ".".join(source.parent.relative_to(root).parts)
        target = pathlib.Path(out, *source.parent.relative_to(root).parts, "Messages.java")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(java(package, list(properties(source.read_text(encoding="iso-8859-1")))), encoding="utf-8")
        print(target)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
