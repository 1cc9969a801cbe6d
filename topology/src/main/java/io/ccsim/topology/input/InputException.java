package io.ccsim.topology.input;

/**
 * A file or value given by the user cannot be read. The message is one line that names where (the file, and the
 * line, byte or JSON path), what was wrong and what is valid.
 */
public class InputException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message the whole line shown to the user (control characters are made visible: {@link #oneLine}) */
    public InputException(String message) {
        super(oneLine(message));
    }

    /**
     * {@code s} as one line: a line break, carriage return or other control character (from a value the user wrote,
     * quoted in an error) written as {@code \n}, {@code \r}, {@code \t} or {@code \xNN}, so that an error stays one
     * line and cannot move a terminal's cursor.
     */
    public static String oneLine(String s) {
        if (s == null) return null;
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || c >= 0x7f && c <= 0x9f;
            if (control && b == null) b = new StringBuilder(s.length() + 8).append(s, 0, i);
            if (b == null) continue;
            if (!control) b.append(c);
            else if (c == '\n') b.append("\\n");
            else if (c == '\r') b.append("\\r");
            else if (c == '\t') b.append("\\t");
            else b.append(String.format(java.util.Locale.ROOT, "\\x%02X", (int) c));
        }
        return b == null ? s : b.toString();
    }
}
