package io.ccsim.scenarios.store;

/**
 * One store access as the server saw it, for the analyzer: a value read or written under a full
 * key, with the version of the value (1 for the first write of a key, +1 per overwrite) and who
 * wrote that version when.
 *
 * @param timePs     server time of the access, ps
 * @param rank       client rank
 * @param op         SET, GET, ADD, COMPARE_SET, DELETE, TIMEOUT
 * @param key        the full key (with every prefix)
 * @param value      the value written or read (null for a miss)
 * @param version    version of the value read or written (0 when absent)
 * @param writerRank rank that wrote this version (-1 when absent)
 * @param writtenPs  when this version was written, ps (-1 when absent)
 */
public record StoreEvent(long timePs, int rank, String op, String key, String value, long version,
                         int writerRank, long writtenPs) {}
