package io.ccsim.fuzz;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded mutations of valid input: of its text (bytes cut, repeated, swapped; tokens inserted) and, for JSON, of
 * its tree (a value replaced by one of another type or an extreme, a key added or removed). The same seed gives the
 * same input, so a failing try is reproduced from the seed the assertion names.
 */
final class Mutations {
    /** Tokens that break parsers: syntax, numeric extremes, odd characters. */
    static final List<String> TOKENS = List.of("{", "}", "[", "]", "\"", ",", ":", "//", "/*", "-", "-1", "0", "1e309", "-1e309",
            "99999999999999999999", "NaN", "Infinity", "null", "true", "\"\"", "\\u0000", "\u0000", "\u001b[31m", "\uFEFF", "\u00e9",
            "\uD800", "\t", "\r\n", " ", "x", "NV", "NV0", "NV19", "NV99999999999", "GPU99999999999", "X", "PIX", "SYS",
            "%", "^", ";", "=", "0x", "0x7fffffffffffffff", "-0", "1.5", "1e-300", "2147483648", "[".repeat(100));

    private final SplittableRandom rnd;

    /** @param seed the seed of every choice */
    Mutations(long seed) {
        this.rnd = new SplittableRandom(seed);
    }

    int below(int n) {
        return rnd.nextInt(Math.max(1, n));
    }

    <T> T pick(List<T> from) {
        return from.get(below(from.size()));
    }

    /** {@code text} with 1 to 4 random edits. */
    String text(String text) {
        StringBuilder s = new StringBuilder(text);
        int edits = 1 + below(4);
        for (int e = 0; e < edits; e++) {
            int at = below(s.length() + 1);
            int len = Math.min(s.length() - at, 1 + below(40));
            switch (below(6)) {
                case 0 -> s.delete(at, at + len);
                case 1 -> s.insert(at, s.substring(at, at + len));
                case 2 -> s.insert(at, pick(TOKENS));
                case 3 -> { if (at < s.length()) s.setCharAt(at, (char) below(0x300)); }
                case 4 -> s.setLength(at);
                default -> {
                    int to = below(s.length() + 1);
                    String cut = s.substring(at, at + len);
                    s.delete(at, at + len);
                    s.insert(Math.min(to, s.length()), cut);
                }
            }
        }
        return s.toString();
    }

    /** {@code json} (a valid document) with 1 to 3 values replaced, keys added or keys removed; written back as JSON. */
    String tree(String json) {
        JsonElement root = JsonParser.parseString(json);
        int edits = 1 + below(3);
        for (int e = 0; e < edits; e++) root = edit(root);
        return root.toString();
    }

    private JsonElement edit(JsonElement root) {
        List<JsonElement> containers = new ArrayList<>();
        collect(root, containers);
        if (containers.isEmpty()) return value();
        JsonElement c = pick(containers);
        if (c.isJsonObject()) {
            JsonObject o = c.getAsJsonObject();
            List<String> keys = new ArrayList<>(o.keySet());
            int op = below(4);
            if (op == 0 || keys.isEmpty()) o.add(pick(List.of("x", "colour", "name", "times", "nodes", "id", "bytes")), value());
            else if (op == 1) o.remove(pick(keys));
            else o.add(pick(keys), value());
        } else {
            JsonArray a = c.getAsJsonArray();
            if (a.isEmpty() || below(3) == 0) a.add(value());
            else if (below(2) == 0) a.remove(below(a.size()));
            else a.set(below(a.size()), value());
        }
        return root;
    }

    private void collect(JsonElement e, List<JsonElement> out) {
        if (e.isJsonObject()) {
            out.add(e);
            for (var en : e.getAsJsonObject().entrySet()) collect(en.getValue(), out);
        } else if (e.isJsonArray()) {
            out.add(e);
            for (JsonElement x : e.getAsJsonArray()) collect(x, out);
        }
    }

    /** A value of a random type: extremes of numbers, odd strings, empty and nested containers. */
    JsonElement value() {
        return switch (below(12)) {
            case 0 -> JsonNull.INSTANCE;
            case 1 -> new JsonPrimitive(below(2) == 0);
            case 2 -> new JsonPrimitive(new BigDecimal(pick(List.of("-1", "0", "1", "1e309", "-1e309", "1e-300", "0.5",
                    "99999999999999999999", "2147483648", "9223372036854775808", "1e18"))));
            case 3 -> new JsonPrimitive(pick(List.of("", "abc", "-1", "0", "1GiB", "100TiB", "1e9", "99999999999", "\u001b[2J",
                    "\uFEFF", "all_reduce", "hgx-h100", "n0.gpu0", "10min", "0s", "NV18", "a\nb", "gpu\r")));
            case 4 -> new JsonArray();
            case 5 -> new JsonObject();
            case 6 -> {
                JsonElement deep = new JsonArray();
                for (int i = 0; i < 70; i++) {
                    JsonArray a = new JsonArray();
                    a.add(deep);
                    deep = a;
                }
                yield deep;
            }
            default -> new JsonPrimitive(below(1 << 20) - (1 << 19));
        };
    }
}
