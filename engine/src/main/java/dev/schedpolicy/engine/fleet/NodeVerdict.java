package dev.schedpolicy.engine.fleet;

/**
 * The latest benchmark verdict of one topology on one agent, with the build it came from.
 *
 * @param verdict    the topology's verdict
 * @param build      the build's name, e.g. "bench-all #12"
 * @param buildUrl   the benchmark's page in that build, relative to Jenkins' root, e.g.
 *                   "job/bench-all/12/schedpolicy-benchmark-agent1/"
 * @param timeMillis when the build started
 */
public record NodeVerdict(TopologyVerdict verdict, String build, String buildUrl, long timeMillis) {
}
