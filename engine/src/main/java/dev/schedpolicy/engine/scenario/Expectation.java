package dev.schedpolicy.engine.scenario;

import java.util.List;
import java.util.Objects;

/**
 * What a scenario expects in one topology: words for the reader, with only the references (seed articles, our
 * own measurements) that were measured in that topology, and the claims the report checks against the run.
 * Kept per topology because the same policy protects in one and not in another: SCHED_IDLE keeps a victim in the
 * same task group at 95% and one in another cgroup at the default's share.
 *
 * @param text   one or two sentences, printed under the topology's verdict
 * @param claims what the run should show, checked cell by cell
 */
public record Expectation(String text, List<Claim> claims) {
    public Expectation {
        Objects.requireNonNull(text, "text");
        claims = List.copyOf(claims);
    }

    /** The claims about a run that did or did not use the machine-wide idle parent. */
    public List<Claim> claimsFor(final boolean idleParent) {
        return claims.stream().filter(c -> c.appliesTo(idleParent)).toList();
    }
}
