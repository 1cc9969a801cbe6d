package io.ccsim.topology.json;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses a document as strict JSON (RFC 8259: no comments, no {@code [,]}, no single quotes). */
final class StrictJson {

    /* Gson's messages end in "at line L column C path P" (and, for lenient-only syntax, start with
       "Use JsonReader.setStrictness"); the error keeps the position and says in our words what is wrong. */
    private static final Pattern GSON_POSITION = Pattern.compile("(.*?)\\s*at line (\\d+) column (\\d+) path (\\S+)",
            Pattern.DOTALL);

    private StrictJson() {
    }

    /**
     * The single value of {@code json}; {@code JsonNull} for an empty document.
     *
     * @throws TopologyFormatException at path {@code $}: "malformed JSON", with the line, column and JSON
     *                                 path where Gson gives them, or extra content after the document
     */
    static JsonElement parse(String json, JsonFields fields) {
        try {
            JsonReader r = new JsonReader(new StringReader(json));
            r.setStrictness(Strictness.STRICT);
            JsonElement root = JsonParser.parseReader(r);
            if (r.peek() != JsonToken.END_DOCUMENT) {
                throw fields.error("$", "malformed JSON: extra content after the document");
            }
            return root;
        } catch (JsonParseException | IOException e) {
            String msg = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
                    : String.valueOf(e.getMessage());
            Matcher m = GSON_POSITION.matcher(msg);
            if (m.find()) {
                String reason = m.group(1).startsWith("Use JsonReader") ? "syntax that strict JSON (RFC 8259) does"
                        + " not allow (comments, single quotes, missing values, unquoted names...)" : m.group(1);
                throw fields.error("$", "malformed JSON at line " + m.group(2) + " column " + m.group(3) + " (near "
                        + m.group(4) + "): " + reason);
            }
            throw fields.error("$", "malformed JSON: " + msg);
        }
    }
}
