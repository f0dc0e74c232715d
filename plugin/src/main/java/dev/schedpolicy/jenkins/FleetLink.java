package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.FleetPage;
import dev.schedpolicy.engine.fleet.FleetQuery;
import dev.schedpolicy.engine.fleet.FleetText;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.Api;
import hudson.model.Computer;
import hudson.model.ManagementLink;
import hudson.model.Node;
import hudson.security.Permission;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jenkins.management.Badge;
import jenkins.model.Jenkins;
import jenkins.security.stapler.StaplerDispatchable;
import org.kohsuke.stapler.HttpResponse;
import org.kohsuke.stapler.HttpResponses;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.Stapler;
import org.kohsuke.stapler.StaplerProxy;
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
        return Messages.Page_schedPolicy();
    }

    @Override
    public String getDescription() {
        return Messages.Page_fleetDescription();
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
        long out = FleetSnapshot.allNodes().stream()
                .map(n -> FleetProbes.get().result(FleetProbes.nameOf(n.getNodeName())))
                .filter(r -> r != null && r.summary() != null && r.summary().standsOut()).count();
        return out == 0 ? null : new Badge(Long.toString(out), Messages.Fleet_badge(Long.toString(out)),
                Badge.Severity.WARNING);
    }

    /** Every URL below this page (the page, api/json, fleet.txt, refresh, agent/NAME/) needs at least Overall/SystemRead. */
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

    /** The rows for the page: 50 at a time unless {@code ?size=} says otherwise. */
    public FleetView getView() {
        return new FleetView(FleetSnapshot.of(Stapler.getCurrentRequest2(), FleetQuery.PAGE_SIZE), System.currentTimeMillis());
    }

    /** The API's rows: all of them unless {@code ?size=} or {@code ?page=} asks for pages. */
    private static FleetSnapshot api() {
        return FleetSnapshot.of(Stapler.getCurrentRequest2(), 0);
    }

    /** The label expression the rows are filtered by ({@code ?label=...}), or "" for all. */
    @Exported
    public String getLabel() {
        return api().label;
    }

    /** Why the label expression was not understood, or null. */
    @Exported
    @CheckForNull
    public String getLabelError() {
        return api().labelError;
    }

    /** Why {@code state}, {@code sort}, {@code page} or {@code size} was not understood (then all rows show), or null. */
    @Exported
    @CheckForNull
    public String getQueryError() {
        return api().queryError;
    }

    /** The rows asked for: agents that stand out first, then unknown ones, then the rest (see {@link FleetQuery}). */
    @Exported(inline = true)
    public List<FleetAgentView> getAgents() {
        long now = System.currentTimeMillis();
        return api().page.rows().stream().map(r -> new FleetAgentView(r, now)).toList();
    }

    /** Nodes matching the label filter whose builds cannot protect test jobs in other task groups. */
    @Exported
    public long getStandingOut() {
        return api().summary.cannot();
    }

    /** The counts and the distinct fixes with their agents, over every node matching the label filter. */
    @Exported
    public Map<String, Object> getSummary() {
        return FleetView.summaryMap(api().summary);
    }

    /** Rows matching the filters, page number and pages: {@code agents} holds one page of them. */
    @Exported
    public Map<String, Object> getPaging() {
        FleetPage page = api().page;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("matching", page.matching());
        m.put("page", page.page());
        m.put("pages", page.pages());
        m.put("size", page.size());
        return m;
    }

    /** How many of each job's newest builds are searched for benchmark verdicts. */
    @Exported
    public int getBuildsSearchedPerJob() {
        return FleetBenchmarks.BUILDS_PER_JOB;
    }

    /** One node's page with everything its probe found: {@code agent/NAME/}; null (404) for a node that does not exist. */
    @CheckForNull
    @StaplerDispatchable // the view is a plain bean with an index.jelly: Jenkins routes to it only when told
    public FleetAgentView getAgent(final String name) {
        Node node = name.equals(FleetProbes.BUILT_IN) ? Jenkins.get() : Jenkins.get().getNode(name);
        return node == null ? null : new FleetAgentView(FleetSnapshot.row(node, FleetBenchmarks.scan()), System.currentTimeMillis());
    }

    /** Probes every online node again ({@code node=NAME}: only that one) in the background, then shows the page. */
    @POST
    public HttpResponse doRefresh(@QueryParameter final String node) {
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        if (node == null || node.isBlank()) {
            FleetProbes.get().refreshAll();
        } else {
            Computer c = node.equals(FleetProbes.BUILT_IN) ? Jenkins.get().toComputer() : Jenkins.get().getComputer(node);
            if (c == null) {
                return HttpResponses.errorWithoutStack(404, Messages.Fleet_noSuchNode());
            }
            FleetProbes.get().refresh(c);
        }
        return HttpResponses.redirectToDot();
    }

    /** The same rows as plain text, for scripts: {@code curl .../manage/schedpolicy-fleet/fleet.txt}. */
    @WebMethod(name = "fleet.txt")
    public HttpResponse doFleetTxt() {
        return HttpResponses.text(FleetText.render(api().page.rows(), System.currentTimeMillis()));
    }
}
