package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.FleetPage;
import dev.schedpolicy.engine.fleet.FleetQuery;
import dev.schedpolicy.engine.fleet.FleetSummary;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.Util;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What index.jelly shows: the summary over every node the label filter keeps, one page of compact rows, and the links
 * that keep the filters while moving between pages. The page reads only this, made once per view.
 */
public final class FleetView {
    private final FleetSnapshot snapshot;
    private final long now;

    FleetView(final FleetSnapshot snapshot, final long now) {
        this.snapshot = snapshot;
        this.now = now;
    }

    public FleetSummary getSummary() {
        return snapshot.summary;
    }

    public FleetPage getPage() {
        return snapshot.page;
    }

    public List<FleetAgentView> getRows() {
        return snapshot.page.rows().stream().map(r -> new FleetAgentView(r, now)).toList();
    }

    public String getLabel() {
        return snapshot.label;
    }

    @CheckForNull
    public String getError() {
        return snapshot.labelError != null ? snapshot.labelError : snapshot.queryError;
    }

    public String getState() {
        return snapshot.query.state().id();
    }

    public String getSort() {
        return snapshot.query.sort().id();
    }

    @CheckForNull
    public String getFix() {
        return snapshot.query.fix();
    }

    /** The title of the fix the rows are filtered by, or null. */
    @CheckForNull
    public String getFixTitle() {
        return snapshot.summary.fixes().stream().filter(g -> g.id().equals(snapshot.query.fix())).map(FleetSummary.FixGroup::title)
                .findFirst().orElse(null);
    }

    public List<String> getStates() {
        return Arrays.stream(FleetQuery.State.values()).map(FleetQuery.State::id).toList();
    }

    public List<String> getSorts() {
        return Arrays.stream(FleetQuery.Sort.values()).map(FleetQuery.Sort::id).toList();
    }

    /** "?label=...&state=cannot&page=2": this view's filters with another page. */
    public String pageLink(final int page) {
        return link(snapshot.query.state().id(), snapshot.query.fix(), page);
    }

    /** The rows of one fix ({@code ?state=cannot&fix=ID}), with the label filter kept. */
    public String fixLink(final String fixId) {
        return link(FleetQuery.State.CANNOT.id(), fixId, 1);
    }

    /** The rows in one state, with the label filter kept. */
    public String stateLink(final String state) {
        return link(state, null, 1);
    }

    private String link(final String state, @CheckForNull final String fix, final int page) {
        StringBuilder q = new StringBuilder("?");
        add(q, "label", snapshot.label);
        add(q, "state", state.equals(FleetQuery.State.ALL.id()) ? "" : state);
        add(q, "sort", snapshot.query.sort() == FleetQuery.Sort.ATTENTION ? "" : snapshot.query.sort().id());
        add(q, "fix", fix);
        add(q, "size", snapshot.query.size() == FleetQuery.PAGE_SIZE ? "" : Integer.toString(snapshot.query.size()));
        add(q, "page", page == 1 ? "" : Integer.toString(page));
        return q.length() == 1 ? "." : q.substring(0, q.length() - 1);
    }

    private static void add(final StringBuilder q, final String name, @CheckForNull final String value) {
        if (value != null && !value.isEmpty()) {
            q.append(name).append('=').append(Util.rawEncode(value)).append('&');
        }
    }

    /** The summary for {@code api/json}. */
    static Map<String, Object> summaryMap(final FleetSummary s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nodes", s.nodes());
        m.put("protect", s.protect());
        m.put("cannot", s.cannot());
        m.put("unknown", s.unknown());
        m.put("offline", s.offline());
        m.put("fixes", s.fixes().stream().map(g -> {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("id", g.id());
            f.put("title", g.title());
            f.put("command", g.command());
            f.put("example", g.example());
            f.put("nodes", g.nodes());
            return f;
        }).toList());
        return m;
    }
}
