package dev.schedpolicy.engine.launch;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The launches this JVM started with {@link PolicyThreadLauncher} and has not closed, ended by a shutdown hook when
 * the JVM exits normally or on SIGTERM, SIGINT or SIGHUP. Without it, a library user's JVM that stopped (a test
 * JVM, a service) left its policed children running and their cgroups in place: nothing else knows they were its.
 * At shutdown a launch whose process still runs is killed with its descendants and its group removed
 * ({@link PolicedProcess#destroyTree()}); one whose process has exited has its group removed, with anything left
 * inside it. SIGKILL runs no hook: then the children run on under their policy, and the next engine start removes
 * their groups once they are empty (docs/architecture.md). Launches made for Jenkins (park and release on an agent)
 * are not here: durable-task owns those processes, and they must outlive an agent restart.
 */
final class OwnedLaunches {
    private static final Set<PolicedProcess> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOKED = new AtomicBoolean();

    private OwnedLaunches() {
    }

    static PolicedProcess own(final PolicedProcess launch) {
        if (HOOKED.compareAndSet(false, true)) {
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(OwnedLaunches::endAll, "schedpolicy-shutdown"));
            } catch (IllegalStateException shuttingDown) {
                // a launch made while the JVM is already stopping: no hook can be added any more, the next start sweeps
            }
        }
        OPEN.add(launch);
        if (!launch.hasGroup()) {
            // with no group there is nothing to remove once the process is gone, so it is dropped by itself
            launch.process().onExit().thenRun(() -> OPEN.remove(launch));
        }
        return launch;
    }

    static void closed(final PolicedProcess launch) {
        OPEN.remove(launch);
    }

    /** How many launches are still owned (tests). */
    static int count() {
        return OPEN.size();
    }

    static void endAll() {
        for (PolicedProcess launch : List.copyOf(OPEN)) {
            try {
                if (launch.process().isAlive()) {
                    launch.destroyTree();
                } else {
                    launch.close();
                }
            } catch (RuntimeException e) {
                // the JVM is going away; what could not be removed here is swept by the next start
                System.err.println("schedpolicy: at shutdown, pid " + launch.pid() + ": " + e.getMessage());
            }
        }
    }
}
