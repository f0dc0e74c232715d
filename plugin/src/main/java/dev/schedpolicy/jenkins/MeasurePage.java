package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.LaunchTable;
import dev.schedpolicy.engine.agent.StageGroups;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.kohsuke.stapler.Stapler;
import org.kohsuke.stapler.StaplerRequest2;

/**
 * What the pages show of a build's measured launches: a row each when they are few; when they are many
 * ({@link StageGroups#ROWS_ON_BUILD_PAGE}), the build page shows their stages and each stage's rows are one click away,
 * {@link StageGroups#ROWS_PER_PAGE} a page, so that a build of thousands of steps keeps a page of kilobytes.
 */
public final class MeasurePage {
    private final List<MeasureResult.Launch> launches;
    private final List<LaunchTable.Row> rows;

    MeasurePage(final MeasureResult result) {
        this.launches = result.getLaunches();
        this.rows = result.rows();
    }

    /** Whether the build page lists stages rather than launches. */
    public boolean isGrouped() {
        return launches.size() > StageGroups.ROWS_ON_BUILD_PAGE;
    }

    /** The stages the build page lists, in build order. */
    public List<Stage> getStages() {
        List<Stage> out = new ArrayList<>();
        for (StageGroups.Group g : StageGroups.of(rows)) {
            if (out.size() == StageGroups.STAGES_ON_BUILD_PAGE) {
                break;
            }
            out.add(new Stage(g));
        }
        return out;
    }

    /** Stages not on the build page (on the detail page, under "all launches"). */
    public int getMoreStages() {
        return Math.max(0, StageGroups.of(rows).size() - StageGroups.STAGES_ON_BUILD_PAGE);
    }

    /** The detail page's launches: of the request's {@code ?stage=} (all without), its {@code ?page=} (from 1). */
    public Detail getDetail() {
        StaplerRequest2 req = Stapler.getCurrentRequest2();
        String stage = req == null ? null : req.getParameter("stage");
        int page = 1;
        try {
            page = req == null || req.getParameter("page") == null ? 1 : Math.max(1, Integer.parseInt(req.getParameter("page")));
        } catch (NumberFormatException e) {
            page = 1;
        }
        return new Detail(stage, page);
    }

    private static String stageOf(final MeasureResult.Launch l) {
        String s = l.where().stage();
        return s == null ? "" : s;
    }

    static String query(final String stage, final int page) {
        String q = stage == null ? "" : "stage=" + URLEncoder.encode(stage, StandardCharsets.UTF_8);
        if (page > 1) {
            q += (q.isEmpty() ? "" : "&") + "page=" + page;
        }
        return "?" + q;
    }

    /** One stage's launches together on the build page. */
    public static final class Stage {
        private final StageGroups.Group group;

        Stage(final StageGroups.Group group) {
            this.group = group;
        }

        public String getName() {
            return group.stage().isEmpty() ? Messages.Measure_outsideStages() : Messages.Measure_stage(group.stage());
        }

        public int getLaunches() {
            return group.launches();
        }

        /** Percent, one decimal; -1 when none of its launches had its wait measured. */
        public double getWaitSharePercent() {
            return group.waitSharePercent();
        }

        public double getCpuSeconds() {
            return Math.round(group.cpuNanos() / 1e7) / 100.0;
        }

        /** The detail page's query for this stage's launches. */
        public String getQuery() {
            return query(group.stage(), 1);
        }
    }

    /** One page of one stage's launches (or of all). */
    public final class Detail {
        private final String stage;
        private final int page;
        private final int pages;

        Detail(final String stage, final int page) {
            this.stage = stage;
            Function<MeasureResult.Launch, String> of = MeasurePage::stageOf;
            this.pages = StageGroups.pages(launches, of, stage);
            this.page = Math.min(page, pages);
        }

        public String getTitle() {
            return stage == null ? Messages.Measure_allLaunches()
                    : stage.isEmpty() ? Messages.Measure_launchesOutsideStages() : Messages.Measure_stageTitle(stage);
        }

        public List<MeasureBuildAction.Row> getRows() {
            List<MeasureBuildAction.Row> out = new ArrayList<>();
            for (MeasureResult.Launch l : StageGroups.page(launches, MeasurePage::stageOf, stage, page)) {
                out.add(new MeasureBuildAction.Row(l));
            }
            return out;
        }

        public int getPage() {
            return page;
        }

        public int getPages() {
            return pages;
        }

        public String getPreviousQuery() {
            return query(stage, page - 1);
        }

        public String getNextQuery() {
            return query(stage, page + 1);
        }
    }
}
