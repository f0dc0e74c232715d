package dev.schedpolicy.engine.fleet;

/**
 * One probe of an agent as the controller keeps it: the summary, or why there is none.
 *
 * @param summary        what the agent reported, or null when the probe failed
 * @param error          why the probe failed (timeout, agent gone, exception), or null
 * @param finishedMillis when the answer came (or the probe gave up)
 * @param tookMillis     how long the probe took, remoting included
 */
public record ProbeResult(AgentSummary summary, String error, long finishedMillis, long tookMillis) {
    public ProbeResult {
        if ((summary == null) == (error == null)) {
            throw new IllegalArgumentException("a probe result has either a summary or an error");
        }
    }

    public static ProbeResult of(final AgentSummary summary, final long finishedMillis, final long tookMillis) {
        return new ProbeResult(summary, null, finishedMillis, tookMillis);
    }

    public static ProbeResult failed(final String error, final long finishedMillis, final long tookMillis) {
        return new ProbeResult(null, error, finishedMillis, tookMillis);
    }

    /** Seconds since the answer, never negative (clocks of a restored controller may step back). */
    public long ageSeconds(final long nowMillis) {
        return Math.max(0, (nowMillis - finishedMillis) / 1000);
    }
}
