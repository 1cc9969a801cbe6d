package io.ccsim.scenarios.diagnosis;

/**
 * A line of a rank's log: what happened at {@code timePs} (ps since the run started).
 *
 * @param timePs  simulated time, ps
 * @param rank    global rank
 * @param attempt elastic attempt (0 = first launch)
 * @param kind    a short machine-readable tag (INIT_START, STORE_GET, CONNECT_REFUSED, WATCHDOG, ...)
 * @param text    the message, worded as PyTorch/NCCL word it where they have one
 */
public record RankEvent(long timePs, int rank, int attempt, String kind, String text) {}
