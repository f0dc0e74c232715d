package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.tasks.Shell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * Freestyle's guard, the build wrapper "Guard this build's steps", through the real build, launcher and engine on the
 * built-in node: the same grant (guardJobs), the same one console line and the same build page section as withSchedGuard.
 */
@WithJenkins
class SchedGuardWrapperTest {
    private static final String BUSY = "while :; do :; done";
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    private FreeStyleProject freestyle(final String name, final String script) throws Exception {
        FreeStyleProject p = j.createFreeStyleProject(name);
        p.getBuildWrappersList().add(new SchedGuardWrapper());
        p.getBuildersList().add(new Shell(script));
        return p;
    }

    private static List<String> lines(final FreeStyleBuild b, final String prefix) throws Exception {
        return b.getLog(1000).stream().filter(l -> l.startsWith(prefix)).toList();
    }

    @Test
    void shouldLowerAnotherBuildsLaunchWhileTheGuardedBuildWaitsAndSayItInOneLine() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/taskset")), "needs taskset (util-linux) to share one CPU");
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        // the other build is measured, so its launch goes through the agent's registry unlowered (policy normal)
        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        WorkflowJob hogJob = j.jenkins.createProject(WorkflowJob.class, "hog");
        hogJob.setDefinition(new CpsFlowDefinition("node { sh 'echo hog-started; taskset -c 0 sh -c \"" + BUSY
                + "\" & wait' }", true));
        WorkflowRun hog = hogJob.scheduleBuild2(0).waitForStart();
        j.waitForMessage("hog-started", hog);
        Thread.sleep(500);
        FreeStyleBuild b = j.buildAndAssertSuccess(freestyle("tests", "timeout 3 taskset -c 0 sh -c '" + BUSY + "' || true"));
        hog.doStop();
        j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(hog));

        assertThat(lines(b, "[schedpolicy] guard: ")).as(String.join("\n", b.getLog(1000))).singleElement()
                .satisfies(line -> assertThat(line).contains("; acted ").contains("lowered 1 launch, ")
                        .endsWith(": another launch on this agent; all put back"));
        assertThat(lines(b, "[schedpolicy] not guarded")).isEmpty();
        b.reload();
        assertThat(b.getAction(GuardBuildAction.class).getBlocks()).singleElement()
                .satisfies(block -> assertThat(block.getLoweredLaunches()).isEqualTo(1));
        assertThat(j.createWebClient().getPage(b).getElementById("schedpolicy-guard").asNormalizedText())
                .contains(": hog #1 › sh (no policy); all put back");
    }

    @Test
    void shouldRunTheBuildUnguardedWithOneLineWhenTheJobIsNotAllowed() throws Exception {
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        FreeStyleBuild b = j.buildAndAssertSuccess(freestyle("compile", "echo build-ran"));
        assertThat(lines(b, "[schedpolicy] Guard this build's steps: not guarded, job 'compile' is not among the jobs an"
                + " administrator lets guard")).hasSize(1);
        j.assertLogContains("build-ran", b);
        assertThat(lines(b, "[schedpolicy] guard: ")).isEmpty();
        // nothing polices the build: no launch went through the agent's handshake
        j.assertLogNotContains("verified", b);
        assertThat(b.getAction(GuardBuildAction.class)).isNull();
    }

    @Test
    void shouldKeepTheWrapperThroughItsFormAndItsSymbol() throws Exception {
        FreeStyleProject p = freestyle("tests", "true");
        j.configRoundtrip(p);
        assertThat(p.getBuildWrappersList().get(SchedGuardWrapper.class)).isNotNull();
        assertThat(org.jenkinsci.plugins.structs.SymbolLookup.getSymbolValue(SchedGuardWrapper.class)).containsExactly("schedGuard");
    }
}
