package dev.schedpolicy.engine.agent;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What an agent answers when the controller collects measured launches: the figures of those that ended, the ids of
 * those still running (asked again later), and for each one it has no figures of, why (evicted unread, unknown).
 */
public final class MeasureCollection implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final ArrayList<MeasureRecord> records;
    private final ArrayList<String> running;
    private final LinkedHashMap<String, String> lost;

    MeasureCollection(final List<MeasureRecord> records, final List<String> running, final Map<String, String> lost) {
        this.records = new ArrayList<>(records);
        this.running = new ArrayList<>(running);
        this.lost = new LinkedHashMap<>(lost);
    }

    public List<MeasureRecord> records() {
        return List.copyOf(records);
    }

    /** Launches whose processes still run: not collected, still measured. */
    public List<String> running() {
        return List.copyOf(running);
    }

    /** Launch id to why the agent has no figures for it. */
    public Map<String, String> lost() {
        return new LinkedHashMap<>(lost);
    }

    /**
     * Lost launches in one line per reason, so that a thousand evicted launches are one line on the build page: "N
     * launches on WHERE (the first LABEL): WHY", or "LABEL on WHERE: WHY" for one.
     */
    public static List<String> lostLines(final Map<String, String> lost, final Function<String, String> labelOf,
            final String where) {
        Map<String, List<String>> byReason = new LinkedHashMap<>();
        lost.forEach((id, why) -> byReason.computeIfAbsent(why, k -> new ArrayList<>()).add(id));
        List<String> lines = new ArrayList<>();
        byReason.forEach((why, ids) -> lines.add(ids.size() == 1 ? labelOf.apply(ids.get(0)) + " on " + where + ": " + why
                : ids.size() + " launches on " + where + " (the first " + labelOf.apply(ids.get(0)) + "): " + why));
        return lines;
    }
}
