package io.ccsim.scenarios.incident;

/**
 * A line of a log, for evidence.
 *
 * @param file   the log's file
 * @param number 1-based line number
 * @param text   the line, trimmed
 */
public record LogLine(String file, int number, String text) {
    /** {@code file:12}. */
    public String where() { return file + ":" + number; }
}
