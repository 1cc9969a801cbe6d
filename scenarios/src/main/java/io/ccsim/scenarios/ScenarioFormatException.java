package io.ccsim.scenarios;

/**
 * A malformed scenario file: the message names the source, the JSON path of the offending value
 * ({@code $.faults[2].link}), what was wrong and what is valid.
 */
public final class ScenarioFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String path;

    public ScenarioFormatException(String source, String path, String message) {
        super(io.ccsim.topology.input.InputException.oneLine(source + ": " + path + ": " + message));
        this.path = path;
    }

    /** The JSON path of the offending value. */
    public String path() { return path; }
}
