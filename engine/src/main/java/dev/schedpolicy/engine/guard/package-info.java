/**
 * The guard: while a latency-sensitive step (a test job) runs, watch how long it waits for a CPU and, when it waits
 * more than a threshold, lower the processes that compete with it; put them back when it ends or stops asking for a
 * CPU. It only ever lowers others and only ever restores what it recorded: it never raises anything, the guarded
 * step included.
 */
package dev.schedpolicy.engine.guard;
