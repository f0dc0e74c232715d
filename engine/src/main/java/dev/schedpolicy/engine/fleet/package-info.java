/**
 * The fleet view's model: one {@link dev.schedpolicy.engine.fleet.AgentSummary} per agent, made on the agent from
 * the probe, and the rules that decide whether an agent can protect test jobs across task groups, what stands out and
 * the one command that fixes it. The Jenkins page, its JSON and its text form only show these.
 */
package dev.schedpolicy.engine.fleet;
