package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.KernelRelease;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Which launches a leak run makes, for any total: a tenth SIGKILLed mid-flight, a tenth with a missing
 * command, a twentieth whose engine JVM is SIGKILLed (while the command runs or while it is parked), the rest
 * spread over the other ways a launch ends. Each kind cycles through the policy variants (no cgroup, quota,
 * cpu-idle group), and the order is shuffled with a fixed seed so that kinds interleave reproducibly.
 */
final class LeakPlan {
    /** How one launch ends. */
    enum Kind {
        THREAD_RUN_TO_END,
        THREAD_DESTROY_TREE,
        THREAD_DESTROY_FORCIBLY,
        THREAD_COMMAND_NOT_FOUND,
        PARK_RUN_TO_END,
        PARK_KILL_TREE_AFTER_RELEASE,
        PARK_DESTROY_FORCIBLY_AFTER_RELEASE,
        PARK_COMMAND_NOT_FOUND,
        PARK_ABORT_BEFORE_START,
        PARK_ABORT_WHILE_PARKED,
        PARK_KILLED_WHILE_PARKED,
        PARK_PREFIX_DROPPED,
        ENGINE_KILLED_WHILE_THREAD_LAUNCH_RUNS,
        ENGINE_KILLED_WHILE_RELEASED_LAUNCH_RUNS,
        ENGINE_KILLED_WHILE_PARKED;

        boolean sigkillMidFlight() {
            return this == THREAD_DESTROY_TREE || this == THREAD_DESTROY_FORCIBLY || this == PARK_KILL_TREE_AFTER_RELEASE
                    || this == PARK_DESTROY_FORCIBLY_AFTER_RELEASE;
        }

        boolean missingCommand() {
            return this == THREAD_COMMAND_NOT_FOUND || this == PARK_COMMAND_NOT_FOUND;
        }

        boolean engineKilled() {
            return name().startsWith("ENGINE_KILLED");
        }
    }

    /** One launch: its kind and the policy suffix selecting the cgroup variant. */
    record Launch(Kind kind, String groupPart) {
    }

    static final String[] GROUP_PARTS = {"", "+quota50", "+" + KernelRelease.idleGroupPart()};

    private LeakPlan() {
    }

    static List<Launch> of(final int total) {
        Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
        spread(counts, total / 10, Kind.values(), Kind::sigkillMidFlight);
        spread(counts, total / 10, Kind.values(), Kind::missingCommand);
        spread(counts, total / 20, Kind.values(), Kind::engineKilled);
        int rest = total - counts.values().stream().mapToInt(Integer::intValue).sum();
        spread(counts, rest, Kind.values(), k -> !k.sigkillMidFlight() && !k.missingCommand() && !k.engineKilled());
        List<Launch> plan = new ArrayList<>();
        counts.forEach((kind, n) -> {
            for (int i = 0; i < n; i++) {
                plan.add(new Launch(kind, GROUP_PARTS[i % GROUP_PARTS.length]));
            }
        });
        Collections.shuffle(plan, new Random(20261123));
        return plan;
    }

    private static void spread(final Map<Kind, Integer> counts, final int n, final Kind[] all,
            final java.util.function.Predicate<Kind> which) {
        List<Kind> kinds = new ArrayList<>();
        for (Kind k : all) {
            if (which.test(k)) {
                kinds.add(k);
            }
        }
        for (int i = 0; i < n; i++) {
            counts.merge(kinds.get(i % kinds.size()), 1, Integer::sum);
        }
    }
}
