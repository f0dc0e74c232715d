package dev.schedpolicy.engine.fleet;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What an administrator does so that builds on an agent protect across task groups.
 *
 * @param title   the fix in a few words, the same for every agent it applies to ("Create the idle parent"), so the
 *                fleet's summary can list each distinct fix once with its agents
 * @param command the one command to run on the agent's machine, or null when no command fixes it (the reason says what
 *                would)
 * @param reason  why this is the fix, in words
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Fix(String title, String command, String reason) {
    public Fix {
        if (title == null || title.isBlank() || reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a fix needs a title and a reason");
        }
    }
}
