package io.ccsim.algorithms.profile;

/**
 * A calibration profile could not be read: the message names the source (file or resource), the JSON
 * path of the offending value ({@code $.protocols.LL.base_latency_us}) and what would be valid.
 */
public final class ProfileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final String jsonPath;

    ProfileException(String source, String jsonPath, String problem) {
        super(io.ccsim.topology.input.InputException.oneLine(source + ": " + jsonPath + ": " + problem));
        this.source = source;
        this.jsonPath = jsonPath;
    }

    /** The file path or resource name the profile was read from. */
    public String source() { return source; }

    /** JSON path of the offending element, {@code $} for the document root. */
    public String jsonPath() { return jsonPath; }
}
