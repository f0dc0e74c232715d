package dev.schedpolicy.cli;

/** Exit codes of schedpolicy itself; a wrapped command's own status passes through unchanged. */
public final class ExitCodes {
    public static final int OK = 0;
    /** Internal error (a bug or an unexpected system failure). */
    public static final int SOFTWARE = 1;
    /** Bad options or arguments, with a one-line message. */
    public static final int USAGE = 2;
    /** The policy could not be applied or did not read back; the command did not run. The park shim uses it too. */
    public static final int POLICY_NOT_APPLIED = 125;
    /** The command exists but cannot be executed, as in POSIX shells. */
    public static final int NOT_EXECUTABLE = 126;
    /** The command was not found, as in POSIX shells. */
    public static final int NOT_FOUND = 127;

    private ExitCodes() {
    }
}
