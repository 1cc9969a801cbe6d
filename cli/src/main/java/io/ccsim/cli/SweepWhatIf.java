package io.ccsim.cli;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.topology.LinkPattern;
import io.ccsim.topology.Link;
import io.ccsim.topology.Routing;
import io.ccsim.topology.Topology;
import io.ccsim.topology.WhatIf;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A what-if set of a study ({@code what_if[i]}): the edits of {@code perf}'s flags, and {@code each}, which makes one
 * set per link a glob matches on the point's topology (degraded to {@code factor}, or down), so that "each cable of
 * rail 3 at a tenth, in turn" is {@code {"each": "n*.nic3~*", "factor": 0.1}}.
 *
 * @param degrade {@code LINK=FACTOR} edits
 * @param down    links taken down
 * @param nicGbps network line rate, Gb/s, or null
 * @param nvlinkGbps NVLink rate, GB/s per link and direction, or null
 * @param routing {@code ecmp} or {@code dmodk} as {@code perf --routing} takes them, or null for the fabric's own
 */
record SweepWhatIf(List<String> degrade, List<String> down, Double nicGbps, Double nvlinkGbps, String routing) {
    private static final Set<String> KEYS = Set.of("degrade", "down", "nic_gbps", "nvlink_gbps", "routing", "each", "factor");
    private static final String VALID = "degrade [\"LINK=F\"...], down [\"LINK\"...], nic_gbps G, nvlink_gbps G,"
            + " routing \"ecmp\"|\"dmodk\", each \"GLOB\" with factor F or down true";

    /**
     * Checks what-if set {@code e} at {@code path} of {@code file} for its form (links are checked on each topology).
     *
     * @throws UserException naming file, path and what is valid
     */
    static JsonObject check(JsonElement e, String file, String path) {
        if (!e.isJsonObject()) throw SweepSpec.bad(file, path, "a what-if set is an object with keys " + VALID);
        JsonObject o = e.getAsJsonObject();
        for (String k : o.keySet()) if (!KEYS.contains(k)) throw SweepSpec.bad(file, path + "." + k, "unknown key; valid: " + VALID);
        boolean each = o.has("each");
        if (each && (!o.get("each").isJsonPrimitive() || o.get("each").getAsString().isBlank())) {
            throw SweepSpec.bad(file, path + ".each", "a link id or glob from 'ccsim topology T --links', e.g. \"n*.nic3~*\"");
        }
        boolean eachDown = each && o.has("down") && o.get("down").isJsonPrimitive();
        if (each && eachDown == o.has("factor")) {
            throw SweepSpec.bad(file, path, "\"each\" needs either \"factor\": F in (0, 1] (each link degraded in turn) or"
                    + " \"down\": true (each link down in turn)");
        }
        if (eachDown && !(o.get("down").getAsJsonPrimitive().isBoolean() && o.get("down").getAsBoolean())) {
            throw SweepSpec.bad(file, path + ".down", "with \"each\": true (each link down in turn)");
        }
        if (o.has("factor")) {
            if (!each) throw SweepSpec.bad(file, path + ".factor", "goes with \"each\"; a fixed link is \"degrade\": [\"LINK=F\"]");
            double f = number(o, "factor", file, path);
            if (!(f > 0 && f <= 1)) throw SweepSpec.bad(file, path + ".factor", "invalid " + f + "; valid: a factor in (0, 1]");
        }
        for (String d : strings(o, "degrade", file, path)) {
            try {
                WhatIf.parseDegrade(d, path + ".degrade");
            } catch (IllegalArgumentException ex) {
                throw SweepSpec.bad(file, path + ".degrade", "invalid '" + d + "'; valid: LINK=FACTOR with FACTOR in (0, 1]");
            }
        }
        if (!eachDown) strings(o, "down", file, path);
        for (String k : List.of("nic_gbps", "nvlink_gbps")) {
            if (o.has(k) && !(number(o, k, file, path) > 0)) throw SweepSpec.bad(file, path + "." + k, "a rate > 0");
        }
        if (o.has("routing")) {
            JsonElement r = o.get("routing");
            if (!r.isJsonPrimitive() || !r.getAsJsonPrimitive().isString() || Routing.ofCliName(r.getAsString()) == null) {
                throw SweepSpec.bad(file, path + ".routing", "invalid " + r + "; valid: \"ecmp\" (a hash per connection and"
                        + " channel, RoCE) or \"dmodk\" (by destination, InfiniBand; absent: the fabric's own)");
            }
        }
        return o;
    }

    /**
     * The sets that {@code o} (checked by {@link #check}) stands for on {@code topo}: itself, or one per link its
     * {@code each} glob matches, in link order.
     *
     * @throws UserException if the glob matches no link of {@code topo}
     */
    static List<SweepWhatIf> expand(JsonObject o, Topology topo, String file, String path) {
        List<String> degrade = strings(o, "degrade", file, path);
        Double nic = o.has("nic_gbps") ? o.get("nic_gbps").getAsDouble() : null;
        Double nvl = o.has("nvlink_gbps") ? o.get("nvlink_gbps").getAsDouble() : null;
        String routing = o.has("routing") ? o.get("routing").getAsString() : null;
        if (!o.has("each")) return List.of(new SweepWhatIf(degrade, strings(o, "down", file, path), nic, nvl, routing));
        LinkPattern p = new LinkPattern(o.get("each").getAsString());
        List<Integer> links = p.match(topo);
        if (links.isEmpty()) {
            throw SweepSpec.bad(file, path + ".each", "'" + p.text() + "' matches no link of " + topo.name() + "; nearest: "
                    + String.join(", ", p.nearest(topo)));
        }
        List<SweepWhatIf> out = new ArrayList<>();
        for (int i : links) {
            Link l = topo.links().get(i);
            if (o.has("factor")) {
                List<String> d = new ArrayList<>(degrade);
                d.add(l.id() + "=" + WhatIfOptions.num(o.get("factor").getAsDouble()));
                out.add(new SweepWhatIf(d, List.of(), nic, nvl, routing));
            } else {
                out.add(new SweepWhatIf(degrade, List.of(l.id()), nic, nvl, routing));
            }
        }
        return out;
    }

    /** {@code topo} routed as this set says (itself where the set names no routing), before its edits apply. */
    Topology routed(Topology topo) {
        return routing == null ? topo : topo.withRouting(Routing.ofCliName(routing));
    }

    /** The {@link WhatIf} of this set, each edit named as its flag. */
    WhatIf whatIf() {
        List<WhatIf.Degrade> ds = new ArrayList<>();
        for (String d : degrade) ds.add(WhatIf.parseDegrade(d, "--degrade " + d));
        List<WhatIf.Down> ups = new ArrayList<>();
        for (String d : down) ups.add(new WhatIf.Down(new LinkPattern(d), "--down " + d));
        return new WhatIf(nicGbps == null ? null : new WhatIf.NicRate(nicGbps, "--nic-gbps " + WhatIfOptions.num(nicGbps)),
                nvlinkGbps == null ? null : new WhatIf.NvlinkRate(nvlinkGbps, "--nvlink-gbps " + WhatIfOptions.num(nvlinkGbps)),
                ds, ups);
    }

    private static double number(JsonObject o, String k, String file, String path) {
        JsonElement v = o.get(k);
        if (!v.isJsonPrimitive() || !v.getAsJsonPrimitive().isNumber()) throw SweepSpec.bad(file, path + "." + k, "a number");
        return v.getAsDouble();
    }

    private static List<String> strings(JsonObject o, String k, String file, String path) {
        List<String> out = new ArrayList<>();
        if (!o.has(k)) return out;
        JsonElement v = o.get(k);
        List<JsonElement> items = new ArrayList<>();
        if (v.isJsonArray()) v.getAsJsonArray().forEach(items::add);
        else items.add(v);
        for (JsonElement x : items) {
            if (!x.isJsonPrimitive() || !x.getAsJsonPrimitive().isString() || x.getAsString().isBlank()) {
                throw SweepSpec.bad(file, path + "." + k, "a link id or glob, or a list of them (strings)");
            }
            out.add(x.getAsString());
        }
        return out;
    }
}
