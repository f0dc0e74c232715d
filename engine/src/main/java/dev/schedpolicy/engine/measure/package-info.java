/**
 * Per-step CPU accounting: the CPU time of a launched step's whole process tree and the time it spent runnable but
 * waiting for a CPU (run-queue wait), with who it waited beside. Measuring never changes what a step competes with:
 * the only group it uses is an accounting-only one ({@link dev.schedpolicy.engine.measure.AccountingGroups} says
 * which layouts qualify), never a cpu-controller group of its own.
 */
package dev.schedpolicy.engine.measure;
