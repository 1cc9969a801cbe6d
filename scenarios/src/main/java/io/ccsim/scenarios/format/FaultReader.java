package io.ccsim.scenarios.format;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code faults} section: an array of fault objects, each with a {@code type}, its fields, and a
 * time ({@code at}) or an event ({@code at_iteration}).
 */
final class FaultReader {
    private static final List<String> FAULT_TYPES = List.of("link_degrade", "link_down", "link_flap", "rank_crash", "never_starts",
            "slow_gpu", "gpu_hang", "memory_pressure", "bit_flip_link", "bit_flip_gpu_memory", "store_key_collision");

    private final JsonReader json;
    private final int worldSize;
    private final int iterations;

    /** @param worldSize the job's ranks (faults name ranks in [0, worldSize)) */
    FaultReader(JsonReader json, int worldSize) {
        this(json, worldSize, Integer.MAX_VALUE);
    }

    /** @param iterations the most training iterations of the job ({@link ProgramSize#iterations}): a fault's at_iteration is below it */
    FaultReader(JsonReader json, int worldSize, int iterations) {
        this.iterations = iterations;
        this.json = json;
        this.worldSize = worldSize;
    }

    /** The array at {@code $.faults}. */
    List<Fault> read(JsonElement fe) {
        if (!fe.isJsonArray()) throw json.err("$.faults", "expected an array of fault objects");
        List<Fault> faults = new ArrayList<>();
        JsonArray fa = fe.getAsJsonArray();
        for (int i = 0; i < fa.size(); i++) faults.add(fault(fa.get(i), "$.faults[" + i + "]"));
        return faults;
    }

    private Fault fault(JsonElement e, String p) {
        if (e == null || !e.isJsonObject()) throw json.err(p, "expected a fault object with a \"type\" of " + FAULT_TYPES);
        JsonObject raw = e.getAsJsonObject();
        String type = json.str(json.req(raw, "type", p), p + ".type", String.join(", ", FAULT_TYPES));
        if (raw.has("at_iteration")) return onIteration(raw, type, p);
        return timed(type, e, p);
    }

    /** An event trigger: the fault happens when its rank (rank 0 for link and store faults) starts that iteration. */
    private Fault onIteration(JsonObject raw, String type, String p) {
        if (type.equals("never_starts")) throw json.err(p + ".at_iteration", "never_starts has no time; remove at_iteration");
        if (raw.has("at")) throw json.err(p, "give at most one of \"at\" (a time) or \"at_iteration\" (an event)");
        if (iterations == 0) {
            throw json.err(p + ".at_iteration", "the program has no repeat, so no training iteration ever starts; valid: a time"
                    + " \"at\" instead, or a program whose training loop is a repeat");
        }
        int iteration = (int) json.integer(raw.get("at_iteration"), p + ".at_iteration", 0, Integer.MAX_VALUE);
        if (iteration >= iterations) {
            throw json.err(p + ".at_iteration", "iteration " + iteration + " never starts: the job runs at most " + iterations
                    + " training iterations (its repeat's times); valid: 0.." + (iterations - 1));
        }
        JsonObject copy = raw.deepCopy();
        copy.remove("at_iteration");
        Fault inner = fault(copy, p);
        int trigger = copy.has("rank") ? (int) copy.get("rank").getAsLong() : 0;
        return new Fault.OnIteration(trigger, iteration, inner);
    }

    private Fault timed(String type, JsonElement e, String p) {
        switch (type) {
            case "link_degrade": {
                JsonObject o = json.obj(e, p, List.of("type", "link", "factor", "at"));
                return new Fault.LinkDegrade(link(o, p), json.number(json.req(o, "factor", p), p + ".factor", 1e-6, 1.0), at(o, p));
            }
            case "link_down": {
                JsonObject o = json.obj(e, p, List.of("type", "link", "at", "duration"));
                return new Fault.LinkDown(link(o, p), at(o, p), o.has("duration") ? json.duration(o.get("duration"), p + ".duration") : 0);
            }
            case "link_flap": {
                JsonObject o = json.obj(e, p, List.of("type", "link", "at", "down_for", "up_for", "count"));
                return new Fault.LinkFlap(link(o, p), at(o, p), json.duration(json.req(o, "down_for", p), p + ".down_for"),
                        json.duration(json.req(o, "up_for", p), p + ".up_for"),
                        (int) json.integer(json.req(o, "count", p), p + ".count", 1, 10_000));
            }
            case "rank_crash": {
                JsonObject o = json.obj(e, p, List.of("type", "rank", "at"));
                return new Fault.RankCrash(rank(o, p), at(o, p));
            }
            case "never_starts": {
                JsonObject o = json.obj(e, p, List.of("type", "rank"));
                return new Fault.NeverStarts(rank(o, p));
            }
            case "slow_gpu": {
                JsonObject o = json.obj(e, p, List.of("type", "rank", "factor", "at"));
                return new Fault.SlowGpu(rank(o, p), json.number(json.req(o, "factor", p), p + ".factor", 1.0, 1e6),
                        o.has("at") ? at(o, p) : 0);
            }
            case "gpu_hang": {
                JsonObject o = json.obj(e, p, List.of("type", "rank", "at"));
                return new Fault.GpuHang(rank(o, p), at(o, p));
            }
            case "memory_pressure": {
                JsonObject o = json.obj(e, p, List.of("type", "rank", "bytes", "at"));
                return new Fault.MemoryPressure(rank(o, p), json.bytes(json.req(o, "bytes", p), p + ".bytes"), o.has("at") ? at(o, p) : 0);
            }
            case "bit_flip_link": {
                JsonObject o = json.obj(e, p, List.of("type", "link", "at"));
                return new Fault.BitFlipLink(link(o, p), at(o, p));
            }
            case "bit_flip_gpu_memory": {
                JsonObject o = json.obj(e, p, List.of("type", "rank", "at"));
                return new Fault.BitFlipGpuMemory(rank(o, p), at(o, p));
            }
            case "store_key_collision": {
                JsonObject o = json.obj(e, p, List.of("type", "key", "value", "at"));
                return new Fault.StoreKeyCollision(json.str(json.req(o, "key", p), p + ".key", "a full store key such as \"default_pg/0\""),
                        json.str(json.req(o, "value", p), p + ".value", "the value written"), at(o, p));
            }
            default:
                throw json.err(p + ".type", "unknown fault type '" + type + "'; valid: " + FAULT_TYPES);
        }
    }

    private long at(JsonObject o, String p) { return o.has("at") ? json.duration(o.get("at"), p + ".at") : 0; }

    private int rank(JsonObject o, String p) { return json.rank(json.req(o, "rank", p), p + ".rank", worldSize); }

    private String link(JsonObject o, String p) {
        return json.str(json.req(o, "link", p), p + ".link", "a topology link id such as \"n31.nic1~leaf.r1.0\"");
    }
}
