package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.SchedPolicyAgent;
import hudson.remoting.Channel;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Agent side: the connection that loaded this copy of the plugin's and the engine's classes. An agent that reconnects in
 * the same JVM loads them again with the new connection, and the earlier copy's registry and its reaper thread stayed for
 * the JVM's life, one more per reconnect; once its connection closes, the earlier copy lets go
 * ({@link SchedPolicyAgent#detach()}), leaving what still runs alone.
 */
final class AgentConnection {
    /** One listener per copy of these classes, that is, per connection. */
    private static final AtomicBoolean WATCHED = new AtomicBoolean();

    private AgentConnection() {
    }

    /** Called in every remoting call that may make the registry; nothing on the controller's own node (no channel). */
    static void watch() {
        Channel channel = Channel.current();
        if (channel != null && WATCHED.compareAndSet(false, true)) {
            channel.addListener(new Channel.Listener() {
                @Override
                public void onClosed(final Channel closed, final IOException cause) {
                    SchedPolicyAgent.detach();
                }
            });
        }
    }
}
