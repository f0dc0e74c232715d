package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.XmlFile;
import hudson.model.Label;
import hudson.model.Result;
import hudson.model.Saveable;
import hudson.model.listeners.SaveableListener;
import hudson.slaves.DumbSlave;
import hudson.model.queue.QueueTaskFuture;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jenkins.security.MasterToSlaveCallable;
import org.assertj.core.api.SoftAssertions;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * How a build's measured launches reach it: collected as the build goes without a write of build.xml per launch, and
 * at its end from all agents at once with a deadline, so that a hung agent does not hold up the build's end.
 */
@WithJenkins
class MeasureCollectionTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "measuring reads Linux' /proc and cgroups");
    }

    @AfterEach
    void tearDown() {
        System.clearProperty(MeasuredLaunches.BATCH_PROPERTY);
    }

    private DumbSlave measuredAgent() throws Exception {
        DumbSlave agent = j.createOnlineSlave(Label.get("measured"));
        SchedPolicyNodeProperty property = new SchedPolicyNodeProperty("normal");
        property.setMeasure(true);
        agent.getNodeProperties().add(property);
        return agent;
    }

    /** Counts the writes of each build's build.xml. */
    @TestExtension("shouldCollectAsTheBuildGoesWithoutWritingBuildXmlPerLaunch")
    public static final class BuildSaves extends SaveableListener {
        static final Map<String, AtomicInteger> COUNT = new ConcurrentHashMap<>();

        @Override
        public void onChange(final Saveable o, final XmlFile file) {
            if (o instanceof WorkflowRun r) {
                COUNT.computeIfAbsent(r.getExternalizableId(), k -> new AtomicInteger()).incrementAndGet();
            }
        }
    }

    @Test
    void shouldCollectAsTheBuildGoesWithoutWritingBuildXmlPerLaunch() throws Exception {
        System.setProperty(MeasuredLaunches.BATCH_PROPERTY, "5");
        int launches = 24;
        String script = "node('measured') { for (int i = 0; i < " + launches + "; i++) { sh 'true' } }\n"
                + "echo 'steps done'\nsleep 25";
        DumbSlave agent = measuredAgent();
        WorkflowJob plain = j.jenkins.createProject(WorkflowJob.class, "plain");
        plain.setDefinition(new CpsFlowDefinition(script.replace("'measured'", "'built-in'"), true));
        WorkflowRun unmeasured = j.buildAndAssertStatus(Result.SUCCESS, plain);
        assertThat(unmeasured.getAction(MeasureBuildAction.class)).isNull();

        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "many");
        p.setDefinition(new CpsFlowDefinition(script, true));
        QueueTaskFuture<WorkflowRun> build = p.scheduleBuild2(0);
        WorkflowRun b = build.waitForStart();
        j.waitForMessage("steps done", b);
        // every 5 launches those that ended; the rest (durable-task's heartbeat outlives a short script by up to 3 s)
        // within 5 s after a collection found them running (each follow-up 5 s after the last: a few on a busy machine)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (launchesOf(b) < launches - 5 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(b.isBuilding()).as("still in its sleep").isTrue();
        softly.assertThat(launchesOf(b)).as("figures collected while the build runs").isGreaterThanOrEqualTo(launches - 5);
        j.assertBuildStatus(Result.SUCCESS, build.get());
        MeasureBuildAction action = b.getAction(MeasureBuildAction.class);
        assertThat(action.getLaunches()).as("every launch once").hasSize(launches);
        assertThat(action.getMissing()).isEmpty();
        assertThat(b.getAction(MeasuredLaunches.class)).isNull();
        int measuredSaves = BuildSaves.COUNT.get(b.getExternalizableId()).get();
        int plainSaves = BuildSaves.COUNT.get(unmeasured.getExternalizableId()).get();
        softly.assertThat(measuredSaves - plainSaves).as("writes of build.xml beyond an unmeasured build's (%d), for %d launches",
                plainSaves, launches).isLessThanOrEqualTo(launches / 2);
        softly.assertAll();
        assertThat(agent.toComputer().isOnline()).isTrue();
    }

    private static int launchesOf(final WorkflowRun b) {
        MeasureBuildAction a = b.getAction(MeasureBuildAction.class);
        return a == null ? 0 : a.getResult().getLaunches().size();
    }

    /** The agent JVM's process id. */
    private static final class AgentPid extends MasterToSlaveCallable<Long, RuntimeException> {
        @Override
        public Long call() {
            return ProcessHandle.current().pid();
        }
    }

    private static void signal(final String signal, final long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }

    @Test
    void shouldEndTheBuildWithinItsDeadlineWhenAnAgentHangsAtCollection() throws Exception {
        DumbSlave hung = measuredAgent();
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "hung");
        p.setDefinition(new CpsFlowDefinition("node('measured') { sh 'true' }\necho 'left the agent'\nsleep 2", true));
        QueueTaskFuture<WorkflowRun> build = p.scheduleBuild2(0);
        WorkflowRun b = build.waitForStart();
        j.waitForMessage("left the agent", b);
        long pid = hung.getChannel().call(new AgentPid());
        signal("STOP", pid);
        try {
            long deadline = System.nanoTime()
                    + TimeUnit.SECONDS.toNanos(2 + AgentMeasures.WAIT_SECONDS + AgentMeasures.ANSWER_SECONDS + 30);
            while (b.isBuilding() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            // a client that reads the build as soon as it says it finished (api/json's building: false) finds the
            // figures: a Pipeline run says so before its RunListeners run, so they are collected when the flow ends
            assertThat(b.isBuilding()).isFalse();
            assertThat(b.getAction(MeasureBuildAction.class)).as("the figures when the build says it finished").isNotNull();
            // the build's end (its RunListeners, then "Finished:") within the deadline, with room for a busy machine
            j.assertBuildStatus(Result.SUCCESS, build.get(30, TimeUnit.SECONDS));
            MeasureBuildAction action = b.getAction(MeasureBuildAction.class);
            assertThat(action.getMissing()).singleElement().asString().contains("1 launch(es) on " + hung.getNodeName(),
                    "did not answer within 30 s");
        } finally {
            signal("CONT", pid);
        }
    }
}
