package io.ccsim.algorithms.measurements;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Measurements#read} found in one file.
 *
 * @param rows    the measured rows, in file order (repeated trials merged into one row each)
 * @param skipped how many rows were left out and why, for the user; empty if none
 */
public record MeasuredFile(List<MeasuredRow> rows, String skipped) {
    public MeasuredFile {
        rows = List.copyOf(rows);
        Objects.requireNonNull(skipped, "skipped");
    }
}
