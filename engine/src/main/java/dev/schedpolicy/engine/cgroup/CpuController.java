package dev.schedpolicy.engine.cgroup;

import java.nio.file.Path;
import java.util.Optional;

/** What differs between the v1 cpu controller and the v2 one; everything else is shared in CpuCgroup. */
interface CpuController {
    CgroupVersion version();

    /** Why children with cpu limits cannot be made under this parent, in words; empty when nothing is known
     *  to stop it. Reads only. */
    Optional<String> parentProblem(Path parent);

    /** Makes the parent hand the cpu controller down to new children. */
    void prepareParent(Path parent);

    /** A control file whose presence in a new child proves the cpu controller is active there. */
    String proofFile();

    void apply(Path group, CpuLimits limits);

    CpuLimits read(Path group);

    void placeThread(Path group, long tid);

    CgroupUsage usage(Path group, Optional<Path> accountingGroup);
}
