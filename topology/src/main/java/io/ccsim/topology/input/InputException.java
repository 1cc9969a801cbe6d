package io.ccsim.topology.input;

/**
 * A file or value given by the user cannot be read. The message is one line that names where (the file, and the
 * line, byte or JSON path), what was wrong and what is valid.
 */
public class InputException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message the whole line shown to the user */
    public InputException(String message) {
        super(message);
    }
}
