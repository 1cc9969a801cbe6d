package io.ccsim.algorithms.scale;

/** A call whose choice at the target has no {@link ScalingLaw}; the message says which choice and why. */
public final class NotExtrapolatedException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public NotExtrapolatedException(String message) {
        super(message);
    }
}
