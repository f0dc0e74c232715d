package dev.schedpolicy.engine.proc;

/**
 * The "some" line of a PSI file (/proc/pressure/cpu or a cgroup's cpu.pressure).
 *
 * @param avg10       percent of the last 10 s in which some task waited
 * @param totalMicros total stall time since boot, in microseconds
 */
public record Pressure(double avg10, long totalMicros) {
    public static Pressure parseSome(final String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("some ")) {
                double avg10 = 0;
                long total = 0;
                for (String kv : line.substring(5).trim().split("\\s+")) {
                    String[] p = kv.split("=", 2);
                    if (p[0].equals("avg10")) {
                        avg10 = Double.parseDouble(p[1]);
                    } else if (p[0].equals("total")) {
                        total = Long.parseLong(p[1]);
                    }
                }
                return new Pressure(avg10, total);
            }
        }
        throw new IllegalArgumentException("no 'some' line in pressure file: " + text);
    }
}
