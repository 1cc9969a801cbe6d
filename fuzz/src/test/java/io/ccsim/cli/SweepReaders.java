package io.ccsim.cli;

/**
 * The sweep's readers, package-private in the cli, opened to the fuzz properties: a study file's JSON and one line of
 * a sweep's {@code --out} rows. The cli's one-line input error, {@link UserException}, comes out as an
 * {@link IllegalArgumentException} with the same message, the type the fuzz property accepts.
 */
public final class SweepReaders {
    private SweepReaders() {}

    /** Parses a study from JSON {@code text}, {@code file} naming it in errors. */
    public static void study(String text, String file) {
        try {
            SweepSpec.parse(text, file);
        } catch (UserException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** Reads the point id of one line of a sweep's JSON-lines output, {@code where} naming the file and line. */
    public static void row(String line, String where) {
        try {
            SweepRows.idOfJson(line, where);
        } catch (UserException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }
}
