package io.ccsim.algorithms.profile;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The simulator's own timing parameters (JSON section {@code sim}), separate from NCCL's tuner constants
 * so that fitting the simulator to measurements cannot move the Tuner's NCCL-faithful choices.
 *
 * <p>One {@link SimProtocolCosts} per (algorithm family, protocol): the ring algorithm, NCCL's tree
 * (whose chain pipelining and per-channel throughput differ from the ring's, as NCCL's own tuner has
 * separate tree caps: perChMaxTreeBws in src/graph/tuning.cc), and point-to-point (send/recv,
 * all-to-all), whose kernels NCCL launches and schedules differently (src/enqueue.cc p2p path), and the
 * chain: ring broadcast and reduce, a pipeline from/to the root over the ring order (NCCL's
 * runRing in src/device/broadcast.h and reduce.h: one send or receive per rank and step, no data coming
 * back around the ring). Measured, a hop of that chain costs far less than a step of the ring
 * all-gather/reduce-scatter/all-reduce (calibration/nccl-h200, Ring/Simple 8 B: broadcast n = 2 → 4
 * adds ~0.7 µs for two more hops, all_gather ~6 µs), so it has its own costs. In the JSON the
 * {@code chain} key is optional: a profile without it takes {@code ring}'s costs for the chain.
 *
 * @param ring  per protocol: costs of ring all-gather, reduce-scatter and all-reduce
 * @param tree  per protocol: costs of the tree all-reduce
 * @param p2p   per protocol: costs of send/recv and all-to-all
 *
 * <p>{@code duplex_efficiency} (optional in the JSON, default 1 per class) is, per link class, the fraction
 * of one direction's capacity each direction of a full-duplex link delivers when both directions carry
 * traffic: a direction's capacity is C × e while the opposite direction carries a flow
 * ({@code FlowNetwork#setDuplexEfficiency}). Measured on NVLink4 (calibration/nccl-h200, NCCL 2.28.9,
 * n = 2, Simple): all_gather, both directions busy, 268 GB/s per direction; broadcast, one direction,
 * 361 GB/s.
 *
 * <p>{@code cta} (optional in the JSON, per protocol) replaces, for the protocols it lists, the per-channel
 * limit and the shared reduce/copy throughput by a per-stream cost of the thread block ({@link CtaCosts}): a
 * step's rate then depends on what its primitive reads and writes. It is shared by every family, as one
 * kernel runs every algorithm's steps (ccsim's own kernels: gpu-backend's ccsim_prims.cu). A protocol it does
 * not list keeps the older model; the built-in NCCL-fitted profiles have none.
 *
 * <p>{@code graph_launch_us} and {@code graph_call_launch_us} (optional in the JSON, default 0) are not properties
 * of the simulated system but of how gpu-backend's CudaExecutor times a call: it records every GPU's start event,
 * then launches one CUDA graph per GPU (its back-to-back calls, captured) one GPU after the other from one host
 * thread, so GPU r's calls start r host graph launches after the start events, and every rank's elapsed time
 * carries its own offset. A host graph launch costs {@code graph_launch_us + iterations × graph_call_launch_us};
 * the per-call time predicted for the CudaExecutor's rows is the simulated back-to-back mean plus
 * (n − 1) × (graph_call_launch_us + graph_launch_us / iterations) ({@code PerfRunner#simulateGraphReplay}); NCCL's
 * fixtures and {@code ccsim perf} never add it. Measured on the 4 × H200 host (gpu-backend/results/h200x4-skew,
 * DeviceRunner skew: the host time of the launch loop, 5 to 200 captured calls): 10.3 µs + 1.29 µs per call and
 * GPU; a send/recv, whose per-rank work does not depend on n, costs 2.7-3.3 µs more per call at n = 4 than at
 * n = 2 from 50 captured calls, as 2 × (1.29 + 10.3 / iterations) predicts.
 *
 * <p>{@code multi_peer_efficiency} (optional in the JSON, default 1 per protocol) is, per protocol, the fraction of a
 * GPU's NVLink capacity, per direction, that its traffic gets when the GPU sends to (or receives from) several peers
 * at once: all-to-all, and the tree's chain inside a node (a middle rank sends up and down). The executor routes such
 * flows through one more constraint per GPU, protocol and direction, of that capacity ({@code Fabric#multiPeerLink});
 * a ring or a send/recv ring (one peer each way) never crosses it. Measured on 4 x H200 NVSwitch
 * (calibration/nccl-h200, NCCL 2.28.9, n = 4): a send/recv to one peer moves 360 GB/s per GPU at 32 channels, an
 * all-to-all to three peers 313-325 GB/s at 24 channels; a middle rank of the Tree/LL chain moves 2 x 70 GB/s of data
 * (281 GB/s of LL lines) per direction where single-peer LL rows run faster; per-channel limits alone predicted
 * both 12-17 % fast.
 *
 * @param chain  per protocol: costs of ring broadcast and reduce
 * @param duplexEfficiency per link class, in (0, 1]; every class present
 * @param cta    per protocol, possibly none: the thread block's per-stream costs
 * @param graphLaunchUs     host cost of one CUDA graph launch of the CudaExecutor's timing, µs, ≥ 0
 * @param graphCallLaunchUs its cost per captured call, µs, ≥ 0
 * @param multiPeerEfficiency per protocol, in (0, 1]; every protocol present
 * @param channelSkewNs     how much later each channel's thread block starts than the previous one, ns, ≥ 0
 *                          (JSON {@code sim.channel_skew_ns}, optional, default 0): channel c starts
 *                          (c mod {@value #SKEW_PHASES}) × this after its rank's kernel. Identical channels of a
 *                          simulation otherwise stay in lock-step, so their bursts all meet on the links, where
 *                          real thread blocks drift apart and interleave: ccsim's LL all-gather at 48 channels on
 *                          4 × H200 took 1234 µs, 1548 simulated in lock-step, 1400 with a skew of 20 ns and
 *                          1300 with 500 ns (gpu-backend/results/h200x4-channels). With a skew, only channels of
 *                          the same phase fold into one simulated representative.
 */
public record SimCosts(Map<Protocol, SimProtocolCosts> ring, Map<Protocol, SimProtocolCosts> tree,
                       Map<Protocol, SimProtocolCosts> p2p, Map<Protocol, SimProtocolCosts> chain,
                       Map<LinkClass, Double> duplexEfficiency, Map<Protocol, CtaCosts> cta, double graphLaunchUs,
                       double graphCallLaunchUs, Map<Protocol, Double> multiPeerEfficiency, double channelSkewNs) {

    /** Channel start phases of {@link #channelSkewNs}: channel c starts (c mod this) skews late. */
    public static final int SKEW_PHASES = 8;

    /** Duplex efficiency 1 for every link class: the directions of a full-duplex link are independent. */
    public static final Map<LinkClass, Double> INDEPENDENT_DIRECTIONS = independentDirections();
    /** Multi-peer efficiency 1 for every protocol: traffic to several peers gets the NVLinks' whole capacity. */
    public static final Map<Protocol, Double> NO_MULTI_PEER_LOSS = noMultiPeerLoss();

    private static Map<Protocol, Double> noMultiPeerLoss() {
        EnumMap<Protocol, Double> m = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) m.put(p, 1.0);
        return Collections.unmodifiableMap(m);
    }

    private static Map<LinkClass, Double> independentDirections() {
        EnumMap<LinkClass, Double> m = new EnumMap<>(LinkClass.class);
        for (LinkClass c : LinkClass.values()) m.put(c, 1.0);
        return Collections.unmodifiableMap(m);
    }

    /** The algorithm families with their own costs, named as in the JSON. */
    public enum Family {
        RING("ring"), TREE("tree"), P2P("p2p"), CHAIN("chain");

        private final String jsonName;

        Family(String jsonName) { this.jsonName = jsonName; }

        /** The JSON key of this family's section. */
        public String jsonName() { return jsonName; }

        /**
         * The family whose costs a plan of algorithm {@code algo} for {@code op} is charged: TREE and P2P
         * by algorithm; a Ring broadcast or reduce is the CHAIN; every other plan the RING.
         */
        public static Family of(Algorithm algo, CollectiveOp op) {
            if (algo == Algorithm.TREE) return TREE;
            if (algo == Algorithm.P2P) return P2P;
            boolean chain = op == CollectiveOp.BROADCAST || op == CollectiveOp.REDUCE;
            return algo == Algorithm.RING && chain ? CHAIN : RING;
        }
    }

    public SimCosts {
        ring = complete(ring, "sim.ring");
        tree = complete(tree, "sim.tree");
        p2p = complete(p2p, "sim.p2p");
        chain = complete(chain, "sim.chain");
        duplexEfficiency = fractions(duplexEfficiency, LinkClass.class, LinkClass::jsonName, "sim.duplex_efficiency");
        multiPeerEfficiency = fractions(multiPeerEfficiency, Protocol.class, Protocol::ncclName, "sim.multi_peer_efficiency");
        Objects.requireNonNull(cta, "sim.cta");
        EnumMap<Protocol, CtaCosts> cc = new EnumMap<>(Protocol.class);
        for (Map.Entry<Protocol, CtaCosts> e : cta.entrySet()) cc.put(e.getKey(), Objects.requireNonNull(e.getValue(), "sim.cta"));
        cta = Collections.unmodifiableMap(cc);
        if (!(graphLaunchUs >= 0 && graphLaunchUs < 1e6)) {
            throw new IllegalArgumentException("sim.graph_launch_us must be in [0, 1e6) µs, got " + graphLaunchUs);
        }
        if (!(graphCallLaunchUs >= 0 && graphCallLaunchUs < 1e6)) {
            throw new IllegalArgumentException("sim.graph_call_launch_us must be in [0, 1e6) µs, got " + graphCallLaunchUs);
        }
        if (!(channelSkewNs >= 0 && channelSkewNs < 1e6)) {
            throw new IllegalArgumentException("sim.channel_skew_ns must be in [0, 1e6) ns, got " + channelSkewNs);
        }
    }

    /** Costs without a channel skew (channels start together). */
    public SimCosts(Map<Protocol, SimProtocolCosts> ring, Map<Protocol, SimProtocolCosts> tree,
                    Map<Protocol, SimProtocolCosts> p2p, Map<Protocol, SimProtocolCosts> chain,
                    Map<LinkClass, Double> duplexEfficiency, Map<Protocol, CtaCosts> cta, double graphLaunchUs,
                    double graphCallLaunchUs, Map<Protocol, Double> multiPeerEfficiency) {
        this(ring, tree, p2p, chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency, 0.0);
    }

    /** Costs without a multi-peer loss ({@link #NO_MULTI_PEER_LOSS}). */
    public SimCosts(Map<Protocol, SimProtocolCosts> ring, Map<Protocol, SimProtocolCosts> tree,
                    Map<Protocol, SimProtocolCosts> p2p, Map<Protocol, SimProtocolCosts> chain,
                    Map<LinkClass, Double> duplexEfficiency, Map<Protocol, CtaCosts> cta, double graphLaunchUs,
                    double graphCallLaunchUs) {
        this(ring, tree, p2p, chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs, NO_MULTI_PEER_LOSS);
    }

    /** Costs without the CudaExecutor's graph launch costs. */
    public SimCosts(Map<Protocol, SimProtocolCosts> ring, Map<Protocol, SimProtocolCosts> tree,
                    Map<Protocol, SimProtocolCosts> p2p, Map<Protocol, SimProtocolCosts> chain,
                    Map<LinkClass, Double> duplexEfficiency, Map<Protocol, CtaCosts> cta) {
        this(ring, tree, p2p, chain, duplexEfficiency, cta, 0.0, 0.0);
    }

    /** Costs without per-stream thread-block costs (every protocol on the per-channel limit model). */
    public SimCosts(Map<Protocol, SimProtocolCosts> ring, Map<Protocol, SimProtocolCosts> tree,
                    Map<Protocol, SimProtocolCosts> p2p, Map<Protocol, SimProtocolCosts> chain,
                    Map<LinkClass, Double> duplexEfficiency) {
        this(ring, tree, p2p, chain, duplexEfficiency, Map.of());
    }

    /** Costs with independent directions ({@link #INDEPENDENT_DIRECTIONS}). */
    public SimCosts(Map<Protocol, SimProtocolCosts> ring, Map<Protocol, SimProtocolCosts> tree,
                    Map<Protocol, SimProtocolCosts> p2p, Map<Protocol, SimProtocolCosts> chain) {
        this(ring, tree, p2p, chain, INDEPENDENT_DIRECTIONS);
    }

    /** Costs whose chain equals the ring (what a profile without a {@code chain} section means). */
    public SimCosts(Map<Protocol, SimProtocolCosts> ring, Map<Protocol, SimProtocolCosts> tree,
                    Map<Protocol, SimProtocolCosts> p2p) {
        this(ring, tree, p2p, ring);
    }

    /** An unmodifiable copy of {@code m}, which must hold a value in (0, 1] for every constant of {@code type}. */
    private static <K extends Enum<K>> Map<K, Double> fractions(Map<K, Double> m, Class<K> type,
                                                               java.util.function.Function<K, String> name, String what) {
        Objects.requireNonNull(m, what);
        EnumMap<K, Double> copy = new EnumMap<>(type);
        for (K k : type.getEnumConstants()) {
            Double v = m.get(k);
            if (v == null || !(v > 0 && v <= 1)) {
                throw new IllegalArgumentException(what + "." + name.apply(k) + " must be in (0, 1], got " + v);
            }
            copy.put(k, v);
        }
        return Collections.unmodifiableMap(copy);
    }

    private static Map<Protocol, SimProtocolCosts> complete(Map<Protocol, SimProtocolCosts> m, String name) {
        Objects.requireNonNull(m, name);
        EnumMap<Protocol, SimProtocolCosts> copy = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            SimProtocolCosts v = m.get(p);
            if (v == null) {
                throw new IllegalArgumentException(name + " lacks protocol '" + p.ncclName() + "'; all of LL, LL128, Simple are required");
            }
            copy.put(p, v);
        }
        return Collections.unmodifiableMap(copy);
    }

    /** The section of family {@code f}. */
    public Map<Protocol, SimProtocolCosts> family(Family f) {
        switch (f) {
            case TREE: return tree;
            case P2P: return p2p;
            case CHAIN: return chain;
            default: return ring;
        }
    }

    /** The costs of protocol {@code p} in family {@code f}. */
    public SimProtocolCosts get(Family f, Protocol p) { return family(f).get(p); }

    /** A copy with the costs of ({@code f}, {@code p}) replaced. */
    public SimCosts with(Family f, Protocol p, SimProtocolCosts c) {
        EnumMap<Protocol, SimProtocolCosts> m = new EnumMap<>(family(f));
        m.put(p, c);
        return new SimCosts(f == Family.RING ? m : ring, f == Family.TREE ? m : tree, f == Family.P2P ? m : p2p,
                f == Family.CHAIN ? m : chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency, channelSkewNs);
    }

    /** The duplex efficiency of link class {@code c}, in (0, 1]. */
    public double duplexEfficiency(LinkClass c) { return duplexEfficiency.get(c); }

    /** A copy with the duplex efficiency of link class {@code c} replaced (in (0, 1]). */
    public SimCosts withDuplexEfficiency(LinkClass c, double e) {
        EnumMap<LinkClass, Double> d = new EnumMap<>(duplexEfficiency);
        d.put(c, e);
        return new SimCosts(ring, tree, p2p, chain, d, cta, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency, channelSkewNs);
    }

    /** The multi-peer NVLink efficiency of protocol {@code p}, in (0, 1]. */
    public double multiPeerEfficiency(Protocol p) { return multiPeerEfficiency.get(p); }

    /** A copy with the multi-peer NVLink efficiency of protocol {@code p} replaced (in (0, 1]). */
    public SimCosts withMultiPeerEfficiency(Protocol p, double e) {
        EnumMap<Protocol, Double> m = new EnumMap<>(multiPeerEfficiency);
        m.put(p, e);
        return new SimCosts(ring, tree, p2p, chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs, m, channelSkewNs);
    }

    /** The thread-block stream costs of protocol {@code p}, or null when {@code p} uses the per-channel limit model. */
    public CtaCosts ctaOf(Protocol p) { return cta.get(p); }

    /** A copy with protocol {@code p}'s thread-block stream costs set ({@code c} non-null) or removed (null). */
    public SimCosts withCta(Protocol p, CtaCosts c) {
        EnumMap<Protocol, CtaCosts> m = new EnumMap<>(Protocol.class);
        m.putAll(cta);
        if (c == null) m.remove(p); else m.put(p, c);
        return new SimCosts(ring, tree, p2p, chain, duplexEfficiency, m, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency, channelSkewNs);
    }

    /** A copy with other graph launch costs of the CudaExecutor's timing: per graph and per captured call, µs (≥ 0). */
    public SimCosts withGraphLaunch(double perGraphUs, double perCallUs) {
        return new SimCosts(ring, tree, p2p, chain, duplexEfficiency, cta, perGraphUs, perCallUs, multiPeerEfficiency, channelSkewNs);
    }

    /** A copy with another channel skew, ns (≥ 0; see {@link #channelSkewNs}). */
    public SimCosts withChannelSkew(double ns) {
        return new SimCosts(ring, tree, p2p, chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency, ns);
    }

    /**
     * What the CudaExecutor's graph timing adds to the mean per call of {@code iterations} captured calls on
     * {@code nRanks} GPUs, µs: (n − 1) × (graph_call_launch_us + graph_launch_us / iterations).
     */
    public double graphTimingSkewUs(int nRanks, int iterations) {
        if (nRanks < 1 || iterations < 1) throw new IllegalArgumentException("need nRanks >= 1 and iterations >= 1, got " + nRanks + ", " + iterations);
        return (nRanks - 1) * (graphCallLaunchUs + graphLaunchUs / iterations);
    }
}
