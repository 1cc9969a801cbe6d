package io.ccsim.scenarios.incident;

/**
 * An incident file that cannot be read as what it looks like (or as anything ccsim knows): the message is one line
 * naming the file, the place in it (entry, JSON path, line) and what was expected. Line breaks and other control
 * characters of quoted content (a damaged file's bytes, a library's message) are written as {@code \n}, {@code \u001b}.
 */
public final class IncidentFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public IncidentFormatException(String message) { super(oneLine(message)); }

    public IncidentFormatException(String message, Throwable cause) { super(oneLine(message), cause); }

    /** {@code s} with line breaks and control characters escaped; trailing whitespace of quoted parts kept as is. */
    static String oneLine(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n') sb.append("\\n");
            else if (c == '\r') sb.append("\\r");
            else if (c == '\t') sb.append("\\t");
            else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.toString();
    }
}
