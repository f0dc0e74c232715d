/**
 * The agent-side facade the Jenkins plugin calls through remoting. Jenkins-free: every value that
 * crosses the wire or is persisted in a build is a plain {@link java.io.Serializable} class of this
 * package holding strings, numbers and {@link java.util.ArrayList}s (no records, no engine types), so
 * Jenkins' class filter needs to allow only this package's classes.
 *
 * <p>A parked launch needs two remoting calls (prepare before Jenkins starts the process, release
 * after); {@link dev.schedpolicy.engine.agent.HandshakeRegistry} keeps the state between them in the
 * agent JVM and aborts what is never released.
 */
package dev.schedpolicy.engine.agent;
