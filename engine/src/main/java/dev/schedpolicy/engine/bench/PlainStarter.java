package dev.schedpolicy.engine.bench;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** Starts processes without any policy: only {@code default} is accepted. For tests and the baseline. */
public final class PlainStarter implements ProcessStarter {
    @Override
    public Started start(final ProcessBuilder builder, final BenchPolicy policy) throws IOException {
        if (!policy.isDefault() && !policy.label().startsWith("default@")) {
            throw new IllegalArgumentException("policy '" + policy.label() + "' needs the engine launcher");
        }
        Process p = builder.start();
        return new Started() {
            @Override
            public Process process() {
                return p;
            }

            @Override
            public String applied() {
                return "default";
            }

            @Override
            public List<String> warnings() {
                return List.of();
            }

            @Override
            public Optional<Throttling> throttling() {
                return Optional.empty();
            }

            @Override
            public void close() {
                ProcessStarter.killTree(p);
            }
        };
    }

    @Override
    public void validate(final String label) {
        if (!label.trim().toLowerCase(java.util.Locale.ROOT).matches("[a-z0-9][a-z0-9+=,:-]*")) {
            throw new IllegalArgumentException("'" + label + "' is not a policy; use e.g. default, nice19, idle, quota50");
        }
    }
}
