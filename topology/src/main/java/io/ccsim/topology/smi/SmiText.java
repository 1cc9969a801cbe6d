package io.ccsim.topology.smi;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The output of {@code nvidia-smi topo -m} as lines of whitespace-separated tokens, with the name of its
 * source, so that every error can point at a line and a column.
 */
final class SmiText {

    /** A whitespace-free token and its column, 1-based. */
    record Token(String text, int column) { }

    private static final Pattern TOKEN = Pattern.compile("\\S+");
    /* nvidia-smi underlines the header row with ANSI SGR escapes (ESC[4m ... ESC[0m) when it prints to a
       terminal or a captured pty; they carry no data. */
    private static final Pattern ANSI_SGR = Pattern.compile("\u001B\\[[0-9;]*m");

    private final String source;
    private final String[] lines;

    /** Splits {@code text} into lines, dropping carriage returns and ANSI SGR escapes. */
    SmiText(String text, String source) {
        this.source = source;
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;   // a byte order mark carries no data
        this.lines = ANSI_SGR.matcher(body.replace("\r", "")).replaceAll("").split("\n", -1);
    }

    /** The name used in errors and as the topology name. */
    String source() {
        return source;
    }

    /** Number of lines, the last one possibly empty. */
    int lineCount() {
        return lines.length;
    }

    /** Line {@code i}, 0-based, without its line break. */
    String line(int i) {
        return lines[i];
    }

    /** The tokens of line {@code i}, 0-based, in order. */
    List<Token> tokens(int i) {
        List<Token> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(lines[i]);
        while (m.find()) {
            out.add(new Token(m.group(), m.start() + 1));
        }
        return out;
    }

    /** An error {@code source:line:column: message} for line {@code line} (0-based) and column (1-based). */
    IllegalArgumentException error(int line, int column, String message) {
        return new IllegalArgumentException(source + ":" + (line + 1) + ":" + column + ": " + message);
    }
}
