package io.ccsim.cli;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * What ccsim prints for a terminal, made safe to print: control characters that came from the user's files or
 * arguments (a topology name with an ANSI escape, a bell, a bidirectional override) are written as visible escapes
 * ({@code \x1B}, {@code \u202E}), so that output cannot move the cursor, recolour, retitle or reorder the
 * terminal. Line feed, tab and carriage return (the progress line's redraw) pass as they are.
 */
final class EscapingWriter extends FilterWriter {

    /** @param out where the escaped text goes */
    EscapingWriter(Writer out) {
        super(out);
    }

    /** Whether {@code c} is written as an escape: C0 controls but tab, LF and CR; DEL; C1; bidi and BOM format marks. */
    static boolean escaped(char c) {
        if (c < 0x20) return c != '\t' && c != '\n' && c != '\r';
        if (c >= 0x7f && c <= 0x9f) return true;
        return c == 0x200e || c == 0x200f || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069 || c == 0xfeff;
    }

    /** {@code s} with every {@link #escaped} character written as its escape. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) append(b, s.charAt(i));
        return b.toString();
    }

    private static void append(StringBuilder b, char c) {
        if (!escaped(c)) b.append(c);
        else if (c <= 0xff) b.append(String.format(java.util.Locale.ROOT, "\\x%02X", (int) c));
        else b.append(String.format(java.util.Locale.ROOT, "\\u%04X", (int) c));
    }

    @Override
    public void write(int c) throws IOException {
        if (escaped((char) c)) out.write(escape(String.valueOf((char) c)));
        else out.write(c);
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (escaped(cbuf[i])) {
                out.write(cbuf, start, i - start);
                out.write(escape(String.valueOf(cbuf[i])));
                start = i + 1;
            }
        }
        out.write(cbuf, start, off + len - start);
    }

    @Override
    public void write(String str, int off, int len) throws IOException {
        write(str.toCharArray(), off, len);
    }
}
