package dev.schedpolicy.engine.container;

import java.util.Optional;

/**
 * The runtime subcommands that start work in a container: run and create make one, exec joins one, build runs each of
 * a Dockerfile's RUN steps in one the builder makes.
 */
public enum ContainerAction {
    RUN("run"), CREATE("create"), EXEC("exec"), BUILD("build");

    private final String word;

    ContainerAction(final String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }

    static Optional<ContainerAction> of(final String subcommand) {
        for (ContainerAction a : values()) {
            if (a.word.equals(subcommand)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }
}
