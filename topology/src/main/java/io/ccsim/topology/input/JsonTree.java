package io.ccsim.topology.input;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a user's JSON document strictly (RFC 8259): no comments, single quotes, unquoted names, trailing commas or
 * NaN; no key twice in one object (JSON leaves it undefined, and a silent "last wins" hides a typo); at most
 * {@link #MAX_DEPTH} nested arrays and objects; one value and nothing after it. Numbers are kept as exact decimals.
 * An error is one line, built by the caller's {@link Errors} from a JSON path and a problem that names the line and
 * column, never a parser's exception name.
 */
public final class JsonTree {

    /** The deepest nesting of arrays and objects accepted; ccsim's own formats nest at most 8 levels. */
    public static final int MAX_DEPTH = 64;

    /** Makes the caller's exception for a problem at a JSON path ({@code $} for the document). */
    @FunctionalInterface
    public interface Errors {
        RuntimeException at(String jsonPath, String problem);
    }

    /*
     * Gson's JsonReader does the tokenizing in strict mode; the tree is built here so that duplicate keys and depth
     * are checked where they occur. Gson's messages end in "at line L column C path P" and may add a
     * troubleshooting URL; the problem keeps the position and drops the rest.
     */
    private static final Pattern POSITION = Pattern.compile("(.*?)\\s*at line (\\d+) column (\\d+) path (\\S+)", Pattern.DOTALL);

    private final JsonReader reader;
    private final Errors errors;

    private JsonTree(String text, Errors errors) {
        this.reader = new JsonReader(new StringReader(text));
        this.reader.setStrictness(Strictness.STRICT);
        this.reader.setNestingLimit(MAX_DEPTH + 2);
        this.errors = errors;
    }

    /**
     * The single value of {@code text}.
     *
     * @param what what the document must be, for the error on an empty one ("a topology object")
     * @throws RuntimeException from {@code errors}: empty document, malformed JSON (line and column), a duplicate
     *                          key or too deep a nesting (its JSON path), content after the value
     */
    public static JsonElement parse(String text, String what, Errors errors) {
        if (text.isBlank()) throw errors.at("$", "the document is empty; valid: " + what);
        JsonTree t = new JsonTree(text, errors);
        try {
            JsonElement root = t.value("$", 0);
            if (t.reader.peek() != JsonToken.END_DOCUMENT) {
                throw errors.at("$", "malformed JSON: more content after the document ends, " + t.position() + "; valid: one "
                        + "JSON value");
            }
            return root;
        } catch (IOException | IllegalStateException | NumberFormatException e) {
            throw errors.at("$", describe(e));
        }
    }

    private JsonElement value(String path, int depth) throws IOException {
        JsonToken token = reader.peek();
        switch (token) {
            case BEGIN_OBJECT -> {
                if (depth >= MAX_DEPTH) throw tooDeep();
                reader.beginObject();
                JsonObject o = new JsonObject();
                while (reader.hasNext()) {
                    String name = reader.nextName();
                    String p = path + "." + name;
                    if (o.has(name)) {
                        throw errors.at(p, "key '" + name + "' appears twice in one object, " + position(name.length() + 2)
                                + "; valid: each key once");
                    }
                    o.add(name, value(p, depth + 1));
                }
                reader.endObject();
                return o;
            }
            case BEGIN_ARRAY -> {
                if (depth >= MAX_DEPTH) throw tooDeep();
                reader.beginArray();
                JsonArray a = new JsonArray();
                while (reader.hasNext()) a.add(value(path + "[" + a.size() + "]", depth + 1));
                reader.endArray();
                return a;
            }
            case STRING -> {
                return new JsonPrimitive(reader.nextString());
            }
            case NUMBER -> {
                String literal = reader.nextString();
                try {
                    return new JsonPrimitive(new BigDecimal(literal));
                } catch (NumberFormatException e) {
                    throw errors.at(path, "number " + literal + " is out of range, " + position());
                }
            }
            case BOOLEAN -> {
                return new JsonPrimitive(reader.nextBoolean());
            }
            case NULL -> {
                reader.nextNull();
                return JsonNull.INSTANCE;
            }
            default -> throw errors.at(path, "malformed JSON: unexpected " + token.name().toLowerCase(java.util.Locale.ROOT)
                    .replace('_', ' ') + ", " + position());
        }
    }

    private RuntimeException tooDeep() {
        return errors.at("$", "arrays and objects nested deeper than " + MAX_DEPTH + " levels, " + position() + "; valid: at most "
                + MAX_DEPTH);
    }

    /** "at line L column C", as far as the reader got. */
    private String position() {
        return position(0);
    }

    /** "at line L column C" of the token of {@code length} characters the reader has just read. */
    private String position(int length) {
        Matcher m = POSITION.matcher(reader.toString());
        if (!m.find()) return "at the end";
        return "at line " + m.group(2) + " column " + Math.max(1, Integer.parseInt(m.group(3)) - length);
    }

    /** Gson's message in ccsim's words: what is wrong, and where. */
    private static String describe(Exception e) {
        String msg = e.getMessage() == null ? "" : e.getMessage();
        Matcher m = POSITION.matcher(msg);
        if (!m.find()) return "malformed JSON: the document ends early or holds invalid syntax; valid: strict JSON (RFC 8259)";
        String reason = m.group(1);
        if (reason.startsWith("Use JsonReader.setStrictness")) {
            reason = "syntax that strict JSON (RFC 8259) does not allow (comments, single quotes, unquoted names, trailing commas"
                    + ", NaN, a second document)";
        } else if (reason.startsWith("Expected") || reason.startsWith("Unterminated") || reason.startsWith("Unexpected")
                || reason.startsWith("Invalid") || reason.startsWith("Malformed")) {
            reason = reason.substring(0, 1).toLowerCase(java.util.Locale.ROOT) + reason.substring(1);
        } else if (reason.contains("End of input") || msg.contains("EOF")) {
            reason = "the document ends early";
        }
        return "malformed JSON at line " + m.group(2) + " column " + m.group(3) + ": " + reason;
    }
}
