package dev.schedpolicy.engine.agent;

import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The administrator's rule that guards without a Jenkinsfile change: a launch of a Pipeline step inside a stage whose
 * name the pattern finds (e.g. {@code (?i)test} finds "Unit tests") runs guarded, as in {@code withSchedGuard}, when its
 * job may guard too ({@link GuardRule}): both rules must allow, so a stage name, which any author picks, never grants
 * the guard to a job the administrator did not name. Blank: off, the default.
 */
public final class GuardStageRule {
    private GuardStageRule() {
    }

    /** The pattern as stored: trimmed, null when blank; a pattern that does not compile is refused saying what is allowed. */
    public static String check(final String pattern) {
        return GuardRule.checked(pattern, "the stages to guard must be a Java regular expression found in a stage's name,"
                + " e.g. '(?i)test' (blank: no stage)");
    }

    /**
     * Which of a launch's enclosing stages guards it: the innermost whose name {@code stagePattern} finds, when
     * {@code job} may guard under {@code jobPattern}; empty when none does. A pattern stored before it was checked and
     * does not compile guards nothing.
     *
     * @param stages the names of the stages around the launch, innermost first
     * @return the index in {@code stages} of the guarding stage
     */
    public static OptionalInt guardingStage(final String stagePattern, final String jobPattern, final String job,
            final List<String> stages) {
        Pattern p;
        try {
            String s = check(stagePattern);
            if (s == null || stages.isEmpty() || GuardRule.refusal(jobPattern, job).isPresent()) {
                return OptionalInt.empty();
            }
            p = Pattern.compile(s);
        } catch (IllegalArgumentException e) {
            return OptionalInt.empty();
        }
        for (int i = 0; i < stages.size(); i++) {
            if (p.matcher(stages.get(i)).find()) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }
}
