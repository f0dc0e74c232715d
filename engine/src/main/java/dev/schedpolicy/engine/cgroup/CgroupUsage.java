package dev.schedpolicy.engine.cgroup;

import java.util.OptionalLong;

/**
 * CPU accounting of one cgroup since it was created, from cpu.stat (and cpuacct.usage on v1).
 *
 * @param usageUsec     CPU time used by all its tasks; empty on v1 when no cpuacct group could be kept
 *                      alongside (see {@link CpuCgroup#usage()})
 * @param nrPeriods     enforcement periods that had runnable tasks (only counted while a quota is set)
 * @param nrThrottled   periods in which the group hit its quota
 * @param throttledUsec total time the group was held back by the quota
 */
public record CgroupUsage(OptionalLong usageUsec, long nrPeriods, long nrThrottled, long throttledUsec) {
}
