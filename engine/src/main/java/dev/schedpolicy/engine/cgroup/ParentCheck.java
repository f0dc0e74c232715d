package dev.schedpolicy.engine.cgroup;

import java.nio.file.Path;

/**
 * Whether child cpu groups can be created under a parent, found by trying (mkdir + rmdir of a scratch
 * child), not by reading permission bits.
 *
 * @param detail why not, in words with the fix; or a note on what creating a child will change
 */
public record ParentCheck(Path parent, boolean usable, String detail) {
    static ParentCheck usable(final Path parent, final String detail) {
        return new ParentCheck(parent, true, detail);
    }

    static ParentCheck unusable(final Path parent, final String detail) {
        return new ParentCheck(parent, false, detail);
    }
}
