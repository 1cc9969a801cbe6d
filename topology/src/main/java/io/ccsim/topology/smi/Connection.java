package io.ccsim.topology.smi;

import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One cell of the matrix: how two devices are connected.
 *
 * @param level   the connection level
 * @param nvlinks number of bonded NVLinks for {@link Level#NV}, >= 1; 0 for every other level
 */
record Connection(Level level, int nvlinks) {

    /** Connection levels of the nvidia-smi legend, nearest first. */
    enum Level {
        /** The device itself (the diagonal). */
        X,
        /** A bonded set of NVLinks ({@code NV#}). */
        NV,
        /** At most one PCIe bridge: the same PCIe switch. */
        PIX,
        /** Several PCIe bridges, no host bridge: switches under a common upper switch. */
        PXB,
        /** Through a PCIe host bridge (the CPU). */
        PHB,
        /** Between PCIe host bridges of one NUMA node. */
        NODE,
        /** Across the SMP interconnect between NUMA nodes ({@code SOC} on older drivers). */
        SYS
    }

    /** The cell values accepted by {@link #parse}, for error messages. */
    static final String VALID = "X, NV<n>, PIX, PXB, PHB, NODE, SYS (or SOC)";

    private static final Pattern NV = Pattern.compile("NV(\\d+)");

    /** The most NVLinks a GPU has (NVLink4 and NVLink5: H100, H200, B200 have 18), so the most one cell can bond. */
    static final int MAX_NVLINKS = 18;

    /**
     * Reads a cell.
     *
     * @param cell    the cell's text
     * @param invalid makes the exception thrown for {@code NV0} or an unknown value from a message that
     *                lists what is valid (the caller adds the position)
     */
    static Connection parse(String cell, Function<String, ? extends RuntimeException> invalid) {
        Matcher nv = NV.matcher(cell);
        if (nv.matches()) {
            String digits = nv.group(1);
            int n = digits.length() > 3 ? Integer.MAX_VALUE : Integer.parseInt(digits);
            if (n < 1 || n > MAX_NVLINKS) {
                throw invalid.apply("'" + cell + "': " + (n < 1 ? "a bonded set has at least one NVLink" : "a GPU has at most "
                        + MAX_NVLINKS + " NVLinks") + "; valid: NV1 to NV" + MAX_NVLINKS);
            }
            return new Connection(Level.NV, n);
        }
        return switch (cell) {
            case "X" -> new Connection(Level.X, 0);
            case "PIX" -> new Connection(Level.PIX, 0);
            case "PXB" -> new Connection(Level.PXB, 0);
            case "PHB" -> new Connection(Level.PHB, 0);
            case "NODE" -> new Connection(Level.NODE, 0);
            case "SYS", "SOC" -> new Connection(Level.SYS, 0);
            default -> throw invalid.apply("unknown connection '" + cell + "'; valid: " + VALID);
        };
    }

    /** Whether the devices are nearer than {@code SYS}: on one NUMA node. */
    boolean belowSys() {
        return level.ordinal() < Level.SYS.ordinal();
    }

    /** The cell as nvidia-smi prints it ({@code SOC} reads back as {@code SYS}). */
    String label() {
        return level == Level.NV ? "NV" + nvlinks : level.name();
    }
}
