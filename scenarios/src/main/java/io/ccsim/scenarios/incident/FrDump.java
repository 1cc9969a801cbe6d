package io.ccsim.scenarios.incident;

import java.util.List;
import java.util.Map;

/**
 * One rank's PyTorch flight-recorder dump, pickle or JSON, as {@link FlightRecorderDumps} reads it.
 *
 * @param file        where it was read, for evidence
 * @param rank        the global rank that wrote it (from the file name, as torchfrtrace takes it)
 * @param version     the dump format version ({@code "2.10"})
 * @param groups      the process groups of {@code pg_config} and {@code pg_status}, by group name, in pg_config order
 * @param withEntries whether the dump holds an {@code entries} list (a JSON dump of a rank with nothing pending has none)
 * @param entries     the entries, in record order
 */
public record FrDump(String file, int rank, String version, Map<String, Group> groups, boolean withEntries, List<Entry> entries) {
    public FrDump {
        groups = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(groups));   // pg_config order
        entries = List.copyOf(entries);
    }

    /** Whether an entry of the dump is not completed (scheduled or started): what was pending when it was written. */
    public boolean hasPending() {
        for (Entry e : entries) if (!e.state().equals("completed")) return true;
        return false;
    }

    /**
     * A process group as the dump describes it.
     *
     * @param name          the group's name ({@code process_group[0]} of its entries)
     * @param desc          its description ({@code default_pg})
     * @param ranks         its global ranks, in group-rank order; empty where the dump does not list them
     * @param lastEnqueued  {@code pg_status.last_enqueued_collective}, -1 where absent
     * @param lastCompleted {@code pg_status.last_completed_collective}, -1 where absent
     */
    public record Group(String name, String desc, List<Integer> ranks, long lastEnqueued, long lastCompleted) {
        public Group {
            ranks = List.copyOf(ranks);
        }
    }

    /**
     * One flight-recorder entry. Times in ns of the rank's wall clock, -1 where not recorded.
     *
     * @param index         position in the dump's {@code entries}, for evidence
     * @param recordId      {@code record_id}
     * @param group         {@code process_group[0]}: the group's name
     * @param collectiveSeq {@code collective_seq_id} (0 for point-to-point entries)
     * @param p2pSeq        {@code p2p_seq_id}
     * @param op            {@code profiling_name} ({@code nccl:all_reduce})
     * @param numelIn       elements of all input tensors ({@code input_sizes})
     * @param numelOut      elements of all output tensors ({@code output_sizes})
     * @param dtype         the first input dtype ({@code Float}); empty where none
     * @param state         {@code scheduled}, {@code started} or {@code completed}
     * @param createdNs     {@code time_created_ns}
     * @param startedNs     {@code time_discovered_started_ns}
     * @param completedNs   {@code time_discovered_completed_ns}
     * @param timeoutMs     {@code timeout_ms}
     * @param p2p           {@code is_p2p}
     */
    public record Entry(int index, long recordId, String group, long collectiveSeq, long p2pSeq, String op, long numelIn,
                        long numelOut, String dtype, String state, long createdNs, long startedNs, long completedNs,
                        long timeoutMs, boolean p2p) {

        /** {@code entries[3] (record 3, #4 nccl:all_reduce)}: where the entry is, for evidence. */
        public String where() {
            return "entries[" + index + "] (record " + recordId + ", " + (p2p ? "p2p #" + p2pSeq : "#" + collectiveSeq) + " " + op + ")";
        }
    }
}
