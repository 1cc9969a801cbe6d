package io.ccsim.algorithms.scale;

/**
 * A call whose choice at the target is not extrapolated: it has no {@link ScalingLaw}, or the target is too small for
 * its law's samples ({@link #tooSmall}); the message says which choice and why.
 */
public final class NotExtrapolatedException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final boolean tooSmall;

    public NotExtrapolatedException(String message) {
        this(message, false);
    }

    /** @param tooSmall whether the choice has a law but the target is too small for its samples (the message says from how many nodes it applies) */
    public NotExtrapolatedException(String message, boolean tooSmall) {
        super(message);
        this.tooSmall = tooSmall;
    }

    /** Whether the choice has a law but the target is too small for its samples; the message then names what is valid. */
    public boolean tooSmall() { return tooSmall; }
}
