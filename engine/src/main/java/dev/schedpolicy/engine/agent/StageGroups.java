package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.proc.SchedStat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A build's measured launches by stage, in the order the build reached them: what its page shows when the build had
 * too many launches for a row each (a page of 5,000 rows is megabytes), each stage's rows one click away.
 */
public final class StageGroups {
    /** Launches a build page still lists one by one; above, it shows their stages. */
    public static final int ROWS_ON_BUILD_PAGE = 20;
    /** Stages a build page lists; the others are on the detail page. */
    public static final int STAGES_ON_BUILD_PAGE = 50;
    /** Launches per page of the detail page. */
    public static final int ROWS_PER_PAGE = 100;

    /**
     * One stage's launches together ("" for launches outside any stage).
     *
     * @param waitNanos     run-queue wait of those whose wait was measured
     * @param runnableNanos wait plus the CPU the samples saw, of those same launches
     */
    public record Group(String stage, int launches, long waitNanos, long runnableNanos, long cpuNanos) {
        /** Wait over runnable time in percent, one decimal; -1 when no launch of the stage had its wait measured. */
        public double waitSharePercent() {
            return runnableNanos <= 0 ? -1 : Math.round(1000.0 * SchedStat.waitShare(waitNanos, runnableNanos - waitNanos)) / 10.0;
        }
    }

    private StageGroups() {
    }

    public static List<Group> of(final List<LaunchTable.Row> rows) {
        Map<String, long[]> byStage = new LinkedHashMap<>();
        for (LaunchTable.Row row : rows) {
            long[] sums = byStage.computeIfAbsent(stageOf(row), k -> new long[4]);
            MeasureRecord r = row.record();
            sums[0]++;
            if (r.waitMeasured()) {
                sums[1] += r.waitNanos();
                sums[2] += r.waitNanos() + r.sampledCpuNanos();
            }
            sums[3] += r.cpuNanos();
        }
        List<Group> out = new ArrayList<>();
        byStage.forEach((stage, s) -> out.add(new Group(stage, (int) s[0], s[1], s[2], s[3])));
        return out;
    }

    /**
     * The launches of one stage ({@code stage} as {@code stageOf} gives it; null: of all stages), page {@code page} (from
     * 1) of {@link #ROWS_PER_PAGE}; a page past the end is empty.
     */
    public static <T> List<T> page(final List<T> launches, final Function<T, String> stageOf, final String stage,
            final int page) {
        List<T> mine = launches.stream().filter(l -> stage == null || stage.equals(stageOf.apply(l))).toList();
        int from = (Math.max(1, page) - 1) * ROWS_PER_PAGE;
        return from >= mine.size() ? List.of() : mine.subList(from, Math.min(mine.size(), from + ROWS_PER_PAGE));
    }

    /** Pages of {@link #ROWS_PER_PAGE} that one stage's launches fill (at least 1). */
    public static <T> int pages(final List<T> launches, final Function<T, String> stageOf, final String stage) {
        long n = launches.stream().filter(l -> stage == null || stage.equals(stageOf.apply(l))).count();
        return (int) Math.max(1, (n + ROWS_PER_PAGE - 1) / ROWS_PER_PAGE);
    }

    /** A launch's stage as the groups name it: "" outside any stage and in figures stored before stages were. */
    public static String stageOf(final LaunchTable.Row row) {
        return row.stage() == null ? "" : row.stage();
    }
}
