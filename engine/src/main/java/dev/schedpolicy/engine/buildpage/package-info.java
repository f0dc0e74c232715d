/**
 * The build page's model, made on the controller from what the agents sent: the benchmark's summary per topology
 * ({@link dev.schedpolicy.engine.buildpage.BenchmarkSummary}), its gate and the job's trend, the files a benchmark
 * keeps, and how a measured launch is named ({@link dev.schedpolicy.engine.buildpage.LaunchName}) and marked in the
 * console. Nothing here crosses remoting or touches the system: it depends on neither the agent facade nor the
 * kernel.
 */
package dev.schedpolicy.engine.buildpage;
