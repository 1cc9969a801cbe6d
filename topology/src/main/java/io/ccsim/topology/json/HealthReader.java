package io.ccsim.topology.json;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.topology.Flap;
import io.ccsim.topology.LinkHealth;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a link's {@code health}: {@code degrade} (in (0, 1], default 1), {@code down} (default false),
 * {@code bit_error_rate} (in [0, 1), default 0) and {@code flaps}, each with {@code start_ps},
 * {@code duration_ps}, {@code period_ps} (64-bit whole numbers) and {@code count} (32-bit).
 */
final class HealthReader {

    private HealthReader() {
    }

    /**
     * The health at {@code path}.
     *
     * @throws TopologyFormatException at the offending path, including what {@link Flap} rejects
     */
    static LinkHealth read(JsonElement el, JsonFields f, String path) {
        JsonObject o = f.only(f.object(el, path), path, List.of("degrade", "down", "bit_error_rate", "flaps"));
        double degrade = o.has("degrade") ? f.number(o.get("degrade"), path + ".degrade") : 1.0;
        if (!(degrade >= 1e-6 && degrade <= 1)) {
            throw f.error(path + ".degrade", "degrade must be in [1e-6, 1] (1 = healthy, 0.1 = one tenth of the rate),"
                    + " got " + degrade);
        }
        boolean down = o.has("down") && f.bool(o.get("down"), path + ".down");
        double ber = o.has("bit_error_rate") ? f.number(o.get("bit_error_rate"), path + ".bit_error_rate") : 0.0;
        if (!(ber >= 0 && ber < 1)) {
            throw f.error(path + ".bit_error_rate", "bit_error_rate must be in [0, 1), got " + ber);
        }
        List<Flap> flaps = new ArrayList<>();
        if (o.has("flaps")) {
            JsonArray fa = f.array(o, "flaps", path);
            for (int i = 0; i < fa.size(); i++) {
                flaps.add(flap(fa.get(i), f, path + ".flaps[" + i + "]"));
            }
        }
        return new LinkHealth(degrade, down, flaps, ber);
    }

    private static Flap flap(JsonElement el, JsonFields f, String fp) {
        JsonObject fo = f.only(f.object(el, fp), fp, List.of("start_ps", "duration_ps", "period_ps", "count"));
        try {
            return new Flap(f.wholeLong(f.required(fo, "start_ps", fp), fp + ".start_ps"),
                    f.wholeLong(f.required(fo, "duration_ps", fp), fp + ".duration_ps"),
                    f.wholeLong(f.required(fo, "period_ps", fp), fp + ".period_ps"),
                    f.wholeInt(f.required(fo, "count", fp), fp + ".count"));
        } catch (TopologyFormatException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw f.error(fp, e.getMessage());
        }
    }
}
