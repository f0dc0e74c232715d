package dev.schedpolicy.engine.linux;

/**
 * The fields of struct sched_attr this engine reads and writes (include/uapi/linux/sched/types.h).
 *
 * @param policy   kernel policy number (0 other, 3 batch, 5 idle, 1 fifo, 2 rr)
 * @param flags    sched_flags
 * @param nice     sched_nice, applied by the kernel for OTHER and BATCH
 * @param priority sched_priority, 1..99 for FIFO/RR, else 0
 * @param runtime  sched_runtime: the EEVDF slice hint for OTHER/BATCH since 6.12, in ns (0 = default)
 */
public record SchedAttr(int policy, long flags, int nice, int priority, long runtime) {
}
