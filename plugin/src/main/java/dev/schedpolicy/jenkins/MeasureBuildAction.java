package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.MeasureRecord;
import hudson.model.Run;
import io.jenkins.plugins.util.AbstractXmlStream;
import io.jenkins.plugins.util.BuildAction;
import io.jenkins.plugins.util.JobAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * The build's measured launches: per launch its wait share, CPU, wall and neighbours (summary.jelly on the build page,
 * {@code api/json}); the job's trend is {@link MeasureJobAction}. Kept in its own file (schedpolicy-measure.xml).
 */
@ExportedBean
public class MeasureBuildAction extends BuildAction<MeasureResult> {
    private static final long serialVersionUID = 1L;
    static final String URL = "schedpolicy-measure";

    MeasureBuildAction(final Run<?, ?> owner, final MeasureResult result) {
        super(owner, result);
    }

    @Override
    protected AbstractXmlStream<MeasureResult> createXmlStream() {
        return new MeasureXmlStream();
    }

    @Override
    protected JobAction<? extends BuildAction<MeasureResult>> createProjectAction() {
        return new MeasureJobAction(getOwner().getParent());
    }

    @Override
    protected String getBuildResultBaseName() {
        return URL + ".xml";
    }

    /** {@code schedpolicy-measure/api/json} of the build. */
    public hudson.model.Api getApi() {
        return new hudson.model.Api(this);
    }

    /** The build's wait share over all measured launches in percent, -1 when none was measured. */
    @Exported
    public double getWaitSharePercent() {
        return getResult().combinedShare().map(s -> Math.round(s * 1000) / 10.0).orElse(-1.0);
    }

    /** As {@link #getWaitSharePercent()}, over the launches that ran without a lowered policy. */
    @Exported
    public double getUnloweredWaitSharePercent() {
        return getResult().unloweredShare().map(s -> Math.round(s * 1000) / 10.0).orElse(-1.0);
    }

    /**
     * Seconds the CPU quotas of the build's launches held them back (their groups' cpu.stat throttled time, not in the
     * wait share), -1 when no measured launch ran under a quota.
     */
    @Exported
    public double getThrottledSeconds() {
        List<MeasureRecord> quoted = getResult().getLaunches().stream().map(MeasureResult.Launch::getRecord)
                .filter(MeasureRecord::quotaApplied).toList();
        return quoted.isEmpty() ? -1 : seconds(quoted.stream().mapToLong(MeasureRecord::throttledNanos).sum());
    }

    static double seconds(final long nanos) {
        return Math.round(nanos / 1e7) / 100.0;
    }

    @Exported
    public List<Row> getLaunches() {
        List<Row> rows = new ArrayList<>();
        for (MeasureResult.Launch l : getResult().getLaunches()) {
            rows.add(new Row(l));
        }
        return rows;
    }

    /** The pages' view: rows when few, stages and a detail page when many. */
    public MeasurePage getPage() {
        return new MeasurePage(getResult());
    }

    @Exported
    public List<String> getMissing() {
        return getResult().getMissing();
    }

    /** Launches the agents would not measure, a line per reason ("3 launches in containers not measured: ..."). */
    @Exported
    public List<String> getNotMeasured() {
        return getResult().getNotMeasured();
    }

    /** One launch for the page and api/json. */
    @ExportedBean(defaultVisibility = 2)
    public static final class Row {
        private final MeasureResult.Launch launch;

        Row(final MeasureResult.Launch launch) {
            this.launch = launch;
        }

        private MeasureRecord r() {
            return launch.getRecord();
        }

        /** The launch as the agent recorded it and other launches name it: build, stage, step, policy. */
        @Exported
        public String getLabel() {
            return r().label();
        }

        /** The innermost stage the launch ran in; "" for none or not known (a freestyle build, an SCM checkout). */
        @Exported
        public String getStage() {
            return launch.where().stage();
        }

        /** The parallel branch it ran in when that is not its stage's own name; "" for none. */
        @Exported
        public String getBranch() {
            return launch.where().branch();
        }

        /** The step that launched it, e.g. {@code sh 'make -j8'}, {@code sh 'unit tests'} (its label), {@code Execute shell}. */
        @Exported
        public String getStep() {
            return launch.where().step().text();
        }

        /** What the page shows: stage, branch and step, e.g. {@code stage 'Test' › sh}; the label when none is known. */
        public String getWhere() {
            String where = launch.where().where();
            return where.isEmpty() ? r().label() : Messages.Measure_where(where, getPolicy());
        }

        @Exported
        public String getNode() {
            return FleetProbes.nameOf(launch.getNode());
        }

        @Exported
        public String getPolicy() {
            return launch.isLowered() ? launch.getPolicy() : Messages.Measure_noPolicy();
        }

        /** Percent, one decimal; -1 when the wait was not measured. */
        @Exported
        public double getWaitSharePercent() {
            return r().waitMeasured() ? Math.round(r().waitShare() * 1000) / 10.0 : -1;
        }

        @Exported
        public double getCpuSeconds() {
            return Math.round(r().cpuNanos() / 1e7) / 100.0;
        }

        @Exported
        public double getWaitSeconds() {
            return Math.round(Math.max(0, r().waitNanos()) / 1e7) / 100.0;
        }

        /** Seconds its CPU quota held it back (not in the wait), -1 when it ran under no quota. */
        @Exported
        public double getThrottledSeconds() {
            return r().quotaApplied() ? seconds(r().throttledNanos()) : -1;
        }

        @Exported
        public double getWallSeconds() {
            return Math.round(r().wallNanos() / 1e7) / 100.0;
        }

        /** Permille of the exact CPU the samples saw; -1 without an exact counter. */
        @Exported
        public long getCoveragePermille() {
            return r().coveragePermille();
        }

        /**
         * "label: N% of the wait", most first, then the machine's other processes; a neighbour of a job the viewer may
         * not read is "another build" ({@link Readers}).
         */
        @Exported
        public List<String> getNeighbours() {
            return getBeside().stream().map(part -> Messages.Measure_neighbour(part[1], part[0])).toList();
        }

        /**
         * The page's "Beside" cell, and the one list of the parts of the wait: per neighbour its part of the wait first,
         * which a reader scans for, then its name; the launches beyond those named together; the machine's other processes.
         */
        public List<String[]> getBeside() {
            List<String[]> out = new ArrayList<>();
            long wait = Math.max(1, r().waitNanos());
            for (MeasureRecord.Shown n : r().neighboursFor(Readers::mayRead)) {
                out.add(part(n.waitNanos(), wait, n.label()));
            }
            if (r().moreNeighbours() > 0) {
                String more = Messages.Measure_moreLaunches(Integer.toString(r().moreNeighbours()));
                out.add(part(r().moreNeighbourWaitNanos(), wait, more));
            }
            if (r().waitNanos() > 0) {
                out.add(part(r().otherWaitNanos(), wait, Messages.Measure_otherProcesses()));
            }
            return out;
        }

        private static String[] part(final long partNanos, final long waitNanos, final String who) {
            return new String[] {String.format(Locale.ROOT, "%.0f%%", 100.0 * partNanos / waitNanos), who};
        }

        /** Whether the launch ran in a container (a step of docker-workflow's inside), measured through its cgroup. */
        @Exported
        public boolean isInContainer() {
            return r().inContainer();
        }

        @Exported
        public String getSource() {
            return r().source();
        }

        @Exported
        public List<String> getNotes() {
            return r().notes();
        }

        @Exported
        public boolean isEnded() {
            return r().ended();
        }
    }

    @Override
    public String getIconFileName() {
        return null;
    }

    @Override
    public String getDisplayName() {
        return Messages.Page_measure();
    }

    @Override
    public String getUrlName() {
        return URL;
    }

    static final class MeasureXmlStream extends AbstractXmlStream<MeasureResult> {
        MeasureXmlStream() {
            super(MeasureResult.class);
        }

        @Override
        protected MeasureResult createDefaultValue() {
            MeasureResult r = new MeasureResult();
            r.missing(Messages.Measure_unreadable());
            return r;
        }
    }
}
