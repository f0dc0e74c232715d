package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.FleetPage;
import dev.schedpolicy.engine.fleet.FleetQuery;
import dev.schedpolicy.engine.fleet.FleetRow;
import dev.schedpolicy.engine.fleet.FleetSummary;
import dev.schedpolicy.engine.fleet.LatestVerdicts;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Computer;
import hudson.model.Label;
import hudson.model.Node;
import hudson.model.labels.LabelAtom;
import java.util.ArrayList;
import java.util.List;
import jenkins.model.Jenkins;
import org.kohsuke.stapler.StaplerRequest2;

/**
 * The fleet view's rows for one request, made once: every node's cache entry and the newest builds' verdicts are read a
 * single time however many getters the page or {@code api/json} calls. The rows are those matching {@code ?label=};
 * the summary counts them all; the page is what {@code ?state=&sort=&fix=&page=&size=} selects.
 */
final class FleetSnapshot {
    private static final String ATTRIBUTE = FleetSnapshot.class.getName();

    final String label;
    @CheckForNull
    final String labelError;
    @CheckForNull
    final String queryError;
    final List<FleetRow> rows;
    final FleetSummary summary;
    final FleetPage page;
    final FleetQuery query;

    private FleetSnapshot(@CheckForNull final StaplerRequest2 req, final int defaultSize) {
        String given = param(req, "label");
        label = given == null ? "" : given.strip();
        Label filter = null;
        String error = null;
        try {
            filter = label.isEmpty() ? null : Label.parseExpression(label);
        } catch (IllegalArgumentException e) {
            error = Messages.Fleet_notALabel(e.getMessage()); // showing every node beats showing none
        }
        labelError = error;
        FleetQuery q;
        String qError = null;
        try {
            q = FleetQuery.parse(param(req, "state"), param(req, "sort"), param(req, "fix"), param(req, "page"), param(req, "size"),
                    defaultSize);
        } catch (IllegalArgumentException e) {
            q = FleetQuery.parse(null, null, null, null, null, defaultSize);
            qError = e.getMessage();
        }
        query = q;
        queryError = qError;
        LatestVerdicts verdicts = FleetBenchmarks.scan();
        List<FleetRow> all = new ArrayList<>();
        for (Node node : allNodes()) {
            if (filter == null || filter.matches(node)) {
                all.add(row(node, verdicts));
            }
        }
        rows = List.copyOf(all);
        summary = FleetSummary.of(rows);
        page = query.apply(rows);
    }

    /** This request's rows, made on first use ({@code defaultSize}: rows per page when {@code ?size=} is not given). */
    static FleetSnapshot of(@CheckForNull final StaplerRequest2 req, final int defaultSize) {
        if (req == null) {
            return new FleetSnapshot(null, defaultSize);
        }
        String key = ATTRIBUTE + "." + defaultSize;
        FleetSnapshot s = (FleetSnapshot) req.getAttribute(key);
        if (s == null) {
            s = new FleetSnapshot(req, defaultSize);
            req.setAttribute(key, s);
        }
        return s;
    }

    @CheckForNull
    private static String param(@CheckForNull final StaplerRequest2 req, final String name) {
        return req == null ? null : req.getParameter(name);
    }

    static List<Node> allNodes() {
        Jenkins j = Jenkins.get();
        List<Node> nodes = new ArrayList<>();
        nodes.add(j);
        nodes.addAll(j.getNodes());
        return nodes;
    }

    static FleetRow row(final Node node, final LatestVerdicts verdicts) {
        String name = FleetProbes.nameOf(node.getNodeName());
        Computer c = node.toComputer();
        List<String> labels = node.getAssignedLabels().stream().filter(l -> !l.isSelfLabel()).map(LabelAtom::getName)
                .sorted().toList();
        return new FleetRow(name, node == Jenkins.get(), labels, c != null && c.isOnline(), FleetProbes.get().result(name),
                FleetProbes.get().probing(name), NodeDefaults.policyFor(node), NodeDefaults.policySourceOf(node),
                verdicts.forNode(name));
    }
}
