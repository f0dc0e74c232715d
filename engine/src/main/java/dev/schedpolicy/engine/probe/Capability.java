package dev.schedpolicy.engine.probe;

/**
 * One thing the probe tried for real on a scratch child.
 *
 * @param name   short name as in the policy syntax (batch, idle, nice19, io-idle, affinity, quota, weight, cpu-idle)
 * @param usable whether the kernel accepted it and read it back
 * @param detail what was tried, or why it failed, in words
 */
public record Capability(String name, boolean usable, String detail) {
}
