package io.ccsim.algorithms.plan;

/** Thrown when no planner exists for an (op, algorithm) pair; the message names the supported algorithms. */
public class UnsupportedAlgorithmException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnsupportedAlgorithmException(String message) {
        super(message);
    }
}
