package io.ccsim.algorithms.cpu;

/**
 * No step of any unfinished (rank, channel, lane) could make progress: every one waits for a slot
 * that will never be written or freed. The message names each blocked step and what it waits for.
 */
public class PlanDeadlockException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public PlanDeadlockException(String message) {
        super(message);
    }
}
