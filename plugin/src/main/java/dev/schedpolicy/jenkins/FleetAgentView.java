package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.AgentSummary;
import dev.schedpolicy.engine.fleet.FleetRow;
import dev.schedpolicy.engine.fleet.NodeVerdict;
import dev.schedpolicy.engine.fleet.ProbeResult;
import dev.schedpolicy.engine.probe.Capability;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * One row of the fleet view for the page (index.jelly) and the JSON API: the engine's {@link FleetRow} in Jenkins'
 * export conventions. Nested objects are maps, so {@code api/json} shows them at the default depth.
 */
@ExportedBean(defaultVisibility = 2)
public final class FleetAgentView {
    private final FleetRow row;
    private final long now;

    FleetAgentView(final FleetRow row, final long now) {
        this.row = row;
        this.now = now;
    }

    @CheckForNull
    private AgentSummary summary() {
        return row.summary();
    }

    @Exported
    public String getName() {
        return row.node();
    }

    /** This view's own page below the fleet view, relative to it: {@code agent/NAME/}. */
    public String getDetailsUrl() {
        return "agent/" + hudson.Util.rawEncode(row.node()) + "/";
    }

    /** The reach in the few letters of a table cell ("machine", "agent group", "task group"), or null when unknown. */
    @CheckForNull
    public String getReachShort() {
        AgentSummary s = summary();
        return s == null ? null : s.reach().label();
    }

    /** "cpu-idle under /sys/fs/cgroup/cpu/schedpolicy.idle", or null when unknown. */
    @CheckForNull
    public String getRecommended() {
        AgentSummary s = summary();
        return s == null ? null : s.recommended();
    }

    /** The title of the agent's fix, or null when it needs none (or is unknown). */
    @CheckForNull
    public String getFixTitle() {
        AgentSummary s = summary();
        return s == null || s.fix() == null ? null : s.fix().title();
    }

    /** The node's page, relative to Jenkins' root. */
    public String getUrl() {
        return row.builtIn() ? "computer/(built-in)/" : "computer/" + hudson.Util.rawEncode(row.node()) + "/";
    }

    /** Wait share of this node's launches without a policy over recent builds ({@link FleetWaitShares}); null: none measured. */
    @Exported
    @CheckForNull
    public String getUnloweredWaitShare() {
        return FleetWaitShares.textFor(row.node());
    }

    /** How long guards acted on this node and its launches yielded, over recent builds ({@link FleetGuardTimes}); null: none. */
    @Exported
    @CheckForNull
    public String getGuardTimes() {
        return FleetGuardTimes.textFor(row.node());
    }

    @Exported
    public boolean isBuiltIn() {
        return row.builtIn();
    }

    @Exported
    public List<String> getLabels() {
        return row.labels();
    }

    /** The labels as a person reads them: "linux docker". */
    public String getLabelWords() {
        return String.join(" ", row.labels());
    }

    @Exported
    public boolean isOnline() {
        return row.online();
    }

    @Exported
    public boolean isProbing() {
        return row.probing();
    }

    /** "probed 12 s ago (took 1.2 s)" and the like. */
    @Exported
    public String getProbeState() {
        return row.probeState(now);
    }

    /** Seconds since the last probe answered or gave up; -1 when never probed. */
    @Exported
    public long getProbeAgeSeconds() {
        ProbeResult p = row.probe();
        return p == null ? -1 : p.ageSeconds(now);
    }

    /** How long the last probe took, remoting included, in milliseconds; -1 when never probed. */
    @Exported
    public long getProbeMillis() {
        ProbeResult p = row.probe();
        return p == null ? -1 : p.tookMillis();
    }

    @Exported
    @CheckForNull
    public String getProbeError() {
        ProbeResult p = row.probe();
        return p == null ? null : p.error();
    }

    @Exported
    public boolean isStandsOut() {
        return row.standsOut();
    }

    @Exported
    @CheckForNull
    public String getAgentDefault() {
        return row.agentDefault();
    }

    @Exported
    public String getAgentDefaultSource() {
        return row.agentDefaultSource();
    }

    /** What the probe found, or null when there is no successful probe yet. */
    @Exported
    @CheckForNull
    public Map<String, Object> getAgent() {
        AgentSummary s = summary();
        if (s == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kernel", s.kernel());
        m.put("cpus", s.cpus());
        m.put("user", s.user());
        m.put("euid", s.euid());
        m.put("layout", s.layout());
        m.put("cpuController", s.cpuController());
        m.put("cpuControllerWritable", s.cpuControllerWritable());
        m.put("autogroup", s.autogroup());
        m.put("taskGroup", s.taskGroup());
        m.put("otherProcesses", s.otherProcesses());
        m.put("reach", s.reach().name());
        m.put("reachWords", s.reach().words());
        return m;
    }

    @Exported
    public List<Map<String, Object>> getCapabilities() {
        AgentSummary s = summary();
        return s == null ? List.of() : s.capabilities().stream().map(FleetAgentView::capability).toList();
    }

    private static Map<String, Object> capability(final Capability c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        m.put("usable", c.usable());
        m.put("detail", c.detail());
        return m;
    }

    @Exported
    @CheckForNull
    public Map<String, Object> getIdleParent() {
        AgentSummary s = summary();
        if (s == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("path", s.idleParent().path());
        m.put("exists", s.idleParent().exists());
        m.put("idle", s.idleParent().idle());
        m.put("usable", s.idleParent().usable());
        m.put("detail", s.idleParent().detail());
        m.put("setupCommand", s.idleParent().setupCommand());
        return m;
    }

    @Exported
    @CheckForNull
    public Map<String, Object> getRecommendation() {
        AgentSummary s = summary();
        if (s == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("policy", s.recommendation().policy());
        m.put("cgroupParent", s.recommendation().cgroupParent());
        m.put("reason", s.recommendation().reason());
        m.put("next", s.recommendation().next());
        return m;
    }

    /**
     * The fix for an agent that stands out: {@code title}, {@code command} (null when no single command does it) and
     * {@code reason}.
     */
    @Exported
    @CheckForNull
    public Map<String, Object> getFix() {
        AgentSummary s = summary();
        if (s == null || s.fix() == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("title", s.fix().title());
        m.put("command", s.fix().command());
        m.put("reason", s.fix().reason());
        return m;
    }

    /** The newest benchmark verdict per topology measured on this node, each with its build. */
    @Exported
    public List<Map<String, Object>> getVerdicts() {
        return row.verdicts().stream().map(FleetAgentView::verdict).toList();
    }

    private static Map<String, Object> verdict(final NodeVerdict v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("topology", v.verdict().topology());
        m.put("protect", v.verdict().protect());
        m.put("fail", v.verdict().fail());
        m.put("line", v.verdict().line());
        m.put("build", v.build());
        m.put("url", v.buildUrl());
        m.put("timestamp", v.timeMillis());
        return m;
    }
}
