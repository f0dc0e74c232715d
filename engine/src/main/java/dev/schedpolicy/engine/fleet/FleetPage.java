package dev.schedpolicy.engine.fleet;

import java.util.List;

/**
 * One page of the fleet view's rows.
 *
 * @param rows     the rows on this page, in order
 * @param matching how many rows match the filters, on all pages
 * @param page     this page, 1-based (a page past the end shows the last)
 * @param pages    how many pages there are, at least 1
 * @param size     rows per page
 */
public record FleetPage(List<FleetRow> rows, int matching, int page, int pages, int size) {
    public FleetPage {
        rows = List.copyOf(rows);
    }

    /** "rows 51-100 of 1000" */
    public String rangeWords() {
        if (matching == 0) {
            return "no rows";
        }
        int from = (page - 1) * size + 1;
        return "rows " + from + "-" + (from + rows.size() - 1) + " of " + matching;
    }
}
