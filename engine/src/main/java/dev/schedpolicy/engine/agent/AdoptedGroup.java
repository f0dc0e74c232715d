package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuCgroup;

import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** Ends a block's group that another registry made (see {@link HandshakeRegistry#finishBlock(String, java.util.List)}). */
final class AdoptedGroup {
    private AdoptedGroup() {
    }

    /**
     * Reads the group's usage, kills what is left inside and removes it; nothing when it is gone or not ours. A group
     * still busy after the kill is handed to {@code stillBusy}: a supplier that removes it once empty (true when gone).
     */
    static UsageRecord end(final String cgroupPath, final Consumer<BooleanSupplier> stillBusy) {
        Optional<CpuCgroup> adopted;
        try {
            adopted = CgroupSystem.detect().adopt(cgroupPath);
        } catch (CgroupException e) {
            return UsageRecord.NONE; // no cpu hierarchy here: nothing of ours can be there either
        }
        if (adopted.isEmpty()) {
            return UsageRecord.NONE;
        }
        CpuCgroup group = adopted.get();
        UsageRecord usage;
        try {
            usage = UsageRecord.of(group.usage());
        } catch (CgroupException e) {
            usage = new UsageRecord(1, 0, 0, 0, 0);
        }
        try {
            group.killAll();
            group.close();
        } catch (CgroupException e) {
            // its maker may live on (an agent JVM across a reconnect), so the sweep of dead makers' groups may never
            // take it: the caller's reaper does, once it is empty
            stillBusy.accept(group::removeIfEmpty);
        }
        return usage;
    }
}
