package io.ccsim.algorithms.measurements;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Measurements#read} found in one file.
 *
 * @param rows    the measured rows, in file order (repeated trials merged into one row each)
 * @param skipped how many rows were left out and why, for the user; empty if none
 * @param notes   what the file's times hold that the simulation does not, each a sentence for the user (an nccl-tests
 *                log whose thread launched several GPUs' calls eagerly: {@link NcclTestsRows#hostLaunchNote}); none
 *                where nothing is known
 */
public record MeasuredFile(List<MeasuredRow> rows, String skipped, List<String> notes) {
    public MeasuredFile {
        rows = List.copyOf(rows);
        Objects.requireNonNull(skipped, "skipped");
        notes = List.copyOf(notes);
    }

    /** A file whose times hold nothing the simulation leaves out, as far as it says. */
    public MeasuredFile(List<MeasuredRow> rows, String skipped) {
        this(rows, skipped, List.of());
    }
}
