package io.ccsim.algorithms.measurements;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Measurements#read} found in one file.
 *
 * @param rows    the measured rows, in file order (repeated trials merged into one row each)
 * @param skipped how many rows were left out and why, for the user; empty if none
 * @param note    what the file's rows measured that ccsim does not simulate, for the user; empty if nothing
 */
public record MeasuredFile(List<MeasuredRow> rows, String skipped, String note) {
    public MeasuredFile {
        rows = List.copyOf(rows);
        Objects.requireNonNull(skipped, "skipped");
        Objects.requireNonNull(note, "note");
    }

    /** A file whose rows measured nothing ccsim leaves out. */
    public MeasuredFile(List<MeasuredRow> rows, String skipped) {
        this(rows, skipped, "");
    }
}
