package io.ccsim.algorithms.profile;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.stream.JsonWriter;
import io.ccsim.algorithms.Protocol;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads and writes {@link CalibrationProfile} JSON with precise errors: every problem names the source,
 * the JSON path and what is valid. Unknown keys are errors (a typo must not silently keep a default).
 */
final class ProfileJson {
    private ProfileJson() {}

    private static final List<String> TOP_KEYS = List.of("gpu", "compute_capability", "kernel_launch_us",
            "protocols", "tree", "reduce_bw_gbps", "copy_bw_gbps", "link_efficiency", "tuner", "sim", "fit");
    private static final List<String> PROTOCOL_KEYS = List.of("base_latency_us", "max_channel_bw_gbps", "hop_latency_us");
    private static final List<String> SIM_KEYS = List.of("ring", "tree", "p2p", "chain", "duplex_efficiency", "cta",
            "graph_launch_us", "graph_call_launch_us", "multi_peer_efficiency", "channel_skew_ns", "framework_call_us");
    /**
     * {@code sim.chain} is optional (then the chain takes the ring's costs, see {@link SimCosts}), and so are
     * {@code sim.duplex_efficiency} (then 1 for every link class: independent directions) and
     * {@code sim.graph_launch_us} and {@code sim.graph_call_launch_us} (then 0), {@code sim.multi_peer_efficiency}
     * (then 1), {@code sim.channel_skew_ns} and {@code sim.framework_call_us} (then 0).
     */
    private static final List<String> SIM_REQUIRED = List.of("ring", "tree", "p2p");
    private static final List<String> SIM_PROTOCOL_KEYS = List.of("launch_latency_us", "step_overhead_ns",
            "hop_latency_us", "max_channel_bw_gbps", "pipeline_bytes");
    /** The keys a sim family's protocol may have: the required ones plus the optional {@code lane_shares}. */
    private static final List<String> SIM_PROTOCOL_ALLOWED = List.of("launch_latency_us", "step_overhead_ns",
            "hop_latency_us", "max_channel_bw_gbps", "pipeline_bytes", "lane_shares", "recv_step_overhead_ns",
            "registered_channel_bw_gbps");
    /** The most lanes a plan has (tree: reduce up, broadcast down; p2p: send, receive, and all-to-all's own-block copy). */
    private static final int LANES = 3;
    private static final List<String> LATENCY_KEYS = List.of("base_latency_us", "hop_latency_us");
    private static final List<String> LINK_KEYS = List.of("nvlink", "pcie", "net");
    private static final List<String> NODE_KEYS = List.of("n1", "n2", "n4");
    private static final List<String> PROTO_NAMES = List.of("LL", "LL128", "Simple");
    private static final List<String> TUNER_KEYS = List.of("ll_max_bw_gbps", "tree_max_channel_bw_gbps",
            "tree_ll128_max_channel_bw_gbps", "ll128_efficiency", "tree_efficiency", "tree_ll_factor",
            "tree_ll128_intra_efficiency", "tree_ll128_inter_efficiency", "net_overhead_us",
            "ring_plateau_factor", "tree_correction");
    /** The tuner's keys: the required ones and those a profile written before they existed may leave out (readTuner). */
    private static final List<String> TUNER_ALLOWED_KEYS = java.util.stream.Stream.concat(TUNER_KEYS.stream(),
            java.util.stream.Stream.of("ring_ll128_max_channel_bw_gbps")).toList();
    private static final List<String> FIT_KEYS = List.of("source", "date", "residuals");

    /** A cursor over the parsed tree that knows its source and path. */
    private static final class Ctx {
        final String source;

        Ctx(String source) { this.source = source; }

        ProfileException error(String path, String problem) { return new ProfileException(source, path, problem); }

        JsonObject object(JsonElement e, String path, List<String> allowed, List<String> required) {
            if (e == null || !e.isJsonObject()) throw error(path, "expected a JSON object, got " + describe(e));
            JsonObject o = e.getAsJsonObject();
            for (String k : o.keySet()) {
                if (!allowed.contains(k)) {
                    throw error(path + "." + k, "unknown key '" + k + "'; valid keys here: " + String.join(", ", allowed));
                }
            }
            for (String k : required) {
                if (!o.has(k)) throw error(path, "missing required key '" + k + "'");
            }
            return o;
        }

        double number(JsonObject o, String key, String path) {
            String p = path + "." + key;
            JsonElement e = o.get(key);
            if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
                throw error(p, "expected a number, got " + describe(e));
            }
            double v = e.getAsDouble();
            if (!Double.isFinite(v)) throw error(p, "expected a finite number, got " + v);
            return v;
        }

        double nonNegative(JsonObject o, String key, String path) {
            double v = number(o, key, path);
            if (v < 0) throw error(path + "." + key, "must be >= 0, got " + v);
            return v;
        }

        double positive(JsonObject o, String key, String path) {
            double v = number(o, key, path);
            if (v <= 0) throw error(path + "." + key, "must be > 0, got " + v);
            return v;
        }

        /** A number in [0, 1]; {@code meaning} says what the ends mean, for the error. */
        double unitInterval(JsonObject o, String key, String path, String meaning) {
            double v = number(o, key, path);
            if (!(v >= 0 && v <= 1)) throw error(path + "." + key, "expected a number in [0, 1] (" + meaning + "), got " + v);
            return v;
        }

        double fraction(JsonObject o, String key, String path) {
            double v = number(o, key, path);
            if (!(v > 0 && v <= 1)) throw error(path + "." + key, "must be in (0, 1], got " + v);
            return v;
        }

        String string(JsonObject o, String key, String path) {
            JsonElement e = o.get(key);
            if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
                throw error(path + "." + key, "expected a string, got " + describe(e));
            }
            return e.getAsString();
        }

        int integer(JsonObject o, String key, String path) {
            double v = number(o, key, path);
            if (v != Math.rint(v) || Math.abs(v) > Integer.MAX_VALUE) {
                throw error(path + "." + key, "expected an integer, got " + v);
            }
            return (int) v;
        }

        static String describe(JsonElement e) {
            if (e == null) return "nothing";
            if (e.isJsonNull()) return "null";
            if (e.isJsonObject()) return "an object";
            if (e.isJsonArray()) return "an array";
            JsonPrimitive p = e.getAsJsonPrimitive();
            if (p.isString()) return "the string \"" + p.getAsString() + "\"";
            if (p.isBoolean()) return "the boolean " + p.getAsBoolean();
            return "the number " + p.getAsString();
        }
    }

    static CalibrationProfile read(String json, String source) {
        Ctx c = new Ctx(source);
        JsonElement root = io.ccsim.topology.input.JsonTree.parse(json, "a calibration profile object", c::error);
        List<String> required = TOP_KEYS.subList(0, TOP_KEYS.size() - 1);
        JsonObject o = c.object(root, "$", TOP_KEYS, required);
        String gpu = c.string(o, "gpu", "$");
        if (gpu.isBlank()) throw c.error("$.gpu", "must not be blank");
        int cc = c.integer(o, "compute_capability", "$");
        if (cc < 60 || cc > 200) throw c.error("$.compute_capability", "must be in 60..200 (90 for Hopper), got " + cc);
        double launch = c.nonNegative(o, "kernel_launch_us", "$");
        Map<Protocol, ProtocolCosts> protocols = readProtocols(c, o.get("protocols"), launch);
        Map<Protocol, LatencyCosts> treeLat = readTreeLatencies(c, o.get("tree"));
        double reduce = c.positive(o, "reduce_bw_gbps", "$");
        double copy = c.positive(o, "copy_bw_gbps", "$");
        Map<LinkClass, Double> eff = links(c, o.get("link_efficiency"), "$.link_efficiency", true);
        TunerConstants tuner = readTuner(c, o.get("tuner"), protocols.get(Protocol.LL128).maxChannelBwGbps());
        SimCosts sim = readSim(c, o.get("sim"));
        Optional<FitInfo> fit = o.has("fit") ? Optional.of(readFit(c, o.get("fit"))) : Optional.empty();
        try {
            return new CalibrationProfile(gpu, cc, launch, protocols, treeLat, reduce, copy, eff, tuner, sim, fit);
        } catch (IllegalArgumentException e) {
            throw c.error("$", e.getMessage());
        }
    }

    /** {@code protocols}: NCCL's ring constants per protocol; each base latency at least {@code launch}. */
    private static Map<Protocol, ProtocolCosts> readProtocols(Ctx c, JsonElement e, double launch) {
        JsonObject protos = c.object(e, "$.protocols", PROTO_NAMES, PROTO_NAMES);
        EnumMap<Protocol, ProtocolCosts> protocols = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            String path = "$.protocols." + p.ncclName();
            JsonObject po = c.object(protos.get(p.ncclName()), path, PROTOCOL_KEYS, PROTOCOL_KEYS);
            double base = c.nonNegative(po, "base_latency_us", path);
            if (launch > base) {
                throw c.error(path + ".base_latency_us", "must be >= kernel_launch_us (" + launch
                        + "), since the base latency includes the launch; got " + base);
            }
            protocols.put(p, new ProtocolCosts(base, c.positive(po, "max_channel_bw_gbps", path), links(c, po.get("hop_latency_us"),
                            path + ".hop_latency_us", false)));
        }
        return protocols;
    }

    /** {@code tree}: NCCL's tree latencies per protocol. */
    private static Map<Protocol, LatencyCosts> readTreeLatencies(Ctx c, JsonElement e) {
        JsonObject tree = c.object(e, "$.tree", PROTO_NAMES, PROTO_NAMES);
        EnumMap<Protocol, LatencyCosts> treeLat = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            String path = "$.tree." + p.ncclName();
            JsonObject to = c.object(tree.get(p.ncclName()), path, LATENCY_KEYS, LATENCY_KEYS);
            treeLat.put(p, new LatencyCosts(c.nonNegative(to, "base_latency_us", path),
                    links(c, to.get("hop_latency_us"), path + ".hop_latency_us", false)));
        }
        return treeLat;
    }

    /**
     * {@code tuner}: NCCL's bandwidth refinements. Without {@code ring_ll128_max_channel_bw_gbps} the ring LL128 cap is
     * the LL128 protocol's per-channel limit {@code ll128Cap} times the LL128 efficiency at every node count, which is
     * how such a file's numbers were read before the key existed.
     */
    private static TunerConstants readTuner(Ctx c, JsonElement e, double ll128Cap) {
        JsonObject t = c.object(e, "$.tuner", TUNER_ALLOWED_KEYS, TUNER_KEYS);
        String tp = "$.tuner";
        Map<Protocol, List<Double>> corr = readTreeCorrection(c, t.get("tree_correction"), tp + ".tree_correction");
        double ll128Eff = c.fraction(t, "ll128_efficiency", tp);
        ByNodeCount ringLl128 = t.has("ring_ll128_max_channel_bw_gbps")
                ? byNodes(c, t, "ring_ll128_max_channel_bw_gbps", tp)
                : new ByNodeCount(ll128Cap * ll128Eff, ll128Cap * ll128Eff, ll128Cap * ll128Eff);
        return new TunerConstants(
                byNodes(c, t, "ll_max_bw_gbps", tp), byNodes(c, t, "tree_max_channel_bw_gbps", tp),
                byNodes(c, t, "tree_ll128_max_channel_bw_gbps", tp), ringLl128,
                ll128Eff, c.fraction(t, "tree_efficiency", tp),
                c.fraction(t, "tree_ll_factor", tp), c.fraction(t, "tree_ll128_intra_efficiency", tp),
                c.fraction(t, "tree_ll128_inter_efficiency", tp), c.nonNegative(t, "net_overhead_us", tp),
                c.positive(t, "ring_plateau_factor", tp), corr);
    }

    /** {@code tuner.tree_correction}: per protocol, {@link TunerConstants#TREE_CORRECTION_ENTRIES} factors &gt; 0. */
    private static Map<Protocol, List<Double>> readTreeCorrection(Ctx c, JsonElement e, String tcPath) {
        JsonObject tc = c.object(e, tcPath, PROTO_NAMES, PROTO_NAMES);
        EnumMap<Protocol, List<Double>> corr = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            String path = tcPath + "." + p.ncclName();
            JsonElement pe = tc.get(p.ncclName());
            if (!pe.isJsonArray()) throw c.error(path, "expected an array of "
                    + TunerConstants.TREE_CORRECTION_ENTRIES + " numbers, got " + Ctx.describe(pe));
            JsonArray a = pe.getAsJsonArray();
            if (a.size() != TunerConstants.TREE_CORRECTION_ENTRIES) {
                throw c.error(path, "expected " + TunerConstants.TREE_CORRECTION_ENTRIES
                        + " factors (sizes 64 B × 2^i), got " + a.size());
            }
            List<Double> l = new ArrayList<>(a.size());
            for (int i = 0; i < a.size(); i++) {
                JsonElement x = a.get(i);
                if (!x.isJsonPrimitive() || !x.getAsJsonPrimitive().isNumber() || !(x.getAsDouble() > 0)
                        || !Double.isFinite(x.getAsDouble())) {
                    throw c.error(path + "[" + i + "]", "expected a finite number > 0, got " + Ctx.describe(x));
                }
                l.add(x.getAsDouble());
            }
            corr.put(p, l);
        }
        return corr;
    }

    /** {@code fit}: source and date required, residuals optional. */
    private static FitInfo readFit(Ctx c, JsonElement e) {
        JsonObject f = c.object(e, "$.fit", FIT_KEYS, List.of("source", "date"));
        Map<String, Double> residuals = new LinkedHashMap<>();
        if (f.has("residuals")) {
            JsonElement re = f.get("residuals");
            if (!re.isJsonObject()) throw c.error("$.fit.residuals", "expected an object of name: number, got "
                    + Ctx.describe(re));
            for (String k : re.getAsJsonObject().keySet()) {
                residuals.put(k, c.number(re.getAsJsonObject(), k, "$.fit.residuals"));
            }
        }
        return new FitInfo(c.string(f, "source", "$.fit"), c.string(f, "date", "$.fit"), residuals);
    }

    /** {@code sim}: the simulator's costs; see {@link #SIM_REQUIRED} for what may be absent. */
    private static SimCosts readSim(Ctx c, JsonElement e) {
        JsonObject so = c.object(e, "$.sim", SIM_KEYS, SIM_REQUIRED);
        EnumMap<SimCosts.Family, Map<Protocol, SimProtocolCosts>> fams = new EnumMap<>(SimCosts.Family.class);
        for (SimCosts.Family f : SimCosts.Family.values()) {
            if (!so.has(f.jsonName())) continue; // only chain may be absent (SIM_REQUIRED)
            fams.put(f, readSimFamily(c, so.get(f.jsonName()), "$.sim." + f.jsonName()));
        }
        Map<Protocol, SimProtocolCosts> ring = fams.get(SimCosts.Family.RING);
        Map<LinkClass, Double> duplex = so.has("duplex_efficiency")
                ? links(c, so.get("duplex_efficiency"), "$.sim.duplex_efficiency", true) : SimCosts.INDEPENDENT_DIRECTIONS;
        EnumMap<Protocol, CtaCosts> cta = new EnumMap<>(Protocol.class);
        if (so.has("cta")) {
            // any subset of the protocols; each lists all five streams
            JsonObject co = c.object(so.get("cta"), "$.sim.cta", PROTO_NAMES, List.of());
            for (Protocol p : Protocol.values()) {
                if (co.has(p.ncclName())) cta.put(p, readCta(c, co.get(p.ncclName()), "$.sim.cta." + p.ncclName()));
            }
        }
        double[] launch = new double[2];
        String[] launchKeys = {"graph_launch_us", "graph_call_launch_us"};
        for (int i = 0; i < 2; i++) {
            launch[i] = so.has(launchKeys[i]) ? c.nonNegative(so, launchKeys[i], "$.sim") : 0.0;
            if (launch[i] >= 1e6) throw c.error("$.sim." + launchKeys[i], "expected µs in [0, 1e6), got " + launch[i]);
        }
        EnumMap<Protocol, Double> multiPeer = new EnumMap<>(SimCosts.NO_MULTI_PEER_LOSS);
        if (so.has("multi_peer_efficiency")) {
            String path = "$.sim.multi_peer_efficiency";
            JsonObject mo = c.object(so.get("multi_peer_efficiency"), path, PROTO_NAMES, PROTO_NAMES);
            for (Protocol p : Protocol.values()) multiPeer.put(p, c.fraction(mo, p.ncclName(), path));
        }
        double skew = so.has("channel_skew_ns") ? c.nonNegative(so, "channel_skew_ns", "$.sim") : 0.0;
        if (skew >= 1e6) throw c.error("$.sim.channel_skew_ns", "expected ns in [0, 1e6), got " + skew);
        double framework = so.has("framework_call_us") ? c.nonNegative(so, "framework_call_us", "$.sim") : 0.0;
        if (framework >= 1e6) throw c.error("$.sim.framework_call_us", "expected µs in [0, 1e6), got " + framework);
        return new SimCosts(ring, fams.get(SimCosts.Family.TREE), fams.get(SimCosts.Family.P2P),
                fams.getOrDefault(SimCosts.Family.CHAIN, ring), duplex, cta, launch[0], launch[1], multiPeer, skew,
                framework);
    }

    /** {@code sim.<family>}: per protocol, its {@link SimProtocolCosts}. */
    private static Map<Protocol, SimProtocolCosts> readSimFamily(Ctx c, JsonElement e, String fpath) {
        JsonObject fo = c.object(e, fpath, PROTO_NAMES, PROTO_NAMES);
        EnumMap<Protocol, SimProtocolCosts> protos = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            String path = fpath + "." + p.ncclName();
            JsonObject po = c.object(fo.get(p.ncclName()), path, SIM_PROTOCOL_ALLOWED, SIM_PROTOCOL_KEYS);
            double pb = c.number(po, "pipeline_bytes", path);
            if (pb != Math.rint(pb) || pb < 1 || pb > (double) (1L << 40)) {
                throw c.error(path + ".pipeline_bytes", "expected a whole number of bytes in [1, 2^40], got " + pb);
            }
            // registered buffers are NCCL's point-to-point Simple path only (P2pSettings#registered)
            if (po.has("registered_channel_bw_gbps") && !path.equals("$.sim.p2p.Simple")) {
                throw c.error(path + ".registered_channel_bw_gbps", "only $.sim.p2p.Simple has it (registered buffers are NCCL's"
                        + " point-to-point Simple path)");
            }
            protos.put(p, new SimProtocolCosts(c.nonNegative(po, "launch_latency_us", path),
                    c.nonNegative(po, "step_overhead_ns", path), links(c, po.get("hop_latency_us"), path + ".hop_latency_us", false),
                    c.positive(po, "max_channel_bw_gbps", path), (long) pb,
                    po.has("lane_shares") ? laneShares(c, po.get("lane_shares"), path + ".lane_shares") : List.of(),
                    po.has("recv_step_overhead_ns") ? c.nonNegative(po, "recv_step_overhead_ns", path) : SimProtocolCosts.SAME_AS_STEP,
                    po.has("registered_channel_bw_gbps") ? c.positive(po, "registered_channel_bw_gbps", path) : SimProtocolCosts.UNSET));
        }
        return protos;
    }

    /** {@code sim.cta.<protocol>}: the five stream costs (required) and the optional terms, with their defaults. */
    private static CtaCosts readCta(Ctx c, JsonElement e, String path) {
        JsonObject po = c.object(e, path, CtaCosts.KEYS, CtaCosts.STREAM_KEYS);
        double[] v = new double[CtaCosts.STREAM_KEYS.size()];
        for (int i = 0; i < v.length; i++) v[i] = c.nonNegative(po, CtaCosts.STREAM_KEYS.get(i), path);
        if (v[0] + v[1] + v[2] + v[3] + v[4] <= 0) {
            throw c.error(path, "all five costs are 0: a thread block would move data in no time; at least one must be > 0");
        }
        double l2 = po.has("l2_bytes") ? c.positive(po, "l2_bytes", path) : CtaCosts.DEFAULT_L2_BYTES;
        double miss = po.has("l2_miss_factor") ? c.number(po, "l2_miss_factor", path) : 1.0;
        if (!(miss >= 1)) throw c.error(path + ".l2_miss_factor", "expected a number >= 1 (1 = no cache effect), got " + miss);
        double load = po.has("channel_load") ? c.unitInterval(po, "channel_load", path, "0 = no load effect") : 0.0;
        double overlap = po.has("send_overlap") ? c.unitInterval(po, "send_overlap", path, "0 = the streams add up") : 0.0;
        if (po.has("gpu_send_gbps") != po.has("gpu_send_gbps_per_block")) {
            throw c.error(path, "gpu_send_gbps and gpu_send_gbps_per_block go together (the send limit a rank's blocks share"
                    + " and its part per sending block); give both or neither");
        }
        double send = po.has("gpu_send_gbps") ? c.positive(po, "gpu_send_gbps", path) : 0.0;
        double perBlock = po.has("gpu_send_gbps_per_block") ? c.nonNegative(po, "gpu_send_gbps_per_block", path) : 0.0;
        if (send >= 1e6) throw c.error(path + ".gpu_send_gbps", "expected GB/s in (0, 1e6), got " + send);
        if (perBlock >= 1e6) throw c.error(path + ".gpu_send_gbps_per_block", "expected GB/s in [0, 1e6), got " + perBlock);
        double loads = po.has("send_overlap_loads")
                ? c.unitInterval(po, "send_overlap_loads", path, "1 = the send overlaps all local work, 0 = only the output stores")
                : CtaCosts.ALL_LOCAL_WORK;
        return new CtaCosts(v[0], v[1], v[2], v[3], v[4], l2, miss, load, overlap, send, perBlock, loads);
    }

    /**
     * {@code lane_shares}: an array of 2 or {@value #LANES} fractions of the thread block, each in (0, 1]: a tree plan
     * has two lanes (reduce up, broadcast down), a point-to-point plan two (send, receive) or three (all-to-all's
     * own-block copy); a plan with more lanes than listed is refused when it is simulated.
     */
    private static List<Double> laneShares(Ctx c, JsonElement e, String path) {
        if (e == null || !e.isJsonArray()) {
            throw c.error(path, "expected an array of 2 or " + LANES + " fractions of the thread block (lane 0, lane 1[, lane 2]), got " + Ctx.describe(e));
        }
        JsonArray a = e.getAsJsonArray();
        if (a.size() < 2 || a.size() > LANES) throw c.error(path, "expected 2 or " + LANES + " fractions (lane 0, lane 1[, lane 2]), got " + a.size());
        List<Double> l = new ArrayList<>(LANES);
        for (int i = 0; i < a.size(); i++) {
            JsonElement x = a.get(i);
            if (!x.isJsonPrimitive() || !x.getAsJsonPrimitive().isNumber()) {
                throw c.error(path + "[" + i + "]", "expected a number in (0, 1], got " + Ctx.describe(x));
            }
            double v = x.getAsDouble();
            if (!(v > 0 && v <= 1)) throw c.error(path + "[" + i + "]", "must be in (0, 1] (a fraction of the thread block), got " + v);
            l.add(v);
        }
        return l;
    }

    private static Map<LinkClass, Double> links(Ctx c, JsonElement e, String path, boolean fraction) {
        JsonObject o = c.object(e, path, LINK_KEYS, LINK_KEYS);
        EnumMap<LinkClass, Double> m = new EnumMap<>(LinkClass.class);
        for (LinkClass lc : LinkClass.values()) {
            m.put(lc, fraction ? c.fraction(o, lc.jsonName(), path) : c.nonNegative(o, lc.jsonName(), path));
        }
        return m;
    }

    private static ByNodeCount byNodes(Ctx c, JsonObject parent, String key, String parentPath) {
        String path = parentPath + "." + key;
        JsonObject o = c.object(parent.get(key), path, NODE_KEYS, NODE_KEYS);
        return new ByNodeCount(c.positive(o, "n1", path), c.positive(o, "n2", path), c.positive(o, "n4", path));
    }

    static String write(CalibrationProfile p) {
        StringWriter sw = new StringWriter();
        try (JsonWriter w = new JsonWriter(sw)) {
            w.setIndent("  ");
            w.beginObject();
            w.name("gpu").value(p.gpu());
            w.name("compute_capability").value(p.computeCapability());
            w.name("kernel_launch_us").value(p.kernelLaunchUs());
            writeProtocols(w, p);
            writeTreeLatencies(w, p);
            w.name("reduce_bw_gbps").value(p.reduceBwGbps());
            w.name("copy_bw_gbps").value(p.copyBwGbps());
            writeLinks(w, "link_efficiency", p.linkEfficiency());
            writeTuner(w, p.tuner());
            writeSim(w, p.sim());
            if (p.fit().isPresent()) writeFit(w, p.fit().get());
            w.endObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sw.toString() + "\n";
    }

    private static void writeProtocols(JsonWriter w, CalibrationProfile p) throws IOException {
        w.name("protocols").beginObject();
        for (Protocol pr : Protocol.values()) {
            ProtocolCosts pc = p.protocol(pr);
            w.name(pr.ncclName()).beginObject();
            w.name("base_latency_us").value(pc.baseLatencyUs());
            w.name("max_channel_bw_gbps").value(pc.maxChannelBwGbps());
            writeLinks(w, "hop_latency_us", pc.hopLatencyUs());
            w.endObject();
        }
        w.endObject();
    }

    private static void writeTreeLatencies(JsonWriter w, CalibrationProfile p) throws IOException {
        w.name("tree").beginObject();
        for (Protocol pr : Protocol.values()) {
            LatencyCosts lc = p.treeLatencies().get(pr);
            w.name(pr.ncclName()).beginObject();
            w.name("base_latency_us").value(lc.baseLatencyUs());
            writeLinks(w, "hop_latency_us", lc.hopLatencyUs());
            w.endObject();
        }
        w.endObject();
    }

    private static void writeTuner(JsonWriter w, TunerConstants t) throws IOException {
        w.name("tuner").beginObject();
        writeNodes(w, "ll_max_bw_gbps", t.llMaxBwGbps());
        writeNodes(w, "tree_max_channel_bw_gbps", t.treeMaxChannelBwGbps());
        writeNodes(w, "tree_ll128_max_channel_bw_gbps", t.treeLl128MaxChannelBwGbps());
        writeNodes(w, "ring_ll128_max_channel_bw_gbps", t.ringLl128MaxChannelBwGbps());
        w.name("ll128_efficiency").value(t.ll128Efficiency());
        w.name("tree_efficiency").value(t.treeEfficiency());
        w.name("tree_ll_factor").value(t.treeLlFactor());
        w.name("tree_ll128_intra_efficiency").value(t.treeLl128IntraEfficiency());
        w.name("tree_ll128_inter_efficiency").value(t.treeLl128InterEfficiency());
        w.name("net_overhead_us").value(t.netOverheadUs());
        w.name("ring_plateau_factor").value(t.ringPlateauFactor());
        w.name("tree_correction").beginObject();
        for (Protocol pr : Protocol.values()) {
            w.name(pr.ncclName()).beginArray();
            for (double d : t.treeCorrection().get(pr)) w.value(d);
            w.endArray();
        }
        w.endObject();
        w.endObject();
    }

    /** {@code sim}: every family, then the optional keys only where they differ from their defaults. */
    private static void writeSim(JsonWriter w, SimCosts sim) throws IOException {
        w.name("sim").beginObject();
        for (SimCosts.Family f : SimCosts.Family.values()) {
            w.name(f.jsonName()).beginObject();
            for (Protocol pr : Protocol.values()) writeSimProtocol(w, pr, sim.get(f, pr));
            w.endObject();
        }
        writeLinks(w, "duplex_efficiency", sim.duplexEfficiency());
        if (sim.graphLaunchUs() > 0) w.name("graph_launch_us").value(sim.graphLaunchUs());
        if (sim.graphCallLaunchUs() > 0) w.name("graph_call_launch_us").value(sim.graphCallLaunchUs());
        if (sim.channelSkewNs() > 0) w.name("channel_skew_ns").value(sim.channelSkewNs());
        if (sim.frameworkCallUs() > 0) w.name("framework_call_us").value(sim.frameworkCallUs());
        if (!sim.multiPeerEfficiency().equals(SimCosts.NO_MULTI_PEER_LOSS)) {
            w.name("multi_peer_efficiency").beginObject();
            for (Protocol pr : Protocol.values()) w.name(pr.ncclName()).value(sim.multiPeerEfficiency(pr));
            w.endObject();
        }
        if (!sim.cta().isEmpty()) {
            w.name("cta").beginObject();
            for (Protocol pr : Protocol.values()) {
                CtaCosts cc = sim.ctaOf(pr);
                if (cc != null) writeCta(w, pr, cc);
            }
            w.endObject();
        }
        w.endObject();
    }

    private static void writeSimProtocol(JsonWriter w, Protocol pr, SimProtocolCosts sc) throws IOException {
        w.name(pr.ncclName()).beginObject();
        w.name("launch_latency_us").value(sc.launchLatencyUs());
        w.name("step_overhead_ns").value(sc.stepOverheadNs());
        if (sc.hasRecvStepOverhead()) w.name("recv_step_overhead_ns").value(sc.recvStepOverheadNs());
        writeLinks(w, "hop_latency_us", sc.hopLatencyUs());
        w.name("max_channel_bw_gbps").value(sc.maxChannelBwGbps());
        if (sc.hasRegisteredChannelBw()) w.name("registered_channel_bw_gbps").value(sc.registeredChannelBwGbps());
        w.name("pipeline_bytes").value(sc.pipelineBytes());
        if (!sc.laneShares().isEmpty()) {
            w.name("lane_shares").beginArray();
            for (double d : sc.laneShares()) w.value(d);
            w.endArray();
        }
        w.endObject();
    }

    /**
     * {@code sim.cta.<protocol>}: the keys up to the send limit's pair, that pair only when the limit is on, and
     * {@code send_overlap_loads} only when below 1, so that a profile without them has neither key.
     */
    private static void writeCta(JsonWriter w, Protocol pr, CtaCosts cc) throws IOException {
        w.name(pr.ncclName()).beginObject();
        double[] v = cc.toArray();
        int n = cc.limitsGpuSend() ? CtaCosts.OVERLAP_LOADS : CtaCosts.GPU_SEND;
        for (int i = 0; i < n; i++) w.name(CtaCosts.KEYS.get(i)).value(v[i]);
        if (cc.narrowsOverlap()) w.name(CtaCosts.KEYS.get(CtaCosts.OVERLAP_LOADS)).value(v[CtaCosts.OVERLAP_LOADS]);
        w.endObject();
    }

    private static void writeFit(JsonWriter w, FitInfo f) throws IOException {
        w.name("fit").beginObject();
        w.name("source").value(f.source());
        w.name("date").value(f.date());
        w.name("residuals").beginObject();
        for (Map.Entry<String, Double> e : f.residuals().entrySet()) w.name(e.getKey()).value(e.getValue());
        w.endObject();
        w.endObject();
    }

    private static void writeLinks(JsonWriter w, String name, Map<LinkClass, Double> m) throws IOException {
        w.name(name).beginObject();
        for (LinkClass lc : LinkClass.values()) w.name(lc.jsonName()).value(m.get(lc));
        w.endObject();
    }

    private static void writeNodes(JsonWriter w, String name, ByNodeCount b) throws IOException {
        w.name(name).beginObject();
        w.name("n1").value(b.oneNode());
        w.name("n2").value(b.twoNodes());
        w.name("n4").value(b.manyNodes());
        w.endObject();
    }

    /** Keys accepted at the top level (for documentation and tests). */
    static Set<String> topKeys() { return new TreeSet<>(TOP_KEYS); }
}
