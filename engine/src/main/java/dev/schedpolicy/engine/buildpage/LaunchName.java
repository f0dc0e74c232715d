package dev.schedpolicy.engine.buildpage;

import java.util.Objects;

/**
 * How a measured launch is named to a reader: its build, where in the build it ran (stage, parallel branch, step) and
 * its policy, e.g. {@code compile #212 › stage 'Build' › sh 'make -j8' (idle)}. The controller fills it from what it
 * knows (a Pipeline's flow graph, a freestyle build step) and hands {@link #text()} to the agent, which keeps it as an
 * opaque string; the build page shows {@link #where()} in its own rows, where the build goes without saying, and
 * only there the step's script or label.
 * Each part is cut to a few words so that a neighbour list stays readable.
 *
 * @param build  the build, e.g. {@code compile #212}; required
 * @param stage  the innermost enclosing stage, or "" for none
 * @param branch the parallel branch the step ran in, when it is not the stage's own name, or ""
 * @param step   the step, {@link Step#NONE} when not known
 * @param policy the launch's policy; blank or {@code normal} read {@code no policy}
 */
public record LaunchName(String build, String stage, String branch, Step step, String policy) {
    static final int BUILD_MAX = 32;
    static final int STAGE_MAX = 24;
    static final int DETAIL_MAX = 20;
    private static final String SEP = " › ";

    public LaunchName {
        Objects.requireNonNull(build, "build");
        build = cutStart(oneLine(build), BUILD_MAX);
        stage = cut(oneLine(stage), STAGE_MAX);
        branch = cut(oneLine(branch), STAGE_MAX);
        branch = branch.equals(stage) ? "" : branch;
        step = step == null ? Step.NONE : step;
        policy = policy == null || policy.isBlank() || "normal".equals(policy) ? "no policy" : policy;
    }

    /** A launch outside any build that the controller can name. */
    public static LaunchName outsideBuild(final String policy) {
        return new LaunchName("a launch outside a build", "", "", Step.NONE, policy);
    }

    /** Stage, branch and step, as far as known: {@code stage 'Test' › sh 'make'}; "" when nothing is known. */
    public String where() {
        return where(step.text());
    }

    /** Stage, branch and the step as given. */
    private String where(final String stepText) {
        StringBuilder b = new StringBuilder();
        if (!stage.isEmpty()) {
            b.append("stage '").append(stage).append('\'');
        }
        if (!branch.isEmpty()) {
            b.append(b.isEmpty() ? "" : SEP).append("branch '").append(branch).append('\'');
        }
        if (!stepText.isEmpty()) {
            b.append(b.isEmpty() ? "" : SEP).append(stepText);
        }
        return b.toString();
    }

    /**
     * The name other builds' pages show when they list this launch as a neighbour, as the agent records it:
     * {@code m-heavy #1 › stage 'Heavy' › sh (no policy)}. The step goes by its function name only: a reader of the
     * build it ran beside may not read this job, and a script's first words can hold what its author would not show
     * them (a URL, a user name, a secret put into the script by Groovy interpolation).
     */
    public String text() {
        String where = where(step.function());
        return build + (where.isEmpty() ? "" : SEP + where) + " (" + policy + ")";
    }

    /**
     * A step as the build page shows it and as other builds' pages name it, both known where the step is: from a
     * Pipeline's flow node or a freestyle build step ({@link #of}). A build keeps only the text, so a step read back from
     * its figures ({@link #shown}) has no function, and names no step to other builds.
     *
     * @param function its function name ({@code sh}) or a freestyle build step's name ({@code Execute shell}); "" when
     *                 the step is known only by its label or argument, or only by its text
     * @param text     as the build page shows it: the function and the label or first argument, {@code sh 'make -j8'}
     */
    public record Step(String function, String text) {
        /** A step not known. */
        public static final Step NONE = new Step("", "");

        public Step {
            function = function == null ? "" : function;
            text = text == null ? "" : text;
        }

        /**
         * A step as a reader recognises it: its function name and, when it has one, its label or first argument (a
         * {@code sh} step's script), first line only, cut: {@code sh 'make -j8'}, {@code sh 'unit tests'}, {@code sh}.
         */
        public static Step of(final String function, final String detail) {
            String f = oneLine(function);
            String d = cut(oneLine(detail), DETAIL_MAX);
            if (f.isEmpty()) {
                return new Step("", d.isEmpty() ? "" : "'" + d + "'");
            }
            return new Step(f, d.isEmpty() ? f : f + " '" + d + "'");
        }

        /** A step read back from a build's figures, which keep what its own page shows: {@code sh 'make -j8'}. */
        public static Step shown(final String text) {
            return new Step("", text);
        }
    }

    /** The first non-blank line, blanks collapsed: a script's first command is what a reader recognises. */
    private static String oneLine(final String s) {
        if (s == null) {
            return "";
        }
        for (String line : s.strip().split("\\R")) {
            if (!line.isBlank()) {
                return line.strip().replaceAll("\\s+", " ");
            }
        }
        return "";
    }

    /** At most {@code max} characters: at the last word that fits when that keeps at least half, else mid-word. */
    private static String cut(final String s, final int max) {
        if (s.length() <= max) {
            return s;
        }
        String head = s.substring(0, max - 1);
        int space = head.lastIndexOf(' ');
        return (space >= max / 2 ? head.substring(0, space) : head).stripTrailing() + "…";
    }

    /** A job's full name keeps its end, which tells jobs of one folder apart: {@code …/team/compile #212}. */
    private static String cutStart(final String s, final int max) {
        return s.length() <= max ? s : "…" + s.substring(s.length() - (max - 1)).stripLeading();
    }
}
