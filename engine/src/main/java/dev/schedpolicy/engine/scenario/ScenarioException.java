package dev.schedpolicy.engine.scenario;

/** A scenario file that cannot be used; the message starts with {@code file:line:column:}. */
public final class ScenarioException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final int column;

    public ScenarioException(final String file, final int line, final int column, final String message) {
        super(file + ":" + line + ":" + column + ": " + message);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    /** For a scenario that cannot be found at all. */
    public ScenarioException(final String message) {
        super(message);
        this.file = "";
        this.line = 0;
        this.column = 0;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
