package io.ccsim.topology.smi;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A parsed {@code nvidia-smi topo -m} matrix: the devices (the header's columns, in order), the
 * symmetric connection of every pair, each row's affinity columns and the names of the NIC Legend.
 * Device {@code i} is column {@code i} and row {@code i}. Built by {@link SmiMatrixParser}; immutable.
 */
final class SmiMatrix {

    private static final Pattern GPU = Pattern.compile("GPU(\\d{1,4})");

    private final SmiText text;
    private final List<String> devices;
    private final Connection[][] cells;
    private final String[] cpuAffinity;
    private final String[] numaAffinity;
    private final int[] rowLine;
    private final Map<String, String> nicNames;

    SmiMatrix(SmiText text, List<String> devices, Connection[][] cells, String[] cpuAffinity,
              String[] numaAffinity, int[] rowLine, Map<String, String> nicNames) {
        this.text = text;
        this.devices = List.copyOf(devices);
        this.cells = cells;
        this.cpuAffinity = cpuAffinity;
        this.numaAffinity = numaAffinity;
        this.rowLine = rowLine;
        this.nicNames = Map.copyOf(nicNames);
    }

    /** Whether a header label names a GPU ({@code GPU<n>}); every other column is a NIC. */
    static boolean isGpuLabel(String label) {
        return GPU.matcher(label).matches();
    }

    /** The text the matrix was read from, for errors that point into it. */
    SmiText text() {
        return text;
    }

    /** Number of devices (columns). */
    int size() {
        return devices.size();
    }

    /** The header label of device {@code i}, e.g. {@code GPU3}, {@code NIC0}, {@code mlx5_0}. */
    String device(int i) {
        return devices.get(i);
    }

    /** How devices {@code a} and {@code b} are connected; {@code X} when {@code a == b}. */
    Connection at(int a, int b) {
        return cells[a][b];
    }

    /** The "CPU Affinity" value of row {@code i}, or {@code null} if the row has none. */
    String cpuAffinity(int i) {
        return cpuAffinity[i];
    }

    /** The "NUMA Affinity" value of row {@code i} (a number or {@code N/A}), or {@code null} if none. */
    String numaAffinity(int i) {
        return numaAffinity[i];
    }

    /** The line (0-based) of row {@code i} in {@link #text()}. */
    int rowLine(int i) {
        return rowLine[i];
    }

    /** The device name that the NIC Legend gives {@code label} ({@code NIC0: mlx5_0}), else the label. */
    String nicName(String label) {
        return nicNames.getOrDefault(label, label);
    }
}
