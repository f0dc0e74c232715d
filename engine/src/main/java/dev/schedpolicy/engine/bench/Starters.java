package dev.schedpolicy.engine.bench;

/** Defaults for launching workloads. */
final class Starters {
    private Starters() {
    }

    static ProcessStarter defaultStarter() {
        return EngineStarter.defaults();
    }

    static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + "/bin/java");
    }
}
