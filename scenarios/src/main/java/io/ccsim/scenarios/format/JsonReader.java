package io.ccsim.scenarios.format;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.scenarios.ScenarioFormatException;
import java.util.ArrayList;
import java.util.List;

/**
 * Typed, strict access to the JSON of one scenario file: every read names the JSON path of the value
 * ({@code $.faults[2].link}) and, on error, what was wrong and what is valid, as a
 * {@link ScenarioFormatException} that names the file.
 */
final class JsonReader {
    private final String source;

    /** @param source the file name for error messages */
    JsonReader(String source) { this.source = source; }

    /** An error at {@code path}. */
    ScenarioFormatException err(String path, String msg) { return new ScenarioFormatException(source, path, msg); }

    /** An object whose fields are all among {@code allowed}. */
    JsonObject obj(JsonElement e, String path, List<String> allowed) {
        if (e == null || !e.isJsonObject()) throw err(path, "expected an object with fields " + allowed);
        JsonObject o = e.getAsJsonObject();
        for (String k : o.keySet()) {
            if (!allowed.contains(k)) throw err(path + "." + k, "unknown field '" + k + "'; valid fields: " + allowed);
        }
        return o;
    }

    /** Field {@code f} of {@code o}, which must be present and not null. */
    JsonElement req(JsonObject o, String f, String path) {
        JsonElement e = o.get(f);
        if (e == null || e.isJsonNull()) throw err(path + "." + f, "required field is missing");
        return e;
    }

    /** A string; {@code valid} says what is expected. */
    String str(JsonElement e, String path, String valid) {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) throw err(path, "expected a string; valid: " + valid);
        return e.getAsString();
    }

    /** An integer in [min, max]. */
    long integer(JsonElement e, String path, long min, long max) {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw err(path, "expected an integer in [" + min + ", " + max + "]");
        }
        double d = e.getAsDouble();
        if (d != Math.rint(d) || d < min || d > max) throw err(path, "expected an integer in [" + min + ", " + max + "], got " + e);
        return e.getAsLong();
    }

    /** A number in [min, max]. */
    double number(JsonElement e, String path, double min, double max) {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw err(path, "expected a number in [" + min + ", " + max + "]");
        }
        double d = e.getAsDouble();
        if (!(d >= min && d <= max)) throw err(path, "expected a number in [" + min + ", " + max + "], got " + e);
        return d;
    }

    boolean bool(JsonElement e, String path) {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) throw err(path, "expected true or false");
        return e.getAsBoolean();
    }

    /** A duration string ({@link Units#parseDuration}), in ps. */
    long duration(JsonElement e, String path) {
        String s = str(e, path, "a duration such as \"3s\", \"100ms\", \"10min\"");
        try {
            return Units.parseDuration(s);
        } catch (IllegalArgumentException ex) {
            throw err(path, ex.getMessage());
        }
    }

    /** A size: a number of bytes or a string with a unit ({@link Units#parseBytes}), in bytes. */
    long bytes(JsonElement e, String path) {
        if (e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) return integer(e, path, 0, Long.MAX_VALUE);
        String s = str(e, path, "a size such as \"1GiB\", \"300MiB\" or a number of bytes");
        try {
            return Units.parseBytes(s);
        } catch (IllegalArgumentException ex) {
            throw err(path, ex.getMessage());
        }
    }

    /** A rank of a job of {@code worldSize} ranks. */
    int rank(JsonElement e, String path, int worldSize) { return (int) integer(e, path, 0, worldSize - 1); }

    /** A list of distinct ranks of a job of {@code worldSize} ranks. */
    List<Integer> rankList(JsonElement e, String path, int worldSize) {
        if (e == null || !e.isJsonArray()) throw err(path, "expected an array of ranks in [0, " + (worldSize - 1) + "]");
        List<Integer> out = new ArrayList<>();
        JsonArray a = e.getAsJsonArray();
        for (int i = 0; i < a.size(); i++) {
            int r = rank(a.get(i), path + "[" + i + "]", worldSize);
            if (out.contains(r)) throw err(path + "[" + i + "]", "rank " + r + " is listed twice");
            out.add(r);
        }
        return out;
    }
}
