package dev.schedpolicy.jenkins;

import java.util.function.Supplier;
import org.kohsuke.stapler.Stapler;
import org.kohsuke.stapler.StaplerRequest2;

/**
 * A figure that depends on what the viewer may read, computed as the viewer once per request (for all of a page's
 * rows) and kept for no other request: a cache shared by viewers would answer each with the permissions of whoever
 * filled it.
 */
final class PerRequest {
    private PerRequest() {
    }

    /** This request's value under {@code key}, computed on first use; outside a request, computed now. */
    @SuppressWarnings("unchecked")
    static <T> T once(final String key, final Supplier<T> compute) {
        StaplerRequest2 req = Stapler.getCurrentRequest2();
        if (req == null) {
            return compute.get();
        }
        T value = (T) req.getAttribute(key);
        if (value == null) {
            value = compute.get();
            req.setAttribute(key, value);
        }
        return value;
    }
}
