package dev.schedpolicy.engine.policy;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The administrator's default policy as a floor: a policy written by a build author may lower
 * priority further, field by field, but where it would run higher than the default (a normal class
 * under an idle default, nice 0 under nice 10, a larger quota, a heavier weight than an idle group,
 * more CPUs) the default's value is kept ("higher" in {@link Favour}'s order). Fields the floor leaves unset are
 * the author's alone.
 * {@code onUnsupported} is not a priority and stays the author's.
 */
public final class PolicyFloor {
    private PolicyFloor() {
    }

    /** The policy to run and, for every field the floor kept, one sentence saying so. */
    public record Floored(Policy policy, List<String> kept) {
        public Floored {
            kept = List.copyOf(kept);
        }
    }

    /**
     * @param floor  the administrator's default (may be {@link Policy#DEFAULT})
     * @param wanted the author's policy, already merged over the floor (unset fields inherited)
     */
    public static Floored apply(final Policy floor, final Policy wanted) {
        return apply(floor, wanted, "the administrator's default");
    }

    /**
     * The same for a floor named {@code whose} in what it kept, e.g. {@code the guard's}.
     */
    public static Floored apply(final Policy floor, final Policy wanted, final String whose) {
        Policy.Builder b = wanted.toBuilder();
        List<String> kept = new ArrayList<>();
        if (floor.schedClass().isPresent() && wanted.schedClass().isPresent()
                && Favour.cpuRank(wanted.schedClass().get().kernelValue()) > Favour.cpuRank(floor.schedClass().get().kernelValue())) {
            b.schedClass(floor.schedClass().get()).rtPriority(floor.rtPriority().isPresent() ? floor.rtPriority().getAsInt() : null);
            kept.add(keptWords(whose, "class " + floor.schedClass().get().label(), "class " + wanted.schedClass().get().label()));
        }
        if (floor.nice().isPresent() && wanted.nice().isPresent() && wanted.nice().getAsInt() < floor.nice().getAsInt()) {
            b.nice(floor.nice().getAsInt());
            kept.add(keptWords(whose, "nice " + floor.nice().getAsInt(), "nice " + wanted.nice().getAsInt()));
        }
        if (floor.io().isPresent() && wanted.io().isPresent()
                && Favour.ioRank(wanted.io().get().kernelValue()) > Favour.ioRank(floor.io().get().kernelValue())) {
            b.io(floor.io().get());
            kept.add(keptWords(whose, "I/O " + floor.io().get(), "I/O " + wanted.io().get()));
        }
        if (floor.cpuQuotaPercent().isPresent() && (wanted.cpuQuotaPercent().isEmpty()
                || wanted.cpuQuotaPercent().getAsInt() > floor.cpuQuotaPercent().getAsInt())) {
            b.cpuQuotaPercent(floor.cpuQuotaPercent().getAsInt());
            kept.add(keptWords(whose, "quota " + floor.cpuQuotaPercent().getAsInt() + "%", wanted.cpuQuotaPercent().isEmpty()
                    ? "no quota" : "quota " + wanted.cpuQuotaPercent().getAsInt() + "%"));
        }
        if (share(floor) >= 0 && (share(wanted) < 0 || share(wanted) > share(floor))) {
            b.cpuIdle(floor.cpuIdleSetting().orElse(null)).cpuWeight(floor.cpuWeight().isPresent() ? floor.cpuWeight().getAsInt() : null);
            kept.add(keptWords(whose, shareWords(floor), shareWords(wanted)));
        }
        if (floor.cpus().isPresent() && !subset(wanted, floor)) {
            b.cpus(floor.cpus().get());
            kept.add(keptWords(whose, "cpus " + floor.cpus().get(), wanted.cpus().map(c -> "cpus " + c).orElse("all CPUs")));
        }
        return new Floored(b.build(), kept);
    }

    /** The group's CPU share: 0 for an idle group, the weight, or -1 when the policy says nothing. */
    private static int share(final Policy p) {
        if (p.cpuIdle()) {
            return 0;
        }
        if (p.cpuWeight().isPresent()) {
            return p.cpuWeight().getAsInt();
        }
        return p.cpuIdleSetting().isPresent() ? 100 : -1;
    }

    private static String shareWords(final Policy p) {
        if (p.cpuIdle()) {
            return "an idle cpu group";
        }
        return p.cpuWeight().isPresent() ? "cpu weight " + p.cpuWeight().getAsInt() : "no cpu group";
    }

    private static boolean subset(final Policy wanted, final Policy floor) {
        if (wanted.cpus().isEmpty()) {
            return false;
        }
        BitSet extra = wanted.cpus().get().toBitSet();
        extra.andNot(floor.cpus().get().toBitSet());
        return extra.isEmpty();
    }

    private static String keptWords(final String whose, final String floorPart, final String wantedPart) {
        return whose + " " + floorPart + " is a floor: " + wantedPart
                + " would raise priority above it, so " + floorPart + " is kept";
    }
}
