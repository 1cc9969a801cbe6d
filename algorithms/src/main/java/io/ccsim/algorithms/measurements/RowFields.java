package io.ccsim.algorithms.measurements;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.topology.input.InputException;

/** Typed reads of measurement-file fields with errors naming where ({@code file: $.rows[3]}) and what was expected. */
final class RowFields {
    private RowFields() {}

    static JsonElement req(JsonObject r, String key, String where) {
        JsonElement e = r.get(key);
        if (e == null || e.isJsonNull()) throw new InputException(where + ": missing field \"" + key + "\"");
        return e;
    }

    static String str(JsonObject r, String key, String where) {
        JsonElement e = req(r, key, where);
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
            throw new InputException(where + "." + key + ": expected a string, got " + e);
        }
        return e.getAsString();
    }

    static double num(JsonObject r, String key, String where) {
        JsonElement e = req(r, key, where);
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw new InputException(where + "." + key + ": expected a number, got " + e);
        }
        return e.getAsDouble();
    }

    static boolean bool(JsonObject r, String key, String where) {
        JsonElement e = req(r, key, where);
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) {
            throw new InputException(where + "." + key + ": expected true or false, got " + e);
        }
        return e.getAsBoolean();
    }

    /** The row's collective ({@code op}), with the row named in the error. */
    static CollectiveOp op(JsonObject r, String where) {
        try {
            return CollectiveOp.parse(str(r, "op", where));
        } catch (IllegalArgumentException e) {
            throw new InputException(where + ".op: " + e.getMessage());
        }
    }
}
