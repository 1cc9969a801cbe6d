package io.ccsim.sim;

/**
 * A run was stopped on request ({@link RunControl#requestStop}) before it finished: what it computed so far is all
 * there is. Not an error of the run itself.
 */
public final class RunStoppedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    /** @param reason the reason given with the stop request, e.g. {@code SIGINT} */
    public RunStoppedException(String reason) {
        super("run stopped: " + reason, null, false, false);
        this.reason = reason;
    }

    /** @return the reason given with the stop request */
    public String reason() {
        return reason;
    }
}
