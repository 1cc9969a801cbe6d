package io.ccsim.topology.json;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Locale;

/**
 * Typed access to the values of one JSON document. Every method takes the JSON path of what it reads
 * ({@code $.links[3]}) and throws a {@link TopologyFormatException} naming the source, that path (plus the
 * field, where one is named), what was found and what was expected.
 */
final class JsonFields {

    private final String source;

    /** Accessors whose errors name {@code source}. */
    JsonFields(String source) {
        this.source = source;
    }

    /** An error at {@code path}. */
    TopologyFormatException error(String path, String problem) {
        return new TopologyFormatException(source, path, problem);
    }

    /**
     * {@code o} at {@code path}, checked to hold no field but those {@code allowed}: an unknown field is most often a
     * typo, which would otherwise leave a default in force without a word.
     */
    JsonObject only(JsonObject o, String path, java.util.List<String> allowed) {
        for (String k : o.keySet()) {
            if (!allowed.contains(k)) {
                throw error(path + "." + k, "unknown field '" + k + "'; valid fields: " + allowed);
            }
        }
        return o;
    }

    /** Field {@code field} of {@code o} at {@code path}; present and not null. */
    JsonElement required(JsonObject o, String field, String path) {
        JsonElement e = o.get(field);
        if (e == null || e.isJsonNull()) {
            throw error(path + "." + field, "missing required field '" + field + "'");
        }
        return e;
    }

    /** {@code e} as an object. */
    JsonObject object(JsonElement e, String path) {
        if (e == null || !e.isJsonObject()) {
            throw error(path, "expected an object, got " + describe(e));
        }
        return e.getAsJsonObject();
    }

    /** Required field {@code field} of {@code o} as an array. */
    JsonArray array(JsonObject o, String field, String path) {
        JsonElement e = required(o, field, path);
        if (!e.isJsonArray()) {
            throw error(path + "." + field, "expected an array, got " + describe(e));
        }
        return e.getAsJsonArray();
    }

    /** Required field {@code field} of {@code o} as a non-blank string. */
    String nonBlank(JsonObject o, String field, String path) {
        String s = string(required(o, field, path), path + "." + field);
        if (s.isBlank()) {
            throw error(path + "." + field, "must be a non-blank string");
        }
        return s;
    }

    /** {@code e} as a string (possibly blank). */
    String string(JsonElement e, String path) {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
            throw error(path, "expected a string, got " + describe(e));
        }
        return e.getAsString();
    }

    /** {@code e} as {@code true} or {@code false}. */
    boolean bool(JsonElement e, String path) {
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) {
            throw error(path, "expected true or false, got " + describe(e));
        }
        return e.getAsBoolean();
    }

    /** {@code e} as an exact decimal. */
    BigDecimal decimal(JsonElement e, String path) {
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw error(path, "expected a number, got " + describe(e));
        }
        try {
            return e.getAsBigDecimal();
        } catch (NumberFormatException ex) {
            throw error(path, "expected a number, got " + e);
        }
    }

    /** {@code e} as the nearest double. */
    double number(JsonElement e, String path) {
        return decimal(e, path).doubleValue();
    }

    /** {@code e} as a whole number that fits a long. */
    long wholeLong(JsonElement e, String path) {
        try {
            return decimal(e, path).longValueExact();
        } catch (ArithmeticException ex) {
            throw error(path, "expected a whole number (64-bit), got " + e);
        }
    }

    /** {@code e} as a whole number that fits an int. */
    int wholeInt(JsonElement e, String path) {
        try {
            return decimal(e, path).intValueExact();
        } catch (ArithmeticException ex) {
            throw error(path, "expected a whole number (32-bit), got " + e);
        }
    }

    /** The constant of {@code type} whose lower-case name is {@code value}; the error lists them all. */
    <E extends Enum<E>> E enumValue(Class<E> type, String value, String path) {
        for (E c : type.getEnumConstants()) {
            if (c.name().toLowerCase(Locale.ROOT).equals(value)) {
                return c;
            }
        }
        throw error(path, "unknown " + type.getSimpleName() + " '" + value + "'; valid: " + Arrays.stream(
                type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT)).toList());
    }

    /** What {@code e} is, for "got ..." in errors: null, an object, an array, or the kind and value. */
    static String describe(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return "null";
        }
        if (e.isJsonObject()) {
            return "an object";
        }
        if (e.isJsonArray()) {
            return "an array";
        }
        JsonPrimitive pr = e.getAsJsonPrimitive();
        return (pr.isString() ? "string " : pr.isNumber() ? "number " : "boolean ") + pr;
    }
}
