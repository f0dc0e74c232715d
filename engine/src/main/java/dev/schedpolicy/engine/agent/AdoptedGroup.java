package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuCgroup;

import java.util.Optional;

/** Ends a block's group that another registry made (see {@link HandshakeRegistry#finishBlock(String, java.util.List)}). */
final class AdoptedGroup {
    private AdoptedGroup() {
    }

    /** Reads the group's usage, kills what is left inside and removes it; nothing when it is gone or not ours. */
    static UsageRecord end(final String cgroupPath) {
        Optional<CpuCgroup> adopted;
        try {
            adopted = CgroupSystem.detect().adopt(cgroupPath);
        } catch (CgroupException e) {
            return UsageRecord.NONE; // no cpu hierarchy here: nothing of ours can be there either
        }
        if (adopted.isEmpty()) {
            return UsageRecord.NONE;
        }
        try (CpuCgroup group = adopted.get()) {
            UsageRecord usage;
            try {
                usage = UsageRecord.of(group.usage());
            } catch (CgroupException e) {
                usage = new UsageRecord(1, 0, 0, 0, 0);
            }
            group.killAll();
            return usage;
        } catch (CgroupException e) {
            // left in place (still busy after the kill): the next sweep of an empty group of a dead creator takes it
            return UsageRecord.NONE;
        }
    }
}
