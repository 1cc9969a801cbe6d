package io.ccsim.cli;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One point of a study: everything that decides one simulated collective, fully resolved (no glob left to expand,
 * no default left to look up). Its {@link #id} is a stable key over every field but {@code index}: the same point
 * of the same study has the same id in any run, on any engine, so an interrupted sweep can skip what it finished.
 *
 * @param index     position of the point in the study's expansion (0-based), the output order
 * @param topology  catalog name or topology file
 * @param gpus      GPUs per board, 0 = the builder's default
 * @param nodes     nodes, ≥ 1
 * @param nicsPerNode NICs per board, 0 = the board's
 * @param oversubscription fat-tree leaf down:up ratio, ≥ 1
 * @param sharp     SHARP-capable switches
 * @param degrade   {@code LINK=FACTOR} edits, in order
 * @param down      links (ids or globs) taken down
 * @param nicGbps   network line rate in Gb/s, null = the board's
 * @param nvlinkGbps NVLink rate per link and direction in GB/s, null = the board's
 * @param routing   {@code ecmp} or {@code dmodk}, null = the fabric's own
 * @param op        collective, as {@code --op} names it
 * @param dtype     nccl-tests type name
 * @param bytes     message size in bytes, as nccl-tests' size column
 * @param env       NCCL_* variables of the point (sorted by name)
 * @param seed      simulation seed
 * @param simMode   {@code folded}, {@code full}, {@code extrapolated} or {@code auto}
 */
public record SweepPoint(int index, String topology, int gpus, int nodes, int nicsPerNode, double oversubscription,
                         boolean sharp, List<String> degrade, List<String> down, Double nicGbps, Double nvlinkGbps,
                         String routing, String op, String dtype, long bytes, Map<String, String> env, long seed, String simMode) {

    public SweepPoint {
        degrade = List.copyOf(degrade);
        down = List.copyOf(down);
        env = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(env));
    }

    /** 16 hex digits of the SHA-256 of {@link #toJson} without the index: equal for equal points, whatever their index. */
    public String id() {
        JsonObject o = toJson();
        o.remove("index");
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(o.toString().getBytes(StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 8; i++) sb.append(String.format("%02x", h[i]));
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** The fields that decide the topology and the runner (all but op, dtype and bytes), as a cache key. */
    String setupKey() {
        JsonObject o = toJson();
        o.remove("index");
        o.remove("op");
        o.remove("dtype");
        o.remove("bytes");
        return o.toString();
    }

    /** The what-if edits as the flags that give them, e.g. {@code --degrade n0.nic3~leaf.r3.0=0.1 --nic-gbps 200}. */
    public String whatIfText() {
        List<String> parts = new ArrayList<>();
        for (String d : degrade) parts.add("--degrade " + d);
        for (String d : down) parts.add("--down " + d);
        if (nicGbps != null) parts.add("--nic-gbps " + WhatIfOptions.num(nicGbps));
        if (nvlinkGbps != null) parts.add("--nvlink-gbps " + WhatIfOptions.num(nvlinkGbps));
        if (routing != null) parts.add("--routing " + routing);
        return String.join(" ", parts);
    }

    /** The NCCL variables as {@code NAME=value} separated by spaces, sorted by name. */
    public String envText() {
        StringBuilder sb = new StringBuilder();
        env.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }

    /** This point as a JSON object (keys in a fixed order), the inverse of {@link #fromJson}. */
    public JsonObject toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("index", index);
        o.addProperty("topology", topology);
        o.addProperty("gpus", gpus);
        o.addProperty("nodes", nodes);
        o.addProperty("nics_per_node", nicsPerNode);
        o.addProperty("oversubscription", oversubscription);
        o.addProperty("sharp", sharp);
        JsonArray d = new JsonArray();
        degrade.forEach(d::add);
        o.add("degrade", d);
        JsonArray dn = new JsonArray();
        down.forEach(dn::add);
        o.add("down", dn);
        if (nicGbps != null) o.addProperty("nic_gbps", nicGbps);
        if (nvlinkGbps != null) o.addProperty("nvlink_gbps", nvlinkGbps);
        if (routing != null) o.addProperty("routing", routing); // absent when null: ids of points without it stay
        o.addProperty("op", op);
        o.addProperty("dtype", dtype);
        o.addProperty("bytes", bytes);
        JsonObject e = new JsonObject();
        env.forEach(e::addProperty);
        o.add("env", e);
        o.addProperty("seed", seed);
        o.addProperty("sim_mode", simMode);
        return o;
    }

    /** The point {@link #toJson} wrote. */
    public static SweepPoint fromJson(String json) {
        JsonObject o = JsonParser.parseString(json).getAsJsonObject();
        List<String> d = new ArrayList<>();
        o.getAsJsonArray("degrade").forEach(x -> d.add(x.getAsString()));
        List<String> dn = new ArrayList<>();
        o.getAsJsonArray("down").forEach(x -> dn.add(x.getAsString()));
        Map<String, String> env = new TreeMap<>();
        o.getAsJsonObject("env").entrySet().forEach(x -> env.put(x.getKey(), x.getValue().getAsString()));
        return new SweepPoint(o.get("index").getAsInt(), o.get("topology").getAsString(), o.get("gpus").getAsInt(),
                o.get("nodes").getAsInt(), o.get("nics_per_node").getAsInt(), o.get("oversubscription").getAsDouble(),
                o.get("sharp").getAsBoolean(), d, dn, o.has("nic_gbps") ? o.get("nic_gbps").getAsDouble() : null,
                o.has("nvlink_gbps") ? o.get("nvlink_gbps").getAsDouble() : null,
                o.has("routing") ? o.get("routing").getAsString() : null, o.get("op").getAsString(),
                o.get("dtype").getAsString(), o.get("bytes").getAsLong(), env, o.get("seed").getAsLong(),
                o.get("sim_mode").getAsString());
    }
}
