package io.ccsim.topology.input;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a user's text file as UTF-8: a leading byte order mark (U+FEFF, as Windows editors write it) is skipped,
 * anything else that is not UTF-8 is an error naming the line and byte offset. Errors say why a file cannot be read
 * (no such file, a directory, permission denied, not a regular file, too large), never only its name.
 */
public final class TextFile {

    /** The largest file read, bytes: what one Java string holds. */
    public static final long MAX_BYTES = Integer.MAX_VALUE - 16;

    private TextFile() {
    }

    /**
     * The text of {@code file}.
     *
     * @param what what the file is, for errors ("topology file", "scenario")
     * @throws InputException "cannot read WHAT FILE: REASON" or "FILE: line L (byte B): not UTF-8 ..."
     */
    public static String read(Path file, String what) {
        String where = "cannot read " + what + " " + file + ": ";
        if (Files.isDirectory(file)) throw new InputException(where + "it is a directory; valid: a file");
        if (!Files.exists(file)) throw new InputException(where + "no such file");
        if (!Files.isRegularFile(file)) throw new InputException(where + "not a regular file; valid: a file");
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new InputException(where + String.format(Locale.ROOT, "%,d bytes, more than the %,d a file may have",
                        Files.size(file), MAX_BYTES));
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new InputException(where + "no such file");
        } catch (AccessDeniedException e) {
            throw new InputException(where + "permission denied");
        } catch (IOException | OutOfMemoryError e) {
            throw new InputException(where + (e.getMessage() == null || e.getMessage().equals(file.toString())
                    ? "I/O error" : e.getMessage()));
        }
        return decode(bytes, file.toString());
    }

    /**
     * {@code bytes} decoded as UTF-8, without a leading byte order mark.
     *
     * @param source the file name, for errors
     * @throws InputException naming the line and byte offset of the first byte that is not UTF-8
     */
    public static String decode(byte[] bytes, String source) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        String text;
        try {
            CharBuffer c = d.decode(ByteBuffer.wrap(bytes));
            text = c.toString();
        } catch (CharacterCodingException e) {
            int bad = firstInvalid(bytes);
            int line = 1;
            for (int i = 0; i < bad; i++) if (bytes[i] == '\n') line++;
            throw new InputException(String.format(Locale.ROOT, "%s: line %d (byte %d): not UTF-8 text (byte 0x%02X); valid: a"
                    + " UTF-8 text file (convert with iconv -t UTF-8)", source, line, bad, bytes[Math.min(bad, bytes.length - 1)] & 0xff));
        }
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** The offset of the first byte that starts no valid UTF-8 sequence. */
    static int firstInvalid(byte[] b) {
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xff;
            int n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
            if (n < 0 || n > 0 && !validSequence(b, i, n)) return i;
            i += n + 1;
        }
        return Math.max(0, b.length - 1);
    }

    private static boolean validSequence(byte[] b, int i, int n) {
        if (i + n >= b.length) return false;
        int c = b[i] & 0xff;
        int c1 = b[i + 1] & 0xff;
        if (c == 0xe0 && c1 < 0xa0 || c == 0xed && c1 > 0x9f || c == 0xf0 && c1 < 0x90 || c == 0xf4 && c1 > 0x8f) return false;
        for (int k = 1; k <= n; k++) if ((b[i + k] & 0xc0) != 0x80) return false;
        return true;
    }
}
