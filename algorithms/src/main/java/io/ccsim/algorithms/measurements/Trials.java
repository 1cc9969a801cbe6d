package io.ccsim.algorithms.measurements;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects rows in file order, merging the repeats of one measurement (rows with a {@code trial} field and the same
 * key) into one row with their median time, at the place of the first.
 */
final class Trials {
    /** Rows in file order; null marks the place of a merged measurement. */
    private final List<MeasuredRow> rows = new ArrayList<>();
    private final Map<String, List<MeasuredRow>> trials = new LinkedHashMap<>();

    /** Adds a row that is not a trial. */
    void add(MeasuredRow r) { rows.add(r); }

    /** Adds one trial of the measurement {@code key}. */
    void addTrial(String key, MeasuredRow r) {
        List<MeasuredRow> l = trials.computeIfAbsent(key, k -> new ArrayList<>());
        if (l.isEmpty()) rows.add(null);
        l.add(r);
    }

    /** The rows, each measurement's trials merged by {@link #median}. */
    List<MeasuredRow> rows() {
        List<MeasuredRow> out = new ArrayList<>(rows);
        Iterator<List<MeasuredRow>> merged = trials.values().iterator();
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) == null) out.set(i, median(merged.next()));
        }
        return List.copyOf(out);
    }

    /** The trials of one measurement as one row: the median time, named after the first trial. */
    static MeasuredRow median(List<MeasuredRow> l) {
        MeasuredRow first = l.get(0);
        if (l.size() == 1) return first;
        double m = Median.of(l.stream().mapToDouble(MeasuredRow::timeUs).toArray());
        return first.withTime(first.where() + " (median of " + l.size() + " trials)", m);
    }
}
