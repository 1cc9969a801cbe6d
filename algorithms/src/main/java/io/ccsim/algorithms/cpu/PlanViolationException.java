package io.ccsim.algorithms.cpu;

/**
 * A step broke the plan contract: it read or wrote outside a buffer, used a connection the plan
 * does not declare, received a slice of another size or slot count than it expected, or sent more
 * than its slots hold. The message names the rank, channel, lane and step.
 */
public class PlanViolationException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public PlanViolationException(String message) {
        super(message);
    }
}
