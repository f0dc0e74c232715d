package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.launch.PolicyApplyException;

/** A container launch that must not run as asked; the message says why and what to use instead. */
public class ContainerRefusal extends PolicyApplyException {
    private static final long serialVersionUID = 1L;

    public ContainerRefusal(final String message) {
        super(message);
    }

    public ContainerRefusal(final String message, final Throwable cause) {
        super(message, cause);
    }
}
