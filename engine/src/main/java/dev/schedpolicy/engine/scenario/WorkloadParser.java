package dev.schedpolicy.engine.scenario;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Reads a {@code [victim]} or {@code [background]} section: a built-in workload with its parameters, or a command. */
final class WorkloadParser {
    private WorkloadParser() {
    }

    static WorkloadSpec workload(final String file, final Map<String, ScenarioEntry> entries, final boolean victimSide) {
        if (entries == null) {
            return WorkloadSpec.NONE;
        }
        ScenarioEntry workload = entries.get("workload");
        ScenarioEntry command = entries.get("command");
        String side = victimSide ? "[victim]" : "[background]";
        if (workload != null && command != null) {
            throw ScenarioEntry.error(file, command, side + " sets both 'workload' and 'command'; choose one");
        }
        int perLoad = 0;
        ScenarioEntry perLoadEntry = entries.get("per-load");
        if (perLoadEntry != null) {
            if (victimSide) {
                throw ScenarioEntry.error(file, perLoadEntry, "'per-load' belongs to [background]");
            }
            perLoad = perLoadEntry.value().equalsIgnoreCase("ncpu") ? 0 : ScenarioEntry.intValue(file, perLoadEntry, 1, 1, 64);
        }
        if (command != null) {
            if (command.value().isEmpty()) {
                throw ScenarioEntry.error(file, command, "command is empty");
            }
            for (String k : List.of("workers", "copies", "pin", "period-ms", "work-share", "wakeups", "classes", "forks")) {
                if (entries.containsKey(k)) {
                    throw ScenarioEntry.error(file, entries.get(k), "'" + k + "' applies to built-in workloads, not to a command");
                }
            }
            return WorkloadSpec.command(command.value(), perLoad == 0 && perLoadEntry == null ? 1 : perLoad);
        }
        if (workload == null) {
            throw new ScenarioException(file, entries.values().stream().mapToInt(ScenarioEntry::line).min().orElse(1), 1,
                    side + " needs 'workload' (" + Builtin.ids(victimSide) + ", or none) or 'command'");
        }
        if (workload.value().equalsIgnoreCase("none")) {
            return WorkloadSpec.NONE;
        }
        Builtin builtin = Builtin.byId(workload.value()).orElseThrow(() -> ScenarioEntry.error(file, workload,
                "unknown workload '" + workload.value() + "'; " + side + " takes " + Builtin.ids(victimSide)));
        if (builtin.isVictim() != victimSide) {
            throw ScenarioEntry.error(file, workload, "'" + builtin.id() + "' " + (victimSide
                    ? "runs forever and cannot be a victim; victims: " + Builtin.ids(true)
                    : "is a fixed-work victim, not a background load; backgrounds: " + Builtin.ids(false)));
        }
        int workers = ScenarioEntry.intValue(file, entries.get("workers"), 1, 1, 256);
        int copies = ScenarioEntry.intValue(file, entries.get("copies"), 1, 1, 64);
        boolean pin = false;
        ScenarioEntry pinEntry = entries.get("pin");
        if (pinEntry != null) {
            switch (pinEntry.value().toLowerCase(Locale.ROOT)) {
                case "none" -> pin = false;
                case "per-copy" -> pin = true;
                default -> throw ScenarioEntry.error(file, pinEntry, "pin must be 'none' or 'per-copy', not '" + pinEntry.value() + "'");
            }
        }
        Map<String, String> params = new TreeMap<>();
        ScenarioEntry period = entries.get("period-ms");
        ScenarioEntry share = entries.get("work-share");
        ScenarioEntry wakeups = entries.get("wakeups");
        boolean periodic = builtin == Builtin.PERIODIC || builtin == Builtin.CYCLICTEST;
        for (ScenarioEntry e : new ScenarioEntry[] {period, share, wakeups}) {
            if (e != null && !periodic) {
                throw ScenarioEntry.error(file, e, "period-ms, work-share and wakeups apply to the periodic and cyclictest workloads only");
            }
        }
        if (period != null) {
            params.put("period-ms", Integer.toString(ScenarioEntry.intValue(file, period, 100, 1, 10_000)));
        }
        if (wakeups != null) {
            params.put("wakeups", Integer.toString(ScenarioEntry.intValue(file, wakeups, 10_000, 10, 10_000_000)));
        }
        if (share != null) {
            double v = ScenarioEntry.doubleValue(file, share, share.value(), share.valueColumn());
            if (v <= 0 || v >= 1) {
                throw ScenarioEntry.error(file, share, "work-share is the busy fraction of each period, between 0 and 1 exclusive");
            }
            params.put("work-share", share.value());
        }
        onlyFor(file, entries.get("classes"), builtin, Builtin.COMPILE_LOOP, 5, 2000, params);
        onlyFor(file, entries.get("forks"), builtin, Builtin.TEST_JOB, 0, 1000, params);
        return new WorkloadSpec(builtin, null, workers, params, copies, pin, perLoad);
    }

    /** A whole-number key that only one built-in workload takes. */
    private static void onlyFor(final String file, final ScenarioEntry e, final Builtin builtin, final Builtin owner, final int min,
            final int max, final Map<String, String> params) {
        if (e == null) {
            return;
        }
        if (builtin != owner) {
            throw ScenarioEntry.error(file, e, "'" + e.key() + "' applies to the " + owner.id() + " workload only");
        }
        params.put(e.key(), Integer.toString(ScenarioEntry.intValue(file, e, min, min, max)));
    }
}
