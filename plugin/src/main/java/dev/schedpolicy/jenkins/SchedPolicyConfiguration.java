package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AgentLimits;
import dev.schedpolicy.engine.agent.BenchmarkCaps;
import dev.schedpolicy.engine.agent.CgroupParents;
import dev.schedpolicy.engine.agent.GuardRule;
import dev.schedpolicy.engine.agent.GuardRules;
import dev.schedpolicy.engine.agent.GuardStageRule;
import dev.schedpolicy.engine.agent.PolicyForms;
import dev.schedpolicy.engine.agent.SchedPolicyAgent;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.ExtensionList;
import hudson.model.labels.LabelExpression;
import hudson.util.FormValidation;
import jenkins.model.GlobalConfiguration;
import jenkins.model.Jenkins;
import net.sf.json.JSONObject;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
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
    private boolean measureAllSteps;
    private int minNice;
    private boolean allowCgroups = true;
    private int maxQuotaPercent;
    private int handshakeTimeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
    private boolean allowAboveDefault;
    private String cgroupParent;
    /** Jobs whose builds may use withSchedGuard: a regular expression on the full name; null lets nobody. */
    private String guardJobs;
    /** Stages whose steps run guarded without withSchedGuard: a regular expression found in the name; null for none. */
    private String guardStages;
    /** Jobs whose every step runs guarded without withSchedGuard: a regular expression on the full name; null for none. */
    private String guardWholeJobs;
    /** Nodes whose every step runs guarded without withSchedGuard: a Jenkins label expression; null for none. */
    private String guardLabel;
    private int benchmarkMaxLoad = BenchmarkCaps.DEFAULT_MAX_LOAD;
    private int benchmarkMaxRepetitions = BenchmarkCaps.DEFAULT_MAX_REPETITIONS;
    private int benchmarkMaxMinutes = BenchmarkCaps.DEFAULT_MAX_MINUTES;
    /** Where the caps are set, as refusals name it. */
    static final String BENCHMARK_CAPS_SET_IN = "Manage Jenkins » System » Sched Policy";

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

    /** Whether every launch on every node is measured (CPU, run-queue wait, neighbours). */
    public boolean isMeasureAllSteps() {
        return measureAllSteps;
    }

    @DataBoundSetter
    public void setMeasureAllSteps(final boolean value) {
        this.measureAllSteps = value;
        save();
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

    public boolean isAllowAboveDefault() {
        return allowAboveDefault;
    }

    /** Whether blocks may run above the node's or global default policy; otherwise the default is a floor. */
    @DataBoundSetter
    public void setAllowAboveDefault(final boolean value) {
        this.allowAboveDefault = value;
        save();
    }

    public String getCgroupParent() {
        return cgroupParent;
    }

    /** A machine-wide parent for the cgroups of policed launches on every node without its own; blank for none. */
    @DataBoundSetter
    public void setCgroupParent(final String value) {
        this.cgroupParent = CgroupParents.parse(value).map(Object::toString).orElse(null);
        save();
    }

    public String getGuardJobs() {
        return guardJobs;
    }

    /** A regular expression matched against a job's full name: the jobs whose builds may guard; blank for none. */
    @DataBoundSetter
    public void setGuardJobs(final String value) {
        this.guardJobs = GuardRule.check(value);
        save();
    }

    public String getGuardStages() {
        return guardStages;
    }

    /** A regular expression found in a stage's name: its steps run guarded, for jobs {@link #getGuardJobs()} allows; blank: off. */
    @DataBoundSetter
    public void setGuardStages(final String value) {
        this.guardStages = GuardStageRule.check(value);
        save();
    }

    public String getGuardWholeJobs() {
        return guardWholeJobs;
    }

    /** A regular expression matched against a job's full name: every step of its builds runs guarded, for jobs {@link #getGuardJobs()} allows; blank: off. */
    @DataBoundSetter
    public void setGuardWholeJobs(final String value) {
        this.guardWholeJobs = GuardRules.checkWholeJobs(value);
        save();
    }

    public String getGuardLabel() {
        return guardLabel;
    }

    /** A Jenkins label expression: every step on a node it matches runs guarded, for jobs {@link #getGuardJobs()} allows; blank: off. */
    @DataBoundSetter
    public void setGuardLabel(final String value) {
        this.guardLabel = GuardLabels.check(value);
        save();
    }

    /** The global rules that guard without withSchedGuard, as the engine takes them (a node's own go on top). */
    GuardRules toGuardRules() {
        return GuardRules.of(guardJobs, guardStages, guardWholeJobs);
    }

    public int getHandshakeTimeoutSeconds() {
        int s = handshakeTimeoutSeconds > 0 ? handshakeTimeoutSeconds : DEFAULT_TIMEOUT_SECONDS;
        return Math.min(s, SchedPolicyAgent.MAX_HANDSHAKE_TIMEOUT_SECONDS);
    }

    @DataBoundSetter
    public void setHandshakeTimeoutSeconds(final int value) {
        SchedPolicyAgent.handshakeTimeout(value);
        this.handshakeTimeoutSeconds = value;
        save();
    }

    /** The highest load (background copies per CPU) one schedBenchmark may ask for. */
    public int getBenchmarkMaxLoad() {
        return toBenchmarkCaps().maxLoad();
    }

    @DataBoundSetter
    public void setBenchmarkMaxLoad(final int value) {
        new BenchmarkCaps(value, getBenchmarkMaxRepetitions(), getBenchmarkMaxMinutes(), BENCHMARK_CAPS_SET_IN);
        this.benchmarkMaxLoad = value;
        save();
    }

    /** The most repetitions of every cell one schedBenchmark may ask for. */
    public int getBenchmarkMaxRepetitions() {
        return toBenchmarkCaps().maxRepetitions();
    }

    @DataBoundSetter
    public void setBenchmarkMaxRepetitions(final int value) {
        new BenchmarkCaps(getBenchmarkMaxLoad(), value, getBenchmarkMaxMinutes(), BENCHMARK_CAPS_SET_IN);
        this.benchmarkMaxRepetitions = value;
        save();
    }

    /** The longest one schedBenchmark may run, in minutes: refused when its plan is longer, stopped when it runs longer. */
    public int getBenchmarkMaxMinutes() {
        return toBenchmarkCaps().maxMinutes();
    }

    @DataBoundSetter
    public void setBenchmarkMaxMinutes(final int value) {
        new BenchmarkCaps(getBenchmarkMaxLoad(), getBenchmarkMaxRepetitions(), value, BENCHMARK_CAPS_SET_IN);
        this.benchmarkMaxMinutes = value;
        save();
    }

    /** The benchmark caps as the engine takes them; stored values out of range (a hand-edited file) read as the defaults. */
    public BenchmarkCaps toBenchmarkCaps() {
        return BenchmarkCaps.lenient(benchmarkMaxLoad, benchmarkMaxRepetitions, benchmarkMaxMinutes, BENCHMARK_CAPS_SET_IN);
    }

    /**
     * The limits as the engine takes them. Never throws: settings saved inconsistent (JCasC sets the
     * fields one by one) resolve towards less priority in the engine, so no launch breaks on them.
     */
    public AgentLimits toLimits() {
        return AgentLimits.lenient(allowRaise, minNice, allowCgroups, maxQuotaPercent, allowAboveDefault);
    }

    /** The form is checked as a whole before anything is stored: a combination the engine refuses is a form error. */
    @Override
    public boolean configure(final StaplerRequest2 req, final JSONObject json) throws FormException {
        try {
            new AgentLimits(json.optBoolean("allowRaise"), json.optInt("minNice"), json.optBoolean("allowCgroups", true),
                    json.optInt("maxQuotaPercent"), json.optBoolean("allowAboveDefault"));
        } catch (InvalidPolicyException e) {
            throw new FormException(e.getMessage(), "minNice");
        }
        try {
            SchedPolicyAgent.handshakeTimeout(json.optInt("handshakeTimeoutSeconds", DEFAULT_TIMEOUT_SECONDS));
        } catch (IllegalArgumentException e) {
            throw new FormException(e.getMessage(), "handshakeTimeoutSeconds");
        }
        try {
            CgroupParents.parse(json.optString("cgroupParent", ""));
        } catch (IllegalArgumentException e) {
            throw new FormException(e.getMessage(), "cgroupParent");
        }
        try {
            GuardRule.check(json.optString("guardJobs", ""));
        } catch (IllegalArgumentException e) {
            throw new FormException(e.getMessage(), "guardJobs");
        }
        try {
            GuardStageRule.check(json.optString("guardStages", ""));
        } catch (IllegalArgumentException e) {
            throw new FormException(e.getMessage(), "guardStages");
        }
        try {
            GuardRules.checkWholeJobs(json.optString("guardWholeJobs", ""));
        } catch (IllegalArgumentException e) {
            throw new FormException(e.getMessage(), "guardWholeJobs");
        }
        try {
            GuardLabels.check(json.optString("guardLabel", ""));
        } catch (IllegalArgumentException e) {
            throw new FormException(e.getMessage(), "guardLabel");
        }
        try {
            new BenchmarkCaps(json.optInt("benchmarkMaxLoad", BenchmarkCaps.DEFAULT_MAX_LOAD),
                    json.optInt("benchmarkMaxRepetitions", BenchmarkCaps.DEFAULT_MAX_REPETITIONS),
                    json.optInt("benchmarkMaxMinutes", BenchmarkCaps.DEFAULT_MAX_MINUTES), BENCHMARK_CAPS_SET_IN);
        } catch (IllegalArgumentException e) {
            throw new FormException(e.getMessage(), "benchmarkMaxLoad");
        }
        String policy = json.optString("defaultPolicy", "");
        if (!policy.isBlank()) {
            try {
                PolicyForms.canonical(policy);
            } catch (InvalidPolicyException e) {
                throw new FormException(e.getMessage(), "defaultPolicy");
            }
        }
        return super.configure(req, json);
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
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return PolicyFields.checkPolicy(value, true);
    }

    @POST
    public FormValidation doCheckCgroupParent(@QueryParameter final String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return PolicyFields.checkCgroupParent(value);
    }

    @POST
    public FormValidation doCheckGuardJobs(@QueryParameter final String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return checkPattern(() -> GuardRule.check(value));
    }

    @POST
    public FormValidation doCheckGuardStages(@QueryParameter final String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return checkPattern(() -> GuardStageRule.check(value));
    }

    @POST
    public FormValidation doCheckGuardWholeJobs(@QueryParameter final String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        return checkPattern(() -> GuardRules.checkWholeJobs(value));
    }

    /** A label Jenkins cannot parse is an error in the rule's words; otherwise Jenkins' own check (does a node match?). */
    @POST
    public FormValidation doCheckGuardLabel(@QueryParameter final String value) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        FormValidation syntax = checkPattern(() -> GuardLabels.check(value));
        return syntax.kind == FormValidation.Kind.ERROR ? syntax : LabelExpression.validate(value);
    }

    /** The check's refusal as the form's error, ok otherwise. */
    static FormValidation checkPattern(final Runnable check) {
        try {
            check.run();
            return FormValidation.ok();
        } catch (IllegalArgumentException e) {
            return FormValidation.error(e.getMessage());
        }
    }

    @POST
    public FormValidation doCheckMinNice(@QueryParameter final int value, @QueryParameter final boolean allowRaise) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
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
        return Messages.Form_systemSection();
    }
}
