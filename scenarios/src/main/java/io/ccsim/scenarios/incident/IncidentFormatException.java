package io.ccsim.scenarios.incident;

/**
 * An incident file that cannot be read as what it looks like (or as anything ccsim knows): the message is one line
 * naming the file, the place in it (entry, JSON path, line) and what was expected.
 */
public final class IncidentFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public IncidentFormatException(String message) { super(message); }

    public IncidentFormatException(String message, Throwable cause) { super(message, cause); }
}
