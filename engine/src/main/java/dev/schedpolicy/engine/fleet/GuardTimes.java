package dev.schedpolicy.engine.fleet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fleet view's guard column: per agent, how long guards acted there (guarded steps had others lowered) and how long
 * other builds' launches yielded to them, over the builds a viewer may read.
 *
 * @param actingMillis  time guards on the agent had something lowered, all guarded blocks together
 * @param yieldedMillis time the agent's launches spent lowered by a guard, all lowered builds together
 */
public record GuardTimes(long actingMillis, long yieldedMillis) {
    /** One build's figure on one agent: {@code acting} from a guarded block, {@code yielded} from a lowered build. */
    public record Entry(String agent, long actingMillis, long yieldedMillis) {
    }

    /** The entries added up per agent, in the order agents first appear. */
    public static Map<String, GuardTimes> perAgent(final List<Entry> entries) {
        Map<String, GuardTimes> out = new LinkedHashMap<>();
        for (Entry e : entries) {
            out.merge(e.agent(), new GuardTimes(e.actingMillis(), e.yieldedMillis()),
                    (a, b) -> new GuardTimes(a.actingMillis + b.actingMillis, a.yieldedMillis + b.yieldedMillis));
        }
        return out;
    }

    /** "acted 20.0 s, yielded 41.0 s": guards on the agent, and its launches. */
    public String text() {
        return String.format(Locale.ROOT, "acted %.1f s, yielded %.1f s", actingMillis / 1000.0,
                yieldedMillis / 1000.0);
    }
}
