package io.ccsim.scenarios.diagnosis;

/**
 * One flight-recorder entry, as PyTorch's NCCL flight recorder keeps them
 * (torch/csrc/distributed/c10d/FlightRecorder.hpp: record_id, pg_id, collective_seq_id, profiling
 * name, input/output sizes, dtypes, state scheduled/started/completed, time_created/started/
 * completed). Times in ps, -1 when not reached.
 *
 * @param recordId      per-rank record counter
 * @param group         process group name
 * @param collectiveSeq the group's collective sequence id (1-based, as SeqNum in WorkNCCL)
 * @param op            PyTorch OpType (ALLREDUCE, ...)
 * @param numelIn       input elements
 * @param numelOut      output elements
 * @param dtype         element type
 * @param state         scheduled, started, completed, timed_out, aborted
 * @param createdPs     when the work was enqueued
 * @param startedPs     when the kernel started
 * @param completedPs   when it completed
 * @param checksum      checksum of the rank's output, or null if not taken
 */
public record FrEntry(long recordId, String group, long collectiveSeq, String op, long numelIn, long numelOut,
                      String dtype, String state, long createdPs, long startedPs, long completedPs, Long checksum) {

    public FrEntry withState(String s, long startedPs, long completedPs, Long checksum) {
        return new FrEntry(recordId, group, collectiveSeq, op, numelIn, numelOut, dtype, s, createdPs,
                startedPs, completedPs, checksum);
    }
}
