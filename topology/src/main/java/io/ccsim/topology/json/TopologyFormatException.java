package io.ccsim.topology.json;

/**
 * A topology file is invalid. The message names the file, the JSON path (e.g. {@code $.links[12].kind}),
 * what was wrong and what is valid.
 */
public final class TopologyFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String source;
    private final String jsonPath;

    TopologyFormatException(String source, String jsonPath, String problem) {
        super(io.ccsim.topology.input.InputException.oneLine(source + ": " + jsonPath + ": " + problem));
        this.source = source;
        this.jsonPath = jsonPath;
    }

    /** The file (or source name) that was read. */
    String source() {
        return source;
    }

    /** JSON path of the offending element, {@code $} for the document. */
    String jsonPath() {
        return jsonPath;
    }
}
