package dev.schedpolicy.engine.fleet;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Which rows of the fleet view to show, in which order, one page at a time: what a page of 1,000 agents needs to stay
 * small and quick. Read from the request's parameters ({@code state}, {@code sort}, {@code fix}, {@code page},
 * {@code size}); a bad value is refused with the allowed ones.
 *
 * @param state which agents: all, those that cannot protect, ...
 * @param sort  the order
 * @param fix   only the agents with this fix ({@link FleetSummary.FixGroup#id}), or null
 * @param page  1-based
 * @param size  rows per page; 0 for all
 */
public record FleetQuery(State state, Sort sort, String fix, int page, int size) {
    /** Rows per page on the page; the JSON and text forms give all unless asked. */
    public static final int PAGE_SIZE = 50;
    public static final int MAX_PAGE_SIZE = 1000;

    public FleetQuery {
        if (page < 1 || size < 0 || size > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page must be 1 or more and size 0 (all) to " + MAX_PAGE_SIZE);
        }
    }

    /** Filters by what the last probe says. */
    public enum State {
        ALL(r -> true),
        /** builds there cannot protect test jobs in other task groups */
        CANNOT(FleetRow::standsOut),
        PROTECTS(r -> r.summary() != null && !r.standsOut()),
        /** never probed, or the last probe failed */
        UNKNOWN(r -> r.summary() == null),
        OFFLINE(r -> !r.online());

        private final Predicate<FleetRow> test;

        State(final Predicate<FleetRow> test) {
            this.test = test;
        }

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Orders rows; each ends with the node's name, so pages are stable. */
    public enum Sort {
        /** those that need an administrator first ({@link FleetRow#ORDER}) */
        ATTENTION(FleetRow.ORDER),
        NAME(Comparator.comparing(FleetRow::node)),
        LABELS(Comparator.comparing((FleetRow r) -> String.join(" ", r.labels())).thenComparing(FleetRow::node)),
        /** task group, agent group, machine, unknown */
        REACH(Comparator.comparingInt((FleetRow r) -> r.summary() == null ? Integer.MAX_VALUE : -r.summary().reach().ordinal())
                .thenComparing(FleetRow::node)),
        /** the oldest probe first, never probed before all */
        PROBED(Comparator.comparingLong((FleetRow r) -> r.probe() == null ? Long.MIN_VALUE : r.probe().finishedMillis())
                .thenComparing(FleetRow::node));

        private final Comparator<FleetRow> order;

        Sort(final Comparator<FleetRow> order) {
            this.order = order;
        }

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Every agent, those that need an administrator first, all at once. */
    public static FleetQuery all() {
        return new FleetQuery(State.ALL, Sort.ATTENTION, null, 1, 0);
    }

    /**
     * @param defaultSize rows per page when {@code size} is not given ({@link #PAGE_SIZE} on the page, 0 for the API)
     * @throws IllegalArgumentException for a value that is not allowed, saying which are
     */
    public static FleetQuery parse(final String state, final String sort, final String fix, final String page, final String size,
            final int defaultSize) {
        return new FleetQuery(choice(State.class, "state", state, State.ALL), choice(Sort.class, "sort", sort, Sort.ATTENTION),
                blank(fix) ? null : fix.strip(), number("page", page, 1), number("size", size, defaultSize));
    }

    public FleetPage apply(final List<FleetRow> rows) {
        List<FleetRow> matching = rows.stream().filter(state.test)
                .filter(r -> fix == null || r.standsOut() && FleetSummary.fixId(r.summary().fix()).equals(fix))
                .sorted(sort.order).toList();
        int pages = size == 0 ? 1 : Math.max(1, (matching.size() + size - 1) / size);
        int shown = Math.min(page, pages);
        List<FleetRow> slice = size == 0 ? matching
                : matching.subList((shown - 1) * size, Math.min(matching.size(), shown * size));
        return new FleetPage(slice, matching.size(), shown, pages, size == 0 ? matching.size() : size);
    }

    private static boolean blank(final String s) {
        return s == null || s.isBlank();
    }

    private static <E extends Enum<E>> E choice(final Class<E> type, final String what, final String value, final E dflt) {
        if (blank(value)) {
            return dflt;
        }
        try {
            return Enum.valueOf(type, value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " '" + value.strip() + "' is not one of " + Arrays.stream(type.getEnumConstants())
                    .map(c -> c.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")), e);
        }
    }

    private static int number(final String what, final String value, final int dflt) {
        if (blank(value)) {
            return dflt;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " '" + value.strip() + "' is not a whole number", e);
        }
    }
}
