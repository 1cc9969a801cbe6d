package io.ccsim.cli;

/** A failure caused by the user's input, printed as one line without a stack trace. */
class UserException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UserException(String message) { super(message); }

    UserException(String message, Throwable cause) { super(message, cause); }
}
