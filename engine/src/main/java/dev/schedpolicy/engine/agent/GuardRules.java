package dev.schedpolicy.engine.agent;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The administrator's rules that guard a launch with no Jenkinsfile change, and which of them guards it. A stage rule
 * ({@link GuardStageRule}) makes the innermost matching stage the guarded block; failing that, the whole-job rule (a
 * job's full name, matched whole) or the label rule (the launch's node matches the administrator's label expression,
 * which the Jenkins side evaluates) makes the whole build one guarded block. A node's own stage or whole-job rule
 * replaces the global one for launches on that node; blank there takes the global one. Every rule needs the grant
 * ({@link GuardRule}): a stage name is any author's pick, and a job's name is its creator's, so the one place that
 * says which jobs may guard at all stays the administrator's.
 *
 * @param grant         the jobs that may guard ({@link GuardRule}); null lets nobody
 * @param stages        the stage rule in force: the node's own when it has one, else the global one; null for none
 * @param wholeJobs     the whole-job rule in force, the same way; null for none
 * @param nodeStages    whether {@code stages} is the node's own
 * @param nodeWholeJobs whether {@code wholeJobs} is the node's own
 */
public record GuardRules(String grant, String stages, String wholeJobs, boolean nodeStages, boolean nodeWholeJobs) {
    /** Which rule guards a launch, as the build's records and the docs name it. */
    public enum Rule {
        /** The node's own stage rule. */
        NODE_STAGES,
        /** The global stage rule. */
        STAGES,
        /** The node's own whole-job rule. */
        NODE_WHOLE_JOBS,
        /** The global whole-job rule. */
        WHOLE_JOBS,
        /** The global label rule. */
        LABEL
    }

    /**
     * A launch the rules guard, and its block.
     *
     * @param rule  the rule that guards it
     * @param stage for a stage rule, the index of the guarding stage among the launch's stages (innermost first); empty
     *              when the block is the whole build
     */
    public record Guarding(Rule rule, OptionalInt stage) {
    }

    /** The global rules as stored. */
    public static GuardRules of(final String grant, final String stages, final String wholeJobs) {
        return new GuardRules(grant, blankToNull(stages), blankToNull(wholeJobs), false, false);
    }

    /** The whole-job pattern as stored: trimmed, null when blank; a pattern that does not compile is refused saying what is allowed. */
    public static String checkWholeJobs(final String pattern) {
        return GuardRule.checked(pattern, "the jobs whose every step runs guarded must be a Java regular expression matched"
                + " against a job's full name, e.g. 'tests|team-a/.*' (blank: no job)");
    }

    /** These rules for launches on a node whose own rules are {@code stages} and {@code wholeJobs} (blank: the global one). */
    public GuardRules onNode(final String ownStages, final String ownWholeJobs) {
        String s = blankToNull(ownStages);
        String w = blankToNull(ownWholeJobs);
        return new GuardRules(grant, s == null ? stages : s, w == null ? wholeJobs : w, s != null || nodeStages,
                w != null || nodeWholeJobs);
    }

    /** Whether a stage or whole-job rule is set; the label rule the caller knows of itself. */
    public boolean anyOn() {
        return stages != null || wholeJobs != null;
    }

    /** Whether the decision reads the launch's stages: only a stage rule does. */
    public boolean needsStages() {
        return stages != null;
    }

    /**
     * Which rule guards a launch of {@code job}, and its block; empty when none does or the job may not guard. A pattern
     * stored before it was checked and does not compile guards nothing.
     *
     * @param stages   the names of the stages around the launch, innermost first (empty: none, or not a Pipeline)
     * @param labelled whether the launch's node matches the administrator's label expression
     */
    public Optional<Guarding> guarding(final String job, final List<String> stages, final boolean labelled) {
        if (GuardRule.refusal(grant, job).isPresent()) {
            return Optional.empty();
        }
        OptionalInt stage = GuardStageRule.guardingStage(this.stages, grant, job, stages);
        if (stage.isPresent()) {
            return Optional.of(new Guarding(nodeStages ? Rule.NODE_STAGES : Rule.STAGES, stage));
        }
        if (matchesWhole(wholeJobs, job)) {
            return Optional.of(new Guarding(nodeWholeJobs ? Rule.NODE_WHOLE_JOBS : Rule.WHOLE_JOBS, OptionalInt.empty()));
        }
        return labelled ? Optional.of(new Guarding(Rule.LABEL, OptionalInt.empty())) : Optional.empty();
    }

    private static boolean matchesWhole(final String pattern, final String job) {
        try {
            String p = checkWholeJobs(pattern);
            return p != null && Pattern.compile(p).matcher(job).matches();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String blankToNull(final String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
