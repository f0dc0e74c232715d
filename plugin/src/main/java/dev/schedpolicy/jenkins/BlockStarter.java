package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.BlockRecord;
import dev.schedpolicy.engine.agent.BlockStart;
import dev.schedpolicy.engine.agent.ConsoleNotes;
import dev.schedpolicy.engine.agent.ContainerLaunches;
import dev.schedpolicy.engine.agent.LaunchRequest;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.AbortException;
import hudson.model.Node;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.model.labels.LabelAtom;
import hudson.remoting.VirtualChannel;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import jenkins.model.Jenkins;

/**
 * Starts a policy block for the Pipeline step and the freestyle wrapper alike: the agent merges and
 * probes (one remoting call), the console gets its findings, the build page its record, and the
 * caller the settings its launches run under.
 */
final class BlockStarter {
    private BlockStarter() {
    }

    /**
     * @param kind      what started the block, shown on the build page ({@code withSchedPolicy}, {@code wrapper})
     * @param enclosing the merged policy of an enclosing block, or null
     * @param requested this block's policy, compact
     * @throws AbortException with the engine's words when the block must not run
     */
    static LaunchSettings start(final String kind, final Run<?, ?> run, @CheckForNull final Node node, final VirtualChannel channel,
            @CheckForNull final String enclosing, final String requested, final TaskListener listener)
            throws IOException, InterruptedException {
        String blockKey = UUID.randomUUID().toString();
        BlockStart start = channel.call(new AgentCalls.StartBlock(LaunchRequest.of(blockKey, requested).inside(enclosing)
                .onNode(NodeDefaults.policyFor(node), NodeDefaults.limits(), NodeDefaults.cgroupParentFor(node))));
        if (start.failure().isPresent()) {
            throw new AbortException(Messages.Console_stepFailed(kind, start.failure().get()));
        }
        for (String w : start.warnings()) {
            listener.getLogger().println(Messages.Console_warning(w));
        }
        listener.getLogger().println(Messages.Console_line(ConsoleNotes.block(start)));
        SchedPolicyAction action = SchedPolicyAction.of(run);
        String root = Jenkins.get().getRootUrl();
        String base = root == null ? "" : root;
        Optional<String> reach = ConsoleNotes.reach(start, nodeName(node), base + run.getUrl() + "#" + SchedPolicyAction.ANCHOR,
                base + "manage/" + FleetLink.URL + "/?label=" + URLEncoder.encode(LabelAtom.escape(nodeName(node)), StandardCharsets.UTF_8));
        if (reach.isPresent() && action.firstReachNote(nodeName(node))) {
            listener.getLogger().println(Messages.Console_line(reach.get()));
        }
        BlockRecord record = BlockRecord.started(kind, nodeName(node), start);
        Optional<String> containers = ContainerLaunches.nodeNote(node == null ? "" : node.getClass().getName());
        if (containers.isPresent()) {
            listener.getLogger().println(Messages.Console_warning(containers.get()));
            record = record.withWarning(containers.get());
        }
        action.addBlock(record);
        return NodeDefaults.settings(start.effective(), blockKey, run.getExternalizableId(), node);
    }

    private static String nodeName(@CheckForNull final Node node) {
        return FleetProbes.nameOf(NodeDefaults.nameOf(node));
    }
}
