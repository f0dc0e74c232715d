package dev.schedpolicy.engine.policy;

import java.util.Locale;
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
        Policy.Builder b = Policy.builder();
        for (String raw : text.trim().toLowerCase(Locale.ROOT).split("\\+", -1)) {
            applyToken(b, raw.trim(), text);
        }
        return b.build();
    }

    private static void applyToken(final Policy.Builder b, final String token, final String whole) {
        switch (token) {
            case "default", "none" -> {
                return;
            }
            case "normal", "other" -> {
                b.schedClass(SchedClass.NORMAL);
                return;
            }
            case "batch" -> {
                b.schedClass(SchedClass.BATCH);
                return;
            }
            case "idle" -> {
                b.schedClass(SchedClass.IDLE);
                return;
            }
            case "cpu-idle", "cpuidle" -> {
                b.cpuIdle(true);
                return;
            }
            case "no-cpu-idle" -> {
                b.cpuIdle(false);
                return;
            }
            case "warn" -> {
                b.onUnsupported(OnUnsupported.WARN);
                return;
            }
            case "fail" -> {
                b.onUnsupported(OnUnsupported.FAIL);
                return;
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
            return;
        }
        Matcher realtime = REALTIME.matcher(token);
        if (realtime.matches()) {
            b.schedClass(realtime.group(1).equals("fifo") ? SchedClass.FIFO : SchedClass.RR);
            b.rtPriority(realtime.group(2) == null ? null : Integer.parseInt(realtime.group(2)));
            return;
        }
        if (token.startsWith("io-") || token.startsWith("io=")) {
            b.io(IoPriority.parse(token.substring(3)));
            return;
        }
        if (token.startsWith("cpus=") || token.startsWith("cpus")) {
            b.cpus(CpuList.parse(token.substring(token.startsWith("cpus=") ? 5 : 4)));
            return;
        }
        if (token.equals("deadline")) {
            throw new InvalidPolicyException("SCHED_DEADLINE is not supported; use " + SYNTAX);
        }
        throw new InvalidPolicyException("unknown policy token '" + token + "' in '" + whole + "'; use " + SYNTAX);
    }
}
