package io.ccsim.topology.smi;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The NUMA node (CPU node) of every device of a matrix.
 *
 * <p>A GPU's node is its "NUMA Affinity" number; without one (or {@code N/A}), GPUs with the same "CPU
 * Affinity" share a node, numbered in order of first appearance; without either, all GPUs share one. A
 * NIC takes the node of the first GPU it reaches below {@code SYS}; else the node of the last NIC below
 * {@code SYS} of it that already has one; else a node of its own after the GPUs' (node 0 if there are
 * no GPUs).
 */
final class NumaAssignment {

    private NumaAssignment() {
    }

    /**
     * Assigns nodes.
     *
     * @param m    the matrix
     * @param gpus device indices of the GPUs, in column order
     * @param nics device indices of the NICs, in column order
     * @return the node of every device, indexed like {@code m}'s devices, each >= 0
     * @throws IllegalArgumentException at a GPU row whose NUMA Affinity is neither a number >= 0 nor N/A
     */
    static int[] assign(SmiMatrix m, List<Integer> gpus, List<Integer> nics) {
        int[] numa = new int[m.size()];
        Arrays.fill(numa, -1);
        Map<String, Integer> numaOfKey = new LinkedHashMap<>();
        for (int g : gpus) {
            String key = m.numaAffinity(g) != null && !m.numaAffinity(g).equals("N/A") ? "numa:" + m.numaAffinity(g)
                    : m.cpuAffinity(g) != null && !m.cpuAffinity(g).equals("N/A") ? "cpus:" + m.cpuAffinity(g)
                    : "single";
            Integer id = numaOfKey.get(key);
            if (id == null) {
                id = key.startsWith("numa:") ? parseNuma(m, key.substring(5), m.rowLine(g)) : numaOfKey.size();
                numaOfKey.put(key, id);
            }
            numa[g] = id;
        }
        int nextNuma = numaOfKey.values().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
        for (int n : nics) {
            for (int g : gpus) {
                if (m.at(n, g).belowSys()) {
                    numa[n] = numa[g];
                    break;
                }
            }
            if (numa[n] == -1) {
                for (int o : nics) {
                    if (o != n && numa[o] != -1 && m.at(n, o).belowSys()) {
                        numa[n] = numa[o];
                    }
                }
                if (numa[n] == -1) {
                    numa[n] = gpus.isEmpty() ? 0 : nextNuma++;
                }
            }
        }
        return numa;
    }

    private static int parseNuma(SmiMatrix m, String s, int line) {
        try {
            int v = Integer.parseInt(s);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        int column = m.text().line(line).indexOf(s) + 1;
        throw m.text().error(line, column, "NUMA Affinity must be a NUMA node number >= 0 or N/A, got '" + s + "'");
    }
}
