package dev.schedpolicy.engine.fleet;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What an administrator does so that builds on an agent protect across task groups.
 *
 * @param command the one command to run on the agent's machine, or null when no command fixes it (the reason says what
 *                would)
 * @param reason  why this is the fix, in words
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Fix(String command, String reason) {
    public Fix {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a fix needs a reason");
        }
    }
}
