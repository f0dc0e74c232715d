package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.ExtensionList;
import hudson.XmlFile;
import hudson.model.Saveable;
import hudson.model.listeners.SaveableListener;
import java.util.concurrent.atomic.AtomicInteger;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * A step measured and not lowered runs as it would without the plugin: its build's console says once where the figures
 * are, not a "normal ... verified" line per step (a long build of short steps had thousands); a lowered launch keeps its
 * verified line.
 */
@WithJenkins
class MeasuredConsoleTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "measuring reads Linux' /proc and cgroups");
    }

    @Test
    void shouldSayOnceABuildThatItsStepsAreMeasuredAndVerifyOnlyLoweredLaunches() throws Exception {
        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        WorkflowJob job = j.jenkins.createProject(WorkflowJob.class, "many-steps");
        job.setDefinition(new CpsFlowDefinition(
                "node { sh 'true'; sh 'true'; sh 'true'; withSchedPolicy('batch') { sh 'true' } }", true));
        WorkflowRun b = j.buildAndAssertSuccess(job);

        String log = JenkinsRule.getLog(b);
        assertThat(log.lines().filter(l -> l.startsWith("[schedpolicy] this node measures its steps and lowers none:")))
                .as("the once-a-build line").hasSize(1);
        assertThat(log.lines().filter(l -> l.startsWith("[schedpolicy] normal: pid"))).as("lines of unlowered launches").isEmpty();
        assertThat(log.lines().filter(l -> l.matches("\\[schedpolicy] batch: pid [0-9]+ verified: class batch.*")))
                .as("the lowered launch's line").hasSize(1);
        assertThat(b.getAction(MeasureBuildAction.class).getLaunches()).as("every launch measured").hasSize(4);
    }

    /**
     * A launch of no block (a node default's, here the measured steps) has no record to add to: each attached an empty
     * record to the build and asked for a write of build.xml all the same (on Pipeline's thread that write joins the one
     * Pipeline makes per step; a freestyle build's launch wrote it on its own). Measuring adds no write per step.
     */
    @Test
    void shouldAddNoRecordAndNoWritePerStepOfNoBlock() throws Exception {
        WorkflowJob job = j.jenkins.createProject(WorkflowJob.class, "thirty-steps");
        job.setDefinition(new CpsFlowDefinition("node { for (int i = 0; i < 30; i++) { sh 'true' } }", true));
        AtomicInteger saves = new AtomicInteger();
        ExtensionList.lookup(SaveableListener.class).add(new SaveableListener() {
            @Override
            public void onChange(final Saveable o, final XmlFile file) {
                if (o instanceof WorkflowRun r && r.getParent() == job) {
                    saves.incrementAndGet();
                }
            }
        });
        j.buildAndAssertSuccess(job);
        int unmeasured = saves.getAndSet(0);
        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        WorkflowRun b = j.buildAndAssertSuccess(job);

        assertThat(b.getAction(MeasureBuildAction.class).getLaunches()).as("every launch measured").hasSize(30);
        assertThat(b.getAction(SchedPolicyAction.class)).as("no empty block record").isNull();
        assertThat(saves.get()).as("writes of build.xml, measured, beside %d unmeasured", unmeasured).isLessThanOrEqualTo(unmeasured + 3);
    }
}
