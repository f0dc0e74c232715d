package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Label;
import hudson.model.Node;

/**
 * The administrator's label rule ({@link SchedPolicyConfiguration#getGuardLabel()}): a Jenkins label expression, as in a
 * job's <i>Restrict where this project can be run</i>, matched against the node a launch runs on (its labels and its
 * name). Jenkins' own parser reads it; the engine's {@code GuardRules} takes the answer.
 */
final class GuardLabels {
    /** The last expression parsed and its label: the rule is read at every launch, and changes rarely. */
    private static volatile Parsed last;

    private record Parsed(String expression, Label label) {
    }

    private GuardLabels() {
    }

    /** The expression as stored: trimmed, null when blank; one Jenkins cannot parse is refused saying what is allowed. */
    @CheckForNull
    static String check(@CheckForNull final String expression) {
        String e = PolicyFields.blankToNull(expression);
        if (e == null) {
            return null;
        }
        try {
            Label.parseExpression(e.trim());
        } catch (IllegalArgumentException ex) {
            // the parser's words are in the message; its exception would be the root cause JCasC reports instead
            throw new IllegalArgumentException(Messages.Form_guardLabelInvalid(e.trim(), ex.getMessage()));
        }
        return e.trim();
    }

    /** Whether {@code node} matches {@code expression}; false for none, and for one stored before it was checked. */
    static boolean matches(@CheckForNull final String expression, @CheckForNull final Node node) {
        if (expression == null || node == null) {
            return false;
        }
        Parsed p = last;
        if (p == null || !p.expression().equals(expression)) {
            try {
                p = new Parsed(expression, Label.parseExpression(expression));
            } catch (IllegalArgumentException e) {
                return false;
            }
            last = p;
        }
        return p.label().matches(node);
    }
}
