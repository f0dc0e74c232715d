package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.Executor;
import hudson.model.Result;
import hudson.remoting.VirtualChannel;
import hudson.slaves.DumbSlave;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import jenkins.model.CauseOfInterruption;
import jenkins.security.MasterToSlaveCallable;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * The stop of a build whose launch waits, told to a hung agent. jenkins.util.Timer has 10 threads for all of Jenkins;
 * the watch polled on one of them and told the agent with a blocking remoting call, so each stopped build on a hung
 * agent took a Timer thread for as long as the agent hung. The agent here is a real agent JVM, stopped with SIGSTOP.
 */
@WithJenkins
class AbortWatchTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "SIGSTOP stands for a hung agent on Linux");
    }

    @Test
    void shouldNotHoldATimerThreadWhileAHungAgentTakesTheAbort() throws Exception {
        DumbSlave agent = j.createOnlineSlave();
        VirtualChannel channel = agent.getChannel();
        long agentPid = channel.call(new Pid());
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "waits");
        p.setDefinition(new CpsFlowDefinition("sleep 120", true));
        WorkflowRun b = p.scheduleBuild2(0).waitForStart();
        j.waitForMessage("Sleeping for", b);

        signal("STOP", agentPid);
        try (AbortWatch watch = AbortWatch.start(b, channel, "ph-no-such-launch")) {
            Executor executor = b.getExecutor();
            assertThat(executor).isNotNull();
            executor.interrupt(Result.ABORTED, new CauseOfInterruption.UserInterruption("alice")); // as the build's stop link
            Thread.sleep(1500); // the watch polls every 200 ms

            assertThat(timerThreadsInRemoteCalls()).as("jenkins.util.Timer threads waiting for an agent's answer").isEmpty();
        } finally {
            signal("CONT", agentPid);
        }
        j.waitForCompletion(b);
    }

    private static List<String> timerThreadsInRemoteCalls() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("jenkins.util.Timer"))
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().equals("hudson.remoting.Request")
                        && f.getMethodName().equals("call")))
                .map(Map.Entry::getKey).map(Thread::getName).toList();
    }

    private static void signal(final String name, final long pid) throws IOException, InterruptedException {
        assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }

    private static final class Pid extends MasterToSlaveCallable<Long, RuntimeException> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long call() {
            return ProcessHandle.current().pid();
        }
    }
}
