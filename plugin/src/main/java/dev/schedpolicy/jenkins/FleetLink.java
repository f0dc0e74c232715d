package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.FleetRow;
import dev.schedpolicy.engine.fleet.FleetText;
import dev.schedpolicy.engine.fleet.LatestVerdicts;
import dev.schedpolicy.engine.fleet.ProbeResult;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.Api;
import hudson.model.Computer;
import hudson.model.Label;
import hudson.model.ManagementLink;
import hudson.model.Node;
import hudson.model.labels.LabelAtom;
import hudson.security.Permission;
import java.util.ArrayList;
import java.util.List;
import jenkins.management.Badge;
import jenkins.model.Jenkins;
import org.kohsuke.stapler.HttpResponse;
import org.kohsuke.stapler.HttpResponses;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.Stapler;
import org.kohsuke.stapler.StaplerProxy;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.WebMethod;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;
import org.kohsuke.stapler.verb.POST;

/**
 * Manage Jenkins &gt; Sched Policy: every node's protection on one page (index.jelly), as JSON ({@code api/json}) and as
 * text ({@code fleet.txt}). Reading needs Overall/SystemRead; {@code refresh}, which runs the probe on the agents, needs
 * Overall/Administer and a POST with a crumb. Everything shown comes from the cache in {@link FleetProbes}.
 */
@Extension
@ExportedBean
public class FleetLink extends ManagementLink implements StaplerProxy {
    static final String URL = "schedpolicy-fleet";

    @Override
    public String getIconFileName() {
        return "symbol-computer";
    }

    @Override
    public String getDisplayName() {
        return "Sched Policy";
    }

    @Override
    public String getDescription() {
        return "Per agent: can builds lowered there protect the test jobs, and the command that fixes the agents where they cannot.";
    }

    @Override
    public String getUrlName() {
        return URL;
    }

    @NonNull
    @Override
    public Permission getRequiredPermission() {
        return Jenkins.SYSTEM_READ;
    }

    @NonNull
    @Override
    public Category getCategory() {
        return Category.STATUS;
    }

    /** The count of agents that stand out, on the Manage Jenkins tile; from the cache only, so it costs nothing. */
    @CheckForNull
    @Override
    public Badge getBadge() {
        long out = allNodes().stream()
                .map(n -> FleetProbes.get().result(FleetProbes.nameOf(n.getNodeName())))
                .filter(r -> r != null && r.summary() != null && r.summary().standsOut()).count();
        return out == 0 ? null : new Badge(Long.toString(out), out + " agents cannot protect test jobs in other task groups",
                Badge.Severity.WARNING);
    }

    /** Every URL below this page (the page, api/json, fleet.txt, refresh) needs at least Overall/SystemRead. */
    @Override
    public Object getTarget() {
        Jenkins.get().checkPermission(Jenkins.SYSTEM_READ);
        return this;
    }

    public Api getApi() {
        return new Api(this);
    }

    public boolean isAdmin() {
        return Jenkins.get().hasPermission(Jenkins.ADMINISTER);
    }

    /** The label expression the rows are filtered by ({@code ?label=...}), or "" for all. */
    @Exported
    public String getLabel() {
        StaplerRequest2 req = Stapler.getCurrentRequest2();
        String label = req == null ? null : req.getParameter("label");
        return label == null ? "" : label.strip();
    }

    /** Why the label expression was not understood, or null. */
    @Exported
    @CheckForNull
    public String getLabelError() {
        try {
            labelFilter();
            return null;
        } catch (IllegalArgumentException e) {
            return "not a label expression: " + e.getMessage();
        }
    }

    @CheckForNull
    private Label labelFilter() {
        String expr = getLabel();
        return expr.isEmpty() ? null : Label.parseExpression(expr);
    }

    /** The rows: agents that stand out first, then unknown ones, then the rest (see {@link FleetRow#ORDER}). */
    @Exported(inline = true)
    public List<FleetAgentView> getAgents() {
        long now = System.currentTimeMillis();
        return rows().stream().map(r -> new FleetAgentView(r, now)).toList();
    }

    @Exported
    public long getStandingOut() {
        return rows().stream().filter(FleetRow::standsOut).count();
    }

    /** For index.jelly, which computes the rows once per view. */
    public long countStandingOut(final List<FleetAgentView> agents) {
        return agents.stream().filter(FleetAgentView::isStandsOut).count();
    }

    /** How many of each job's newest builds are searched for benchmark verdicts. */
    @Exported
    public int getBuildsSearchedPerJob() {
        return FleetBenchmarks.BUILDS_PER_JOB;
    }

    private List<FleetRow> rows() {
        Label filter;
        try {
            filter = labelFilter();
        } catch (IllegalArgumentException e) {
            filter = null; // getLabelError says so; showing every node beats showing none
        }
        LatestVerdicts verdicts = FleetBenchmarks.scan();
        List<FleetRow> rows = new ArrayList<>();
        for (Node node : allNodes()) {
            if (filter == null || filter.matches(node)) {
                rows.add(row(node, verdicts));
            }
        }
        rows.sort(FleetRow.ORDER);
        return rows;
    }

    private static List<Node> allNodes() {
        Jenkins j = Jenkins.get();
        List<Node> nodes = new ArrayList<>();
        nodes.add(j);
        nodes.addAll(j.getNodes());
        return nodes;
    }

    private static FleetRow row(final Node node, final LatestVerdicts verdicts) {
        String name = FleetProbes.nameOf(node.getNodeName());
        Computer c = node.toComputer();
        ProbeResult probe = FleetProbes.get().result(name);
        List<String> labels = node.getAssignedLabels().stream().filter(l -> !l.isSelfLabel()).map(LabelAtom::getName)
                .sorted().toList();
        return new FleetRow(name, node == Jenkins.get(), labels, c != null && c.isOnline(), probe, FleetProbes.get().probing(name),
                NodeDefaults.policyFor(node), NodeDefaults.policySourceOf(node), verdicts.forNode(name));
    }

    /** Probes every online node again ({@code node=NAME}: only that one) in the background, then shows the page. */
    @POST
    public HttpResponse doRefresh(@QueryParameter final String node) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        if (node == null || node.isBlank()) {
            FleetProbes.get().refreshAll();
        } else {
            Computer c = node.equals("built-in") ? Jenkins.get().toComputer() : Jenkins.get().getComputer(node);
            if (c == null) {
                return HttpResponses.errorWithoutStack(404, "no node of that name");
            }
            FleetProbes.get().refresh(c);
        }
        return HttpResponses.redirectToDot();
    }

    /** The same rows as plain text, for scripts: {@code curl .../manage/schedpolicy-fleet/fleet.txt}. */
    @WebMethod(name = "fleet.txt")
    public HttpResponse doFleetTxt() {
        return HttpResponses.text(FleetText.render(rows(), System.currentTimeMillis()));
    }
}
