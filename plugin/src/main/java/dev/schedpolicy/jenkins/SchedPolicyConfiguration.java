package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AgentLimits;
import dev.schedpolicy.engine.agent.PolicyForms;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.ExtensionList;
import hudson.util.FormValidation;
import jenkins.model.GlobalConfiguration;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.verb.POST;

/**
 * Global default policy (applied to every launch on nodes without their own
 * {@link SchedPolicyNodeProperty}) and the administrator's limits on what Pipeline authors may ask
 * for. JCasC: {@code unclassified: schedPolicy: {defaultPolicy: "batch+nice10+warn", allowCgroups: false}}.
 */
@Extension
@Symbol("schedPolicy")
public class SchedPolicyConfiguration extends GlobalConfiguration {
    static final int DEFAULT_TIMEOUT_SECONDS = 30;

    private String defaultPolicy;
    private boolean allowRaise;
    private int minNice;
    private boolean allowCgroups = true;
    private int maxQuotaPercent;
    private int handshakeTimeoutSeconds = DEFAULT_TIMEOUT_SECONDS;

    public SchedPolicyConfiguration() {
        load();
    }

    public static SchedPolicyConfiguration get() {
        return ExtensionList.lookupSingleton(SchedPolicyConfiguration.class);
    }

    public String getDefaultPolicy() {
        return defaultPolicy;
    }

    /** A compact policy for every launch on every node without a node property; blank for none. */
    @DataBoundSetter
    public void setDefaultPolicy(final String value) {
        String v = PolicyFields.blankToNull(value);
        this.defaultPolicy = v == null ? null : canonical(v);
        save();
    }

    public boolean isAllowRaise() {
        return allowRaise;
    }

    @DataBoundSetter
    public void setAllowRaise(final boolean value) {
        this.allowRaise = value;
        save();
    }

    public int getMinNice() {
        return minNice;
    }

    @DataBoundSetter
    public void setMinNice(final int value) {
        this.minNice = value;
        save();
    }

    public boolean isAllowCgroups() {
        return allowCgroups;
    }

    @DataBoundSetter
    public void setAllowCgroups(final boolean value) {
        this.allowCgroups = value;
        save();
    }

    public int getMaxQuotaPercent() {
        return maxQuotaPercent;
    }

    @DataBoundSetter
    public void setMaxQuotaPercent(final int value) {
        this.maxQuotaPercent = value;
        save();
    }

    public int getHandshakeTimeoutSeconds() {
        return handshakeTimeoutSeconds > 0 ? handshakeTimeoutSeconds : DEFAULT_TIMEOUT_SECONDS;
    }

    @DataBoundSetter
    public void setHandshakeTimeoutSeconds(final int value) {
        if (value < 1 || value > 600) {
            throw new IllegalArgumentException("handshake timeout must be 1..600 seconds, not " + value);
        }
        this.handshakeTimeoutSeconds = value;
        save();
    }

    /** The limits as the engine takes them; the engine validates the combination (e.g. negative nice needs allowRaise). */
    public AgentLimits toLimits() {
        try {
            return new AgentLimits(allowRaise, minNice, allowCgroups, maxQuotaPercent);
        } catch (InvalidPolicyException e) {
            throw new IllegalStateException("Sched Policy global limits are inconsistent: " + e.getMessage(), e);
        }
    }

    static String canonical(final String compact) {
        try {
            return PolicyForms.canonical(compact);
        } catch (InvalidPolicyException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @POST
    public FormValidation doCheckDefaultPolicy(@QueryParameter final String value) {
        return SchedPolicyNodeProperty.checkPolicy(value, true);
    }

    @POST
    public FormValidation doCheckMinNice(@QueryParameter final int value, @QueryParameter final boolean allowRaise) {
        try {
            new AgentLimits(allowRaise, value, true, 0);
            return FormValidation.ok();
        } catch (InvalidPolicyException e) {
            return FormValidation.error(e.getMessage());
        }
    }

    @NonNull
    @Override
    public String getDisplayName() {
        return "Sched Policy";
    }
}
