package io.ccsim.algorithms.perf;

/**
 * A simulated collective that can never complete: the simulation ran out of events with workers still waiting, which
 * on a healthy topology does not happen and on a faulty one means a link that is down carries one of its transfers.
 * The message names the plan and the first workers still waiting, with what each waits for.
 */
public final class StalledRunException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** A stall described by {@code message}. */
    public StalledRunException(String message) {
        super(message);
    }
}
