/**
 * The fleet view's model: one {@link dev.schedpolicy.engine.fleet.AgentSummary} per agent, made on the agent from
 * the probe, and the rules that decide how far builds there give way (by where their groups are made), what stands out
 * and the one command that fixes it; for a large fleet, the {@link dev.schedpolicy.engine.fleet.FleetSummary} (counts
 * and the distinct fixes with their agents), the {@link dev.schedpolicy.engine.fleet.FleetQuery} (state, order, pages)
 * and the {@link dev.schedpolicy.engine.fleet.FleetProbeQueue} (bounded probes in flight, a timeout each). The Jenkins
 * page, its JSON and its text form only show these.
 */
package dev.schedpolicy.engine.fleet;
