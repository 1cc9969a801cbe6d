package io.ccsim.scenarios.incident;

/**
 * A fact read from a file, behind a claim of the diagnosis.
 *
 * @param rank  the rank it is about, -1 if none
 * @param seq   the collective sequence number it is about, -1 if none
 * @param where the file and the place in it ({@code skip/nccl_trace_rank_0 entries[7] (record 7, #8 nccl:all_reduce)})
 * @param text  what it says
 */
public record Evidence(int rank, long seq, String where, String text) {}
