package dev.schedpolicy.engine.agent;

import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Who may guard: an administrator's regular expression matched against a job's full name (the whole name, e.g.
 * {@code tests|team-a/.*}); blank lets nobody, the default. Guarding lowers other builds, so it is an administrator's
 * grant, never an author's claim; a build that asks without the grant runs as it would without asking.
 */
public final class GuardRule {
    private GuardRule() {
    }

    /** The pattern as stored: trimmed, null when blank; a pattern that does not compile is refused saying what is allowed. */
    public static String check(final String pattern) {
        return checked(pattern, "the jobs that may guard must be a Java regular expression matched against a job's full name,"
                + " e.g. 'tests|team-a/.*' (blank: no job)");
    }

    /** An administrator's pattern as stored (trimmed, null when blank); one that does not compile is refused with {@code rule}. */
    static String checked(final String pattern, final String rule) {
        if (pattern == null || pattern.isBlank()) {
            return null;
        }
        try {
            Pattern.compile(pattern.trim());
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(rule + "; '" + pattern.trim() + "' is not one: " + e.getDescription());
        }
        return pattern.trim();
    }

    /**
     * Empty when {@code job} may guard under {@code pattern}; otherwise the one console line that says why its body runs
     * unguarded. A pattern stored before it was checked and does not compile lets nobody.
     */
    public static Optional<String> refusal(final String pattern, final String job) {
        return refusal(pattern, job, "withSchedGuard", "the body runs as it would without the step");
    }

    /**
     * The same for any way of asking: {@code asker} as the user wrote or picked it (a step, a build wrapper) and what runs
     * instead, e.g. {@code the build runs as it would without it}.
     */
    public static Optional<String> refusal(final String pattern, final String job, final String asker, final String instead) {
        String p;
        try {
            p = check(pattern);
        } catch (IllegalArgumentException e) {
            return Optional.of(asker + ": not guarded, the administrator's pattern of jobs that may guard is not valid; "
                    + instead);
        }
        if (p != null && Pattern.compile(p).matcher(job).matches()) {
            return Optional.empty();
        }
        return Optional.of(asker + ": not guarded, job '" + job + "' is not among the jobs an administrator lets guard"
                + " (Manage Jenkins » System » Sched Policy); " + instead);
    }
}
