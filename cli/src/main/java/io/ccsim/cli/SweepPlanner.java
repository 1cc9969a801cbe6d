package io.ccsim.cli;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Expands a {@link SweepSpec} into its points, checking every value before anything runs.
 *
 * <p>Order (the output order, the last axis fastest): topology, gpus, nodes, nics_per_node, oversubscription, sharp,
 * what-if set (an {@code each} set expanded in link order on that topology), NCCL environment (the variables in the
 * file's order, each's values in order), seed, sim_mode, op, dtype, size. A sample of N draws N distinct points of
 * that grid with {@link Random} seeded by the sample's seed (a partial Fisher-Yates shuffle) and keeps them in grid
 * order, so a spec gives the same points in every run.
 */
final class SweepPlanner {
    private SweepPlanner() {}

    /**
     * The points of {@code spec}; every topology is built once (to check its options and expand {@code each}).
     *
     * @throws UserException naming the file, the point's setting and what is wrong
     */
    static List<SweepPoint> points(SweepSpec spec) {
        String file = spec.file();
        for (int i = 0; i < spec.axis("ops").size(); i++) {
            String op = spec.axis("ops").get(i).getAsString();
            parseOr(spec, "$.ops", i, () -> CollectiveOp.parse(op));
        }
        for (int i = 0; i < spec.axis("dtypes").size(); i++) {
            String dt = spec.axis("dtypes").get(i).getAsString();
            parseOr(spec, "$.dtypes", i, () -> DataType.parse(dt));
        }
        List<Map<String, String>> envs = envs(spec.env());
        for (Map<String, String> e : envs) {
            try {
                NcclEnv.parse(e);
            } catch (RuntimeException ex) {
                throw SweepSpec.bad(file, "$.env", ex.getMessage());
            }
        }
        List<SweepPoint> out = new ArrayList<>();
        for (JsonElement topo : spec.axis("topology")) {
            for (JsonElement gpus : spec.axis("gpus")) {
                for (JsonElement nodes : spec.axis("nodes")) {
                    for (JsonElement nics : spec.axis("nics_per_node")) {
                        for (JsonElement over : spec.axis("oversubscription")) {
                            for (JsonElement sharp : spec.axis("sharp")) {
                                SweepPoint base = new SweepPoint(0, topo.getAsString(), gpus.getAsInt(), nodes.getAsInt(),
                                        nics.getAsInt(), over.getAsDouble(), sharp.getAsBoolean(), List.of(), List.of(), null,
                                        null, null, "", "", 0, Map.of(), 0, "folded");
                                addConfig(spec, base, envs, out);
                            }
                        }
                    }
                }
            }
        }
        return sample(spec, out);
    }

    private static void addConfig(SweepSpec spec, SweepPoint base, List<Map<String, String>> envs, List<SweepPoint> out) {
        String where = spec.file() + ": topology " + base.topology() + " gpus " + base.gpus() + " nodes " + base.nodes()
                + " nics_per_node " + base.nicsPerNode() + " oversubscription " + WhatIfOptions.num(base.oversubscription())
                + " sharp " + base.sharp() + ": ";
        // a configuration only extrapolated (or auto beyond its folded limit) is not built at its nodes here (12,500 HGX
        // nodes take seconds and most of a GiB): its options are checked on 2 nodes; what-ifs that edit links need it
        boolean extrapolatedOnly = TopologyArgs.isCatalog(base.topology()) && base.nodes() >= 2;
        for (JsonElement mode : spec.axis("sim_mode")) extrapolatedOnly &= SweepExtrapolation.extrapolates(mode.getAsString(), base);
        for (JsonObject w : spec.whatIf()) extrapolatedOnly &= !w.has("each") && !w.has("degrade") && !w.has("down");
        Topology t;
        try {
            t = TopologyArgs.resolve(base.topology(), base.gpus(), extrapolatedOnly ? 2 : base.nodes(),
                    base.oversubscription(), 0, base.nicsPerNode(), base.sharp());
        } catch (UserException e) {
            throw new UserException(where + e.getMessage(), e);
        }
        for (int w = 0; w < spec.whatIf().size(); w++) {
            String path = "$.what_if[" + w + "]";
            for (SweepWhatIf wi : SweepWhatIf.expand(spec.whatIf().get(w), t, spec.file(), path)) {
                if (!spec.whatIf().get(w).has("each") && !extrapolatedOnly) {
                    try {
                        wi.whatIf().apply(wi.routed(t));
                    } catch (IllegalArgumentException e) {
                        throw new UserException(where + path + ": " + e.getMessage(), e);
                    }
                }
                for (Map<String, String> env : envs) {
                    for (JsonElement seed : spec.axis("seeds")) {
                        for (JsonElement mode : spec.axis("sim_mode")) {
                            for (JsonElement op : spec.axis("ops")) {
                                for (JsonElement dt : spec.axis("dtypes")) {
                                    for (long size : spec.sizes()) {
                                        out.add(new SweepPoint(out.size(), base.topology(), base.gpus(), base.nodes(),
                                                base.nicsPerNode(), base.oversubscription(), base.sharp(), wi.degrade(),
                                                wi.down(), wi.nicGbps(), wi.nvlinkGbps(), wi.routing(), CollectiveOp.parse(op.getAsString()).cliName(),
                                                DataType.parse(dt.getAsString()).ncclTestsName(), size, env, seed.getAsLong(),
                                                mode.getAsString()));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /** Every combination of the variables' values, the first variable slowest. */
    static List<Map<String, String>> envs(Map<String, List<String>> env) {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<String>> e : env.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> m : out) {
                for (String v : e.getValue()) {
                    Map<String, String> c = new LinkedHashMap<>(m);
                    c.put(e.getKey(), v);
                    next.add(c);
                }
            }
            out = next;
        }
        return out;
    }

    private static List<SweepPoint> sample(SweepSpec spec, List<SweepPoint> grid) {
        if (spec.sample() == 0 || spec.sample() >= grid.size()) return grid;
        int[] idx = new int[grid.size()];
        for (int i = 0; i < idx.length; i++) idx[i] = i;
        Random r = new Random(spec.sampleSeed());
        for (int i = 0; i < spec.sample(); i++) {
            int j = i + r.nextInt(idx.length - i);
            int tmp = idx[i];
            idx[i] = idx[j];
            idx[j] = tmp;
        }
        int[] chosen = java.util.Arrays.copyOf(idx, spec.sample());
        java.util.Arrays.sort(chosen);
        List<SweepPoint> out = new ArrayList<>(chosen.length);
        for (int c : chosen) {
            SweepPoint p = grid.get(c);
            out.add(new SweepPoint(out.size(), p.topology(), p.gpus(), p.nodes(), p.nicsPerNode(), p.oversubscription(),
                    p.sharp(), p.degrade(), p.down(), p.nicGbps(), p.nvlinkGbps(), p.routing(), p.op(), p.dtype(), p.bytes(), p.env(),
                    p.seed(), p.simMode()));
        }
        return out;
    }

    private static void parseOr(SweepSpec spec, String key, int i, java.util.function.Supplier<?> parse) {
        try {
            parse.get();
        } catch (IllegalArgumentException e) {
            throw SweepSpec.bad(spec.file(), key + "[" + i + "]", e.getMessage());
        }
    }
}
