package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedpolicy.engine.agent.AgentLimits;
import dev.schedpolicy.engine.agent.BlockStart;
import dev.schedpolicy.engine.agent.LaunchRequest;
import dev.schedpolicy.engine.agent.SchedPolicyAgent;
import hudson.remoting.Channel;
import hudson.remoting.ChannelBuilder;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent side of a connection that closes. A real remoting channel pair in this JVM stands for the controller and an
 * agent that reconnects in its own JVM: once the connection that made the registry closes, its reaper thread must end
 * (the next connection makes its own), where it stayed for the agent JVM's life, one more per reconnect.
 */
class AgentConnectionTest {
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeEach
    void setUp() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
        SchedPolicyAgent.useRegistry(null); // a registry of an earlier test in this JVM is not this connection's
    }

    @AfterEach
    void tearDown() {
        SchedPolicyAgent.useRegistry(null);
        pool.shutdownNow();
    }

    @Test
    @Timeout(120)
    void shouldEndTheRegistrysReaperOnceTheConnectionThatMadeItCloses() throws Exception {
        PipedInputStream agentIn = new PipedInputStream();
        PipedOutputStream controllerOut = new PipedOutputStream(agentIn);
        PipedInputStream controllerIn = new PipedInputStream();
        PipedOutputStream agentOut = new PipedOutputStream(controllerIn);
        Future<Channel> agent = pool.submit(() -> new ChannelBuilder("agent", pool).withMode(Channel.Mode.BINARY).build(agentIn, agentOut));
        Channel controller = new ChannelBuilder("controller", pool).withMode(Channel.Mode.BINARY).build(controllerIn, controllerOut);
        agent.get(30, TimeUnit.SECONDS);
        int before = reapers();

        BlockStart start = controller.call(new AgentCalls.StartBlock(LaunchRequest.of("conn-block", "idle").inside("")
                .onNode("", AgentLimits.DEFAULT, null)));
        assertThat(start.failure()).as("the block's start on the agent side").isEmpty();
        assertThat(reapers()).as("the registry's reaper while connected").isEqualTo(before + 1);

        controller.close();
        agent.get().join(10_000);

        assertThat(waitForReapers(before)).as("reaper threads once the connection closed").isEqualTo(before);
    }

    private static int reapers() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("schedpolicy-registry") && t.isAlive()).count();
    }

    private static int waitForReapers(final int wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (reapers() != wanted && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return reapers();
    }
}
