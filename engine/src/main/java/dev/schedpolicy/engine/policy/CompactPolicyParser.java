package dev.schedpolicy.engine.policy;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The compact text form: tokens joined by '+', e.g. {@code batch+nice19+io-idle+quota50+warn}. */
final class CompactPolicyParser {
    static final String SYNTAX = "tokens joined by '+': normal|batch|idle, niceN (0..19), io-idle|io-beN (4..7), "
            + "quotaPCT (percent of one CPU), weightW (1..10000), cpu-idle, cpus=LIST, warn|fail; "
            + "e.g. 'idle', 'batch+nice19', 'nice10+io-idle+quota50'";

    private static final Pattern NUMBERED = Pattern.compile("(nice|quota|weight)=?(-?\\d{1,6})");
    private static final Pattern REALTIME = Pattern.compile("(fifo|rr)(?::(\\d{1,3}))?");

    private CompactPolicyParser() {
    }

    static Policy parse(final String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidPolicyException("policy is empty; use " + SYNTAX);
        }
        PolicyText.printable("policy", text);
        Policy.Builder b = Policy.builder();
        Map<String, String> seen = new HashMap<>();
        for (String raw : text.trim().toLowerCase(Locale.ROOT).split("\\+", -1)) {
            String token = raw.trim();
            String field = applyToken(b, token, text);
            String earlier = field == null ? null : seen.putIfAbsent(field, token);
            if (earlier != null) {
                throw new InvalidPolicyException("policy '" + text + "' gives the " + field + " twice ('" + earlier + "' and '"
                        + token + "'); give each part once");
            }
        }
        return b.build();
    }

    /** Applies one token; returns the part it sets (for duplicate detection), or null for 'default'. */
    private static String applyToken(final Policy.Builder b, final String token, final String whole) {
        switch (token) {
            case "default", "none" -> {
                return null;
            }
            case "normal", "other" -> {
                b.schedClass(SchedClass.NORMAL);
                return "scheduling class";
            }
            case "batch" -> {
                b.schedClass(SchedClass.BATCH);
                return "scheduling class";
            }
            case "idle" -> {
                b.schedClass(SchedClass.IDLE);
                return "scheduling class";
            }
            case "cpu-idle", "cpuidle" -> {
                b.cpuIdle(true);
                return "cpu-idle setting";
            }
            case "no-cpu-idle" -> {
                b.cpuIdle(false);
                return "cpu-idle setting";
            }
            case "warn" -> {
                b.onUnsupported(OnUnsupported.WARN);
                return "on-unsupported setting";
            }
            case "fail" -> {
                b.onUnsupported(OnUnsupported.FAIL);
                return "on-unsupported setting";
            }
            default -> {
                // the forms with values follow
            }
        }
        Matcher numbered = NUMBERED.matcher(token);
        if (numbered.matches()) {
            int value = Integer.parseInt(numbered.group(2));
            switch (numbered.group(1)) {
                case "nice" -> b.nice(value);
                case "quota" -> b.cpuQuotaPercent(value);
                default -> b.cpuWeight(value);
            }
            return numbered.group(1).equals("nice") ? "nice value" : "CPU " + numbered.group(1);
        }
        Matcher realtime = REALTIME.matcher(token);
        if (realtime.matches()) {
            b.schedClass(realtime.group(1).equals("fifo") ? SchedClass.FIFO : SchedClass.RR);
            b.rtPriority(realtime.group(2) == null ? null : Integer.parseInt(realtime.group(2)));
            return "scheduling class";
        }
        if (token.startsWith("io-") || token.startsWith("io=")) {
            b.io(IoPriority.parse(token.substring(3)));
            return "I/O priority";
        }
        if (token.startsWith("cpus=") || token.startsWith("cpus")) {
            b.cpus(CpuList.parse(token.substring(token.startsWith("cpus=") ? 5 : 4)));
            return "CPU list";
        }
        if (token.equals("deadline")) {
            throw new InvalidPolicyException("SCHED_DEADLINE is not supported; use " + SYNTAX);
        }
        throw new InvalidPolicyException("unknown policy token '" + token + "' in '" + whole + "'; use " + SYNTAX);
    }
}
