package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AgentBenchmark;
import dev.schedpolicy.engine.buildpage.BenchmarkGate;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.Extension;
import hudson.init.InitMilestone;
import hudson.init.Initializer;
import hudson.model.Item;
import hudson.model.Job;
import hudson.security.Permission;
import hudson.security.PermissionScope;
import jenkins.model.Jenkins;
import hudson.model.Computer;
import hudson.model.Node;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.util.ListBoxModel;
import net.sf.json.JSONObject;
import java.util.Set;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.StaplerRequest2;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;

/**
 * {@code schedBenchmark(scenario: 'seed-cpu-looper', quick: true, gatePolicy: 'idle', unstableBelow: 80)}:
 * runs the engine's benchmark on the agent ({@link AgentBenchmark}, progress streamed to the build
 * log), stores report.json as a {@link BenchmarkBuildAction}, and applies the optional gate.
 */
public class BenchmarkStep extends Step {
    /**
     * Who may run {@code schedBenchmark} in a job: it loads the agent, which other teams' builds share, with background
     * copies and the author's own commands. Checked against the build's authentication (the user an authorization
     * strategy such as Authorize Project runs the build as; SYSTEM, which holds every permission, where none is set).
     * Implied by Overall/Administer only: an administrator grants it per job or folder (matrix-auth's project-based
     * strategy).
     */
    public static final Permission BENCHMARK = new Permission(Item.PERMISSIONS, "SchedBenchmark", null, Jenkins.ADMINISTER,
            PermissionScope.ITEM);

    /** Loads the permission before the authorization strategy's configuration is read (as workflow-cps does for Replay). */
    @Initializer(before = InitMilestone.SYSTEM_CONFIG_LOADED)
    public static void registerPermission() {
        // referencing BENCHMARK above is enough
    }

    /** Throws, in one line saying who lacks what and who grants it, unless the build may run a benchmark in {@code job}. */
    static void checkPermission(final Job<?, ?> job) throws AbortException {
        org.springframework.security.core.Authentication auth = Jenkins.getAuthentication2();
        if (!job.hasPermission2(auth, BENCHMARK)) {
            throw new AbortException(Messages.Console_benchmarkNeedsPermission(BENCHMARK.name, job.getFullName(), auth.getName()));
        }
    }

    private String scenario = "seed-cpu-looper";
    private Boolean quick;
    private String policies;
    private String loads;
    private Integer repetitions;
    private String victim;
    private String background;
    private String gatePolicy = "idle";
    private String gateTopology;
    private double unstableBelow;
    private double failBelow;

    @DataBoundConstructor
    public BenchmarkStep(@CheckForNull final String scenario) {
        if (scenario != null && !scenario.isBlank()) {
            this.scenario = scenario.trim();
        }
    }

    public String getScenario() {
        return scenario;
    }

    public Boolean getQuick() {
        return quick;
    }

    /**
     * true: the scenario's quick preset; false: its full matrix; unset: the CLI's rule (quick unless
     * policies, loads or repetitions are given), decided by the engine.
     */
    @DataBoundSetter
    public void setQuick(final Boolean quick) {
        this.quick = quick;
    }

    public String getPolicies() {
        return policies;
    }

    /** Comma-separated benchmark policies, e.g. {@code default,nice19,idle,quota50}. */
    @DataBoundSetter
    public void setPolicies(final String policies) {
        this.policies = PolicyFields.blankToNull(policies);
        request(null);
    }

    public String getLoads() {
        return loads;
    }

    /** Comma-separated loads as multiples of the CPU count, e.g. {@code 1,2,4}. */
    @DataBoundSetter
    public void setLoads(final String loads) {
        this.loads = PolicyFields.blankToNull(loads);
        request(null);
    }

    public Integer getRepetitions() {
        return repetitions;
    }

    @DataBoundSetter
    public void setRepetitions(final Integer repetitions) {
        this.repetitions = repetitions;
        request(null);
    }

    public String getVictim() {
        return victim;
    }

    /** The test job as a shell command (fixed work), e.g. {@code ./mvnw -q test}. */
    @DataBoundSetter
    public void setVictim(final String victim) {
        this.victim = PolicyFields.blankToNull(victim);
    }

    public String getBackground() {
        return background;
    }

    /** The background as a shell command, one copy per load unit, e.g. {@code make -j4}. */
    @DataBoundSetter
    public void setBackground(final String background) {
        this.background = PolicyFields.blankToNull(background);
    }

    public String getGatePolicy() {
        return gatePolicy;
    }

    @DataBoundSetter
    public void setGatePolicy(final String gatePolicy) {
        this.gatePolicy = PolicyFields.blankToNull(gatePolicy) == null ? "idle" : gatePolicy.trim();
        gate();
    }

    public String getGateTopology() {
        return gateTopology;
    }

    /** The topology the gate judges, e.g. {@code same-agent}; unset: the gate policy's own (see {@link BenchmarkGate}). */
    @DataBoundSetter
    public void setGateTopology(final String gateTopology) {
        this.gateTopology = PolicyFields.blankToNull(gateTopology);
        gate();
    }

    public double getUnstableBelow() {
        return unstableBelow;
    }

    /** The build becomes unstable when the test job keeps less than this % under {@link #getGatePolicy()}; 0 = off. */
    @DataBoundSetter
    public void setUnstableBelow(final double unstableBelow) {
        this.unstableBelow = unstableBelow;
        gate();
    }

    public double getFailBelow() {
        return failBelow;
    }

    /** The step fails when the test job keeps less than this %; 0 = off. */
    @DataBoundSetter
    public void setFailBelow(final double failBelow) {
        this.failBelow = failBelow;
        gate();
    }

    BenchmarkGate gate() {
        return new BenchmarkGate(gatePolicy, gateTopology, unstableBelow, failBelow);
    }

    /** The engine's request, which checks loads, repetitions and policies as the CLI does. */
    AgentBenchmark.Request request(@CheckForNull final String workloadClasspath) {
        return new AgentBenchmark.Request(scenario, quick, policies, loads, repetitions, victim, background, workloadClasspath);
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new BenchmarkExecution(context, this);
    }

    @Extension
    public static class DescriptorImpl extends StepDescriptor {
        /** "" (the common rule), quick or full: a blank choice must stay unset, not become false (full). */
        public ListBoxModel doFillQuickItems() {
            return PolicyFields.threeWay(Messages.Form_quick_unset(), Messages.Form_quick_yes(), Messages.Form_quick_no());
        }

        @Override
        public Step newInstance(@CheckForNull final StaplerRequest2 req, @NonNull final JSONObject formData) throws FormException {
            return super.newInstance(req, PolicyFields.unsetBlankChoices(formData));
        }

        @Override
        public String getFunctionName() {
            return "schedBenchmark";
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.Step_schedBenchmark();
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, TaskListener.class, Node.class, Computer.class);
        }
    }
}
