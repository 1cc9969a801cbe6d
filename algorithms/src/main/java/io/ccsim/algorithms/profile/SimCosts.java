package io.ccsim.algorithms.profile;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The simulator's own timing parameters (JSON section {@code sim}), separate from NCCL's tuner constants so that
 * fitting the simulator to measurements cannot move the Tuner's NCCL-faithful choices. Only the simulator reads them.
 *
 * <p>One {@link SimProtocolCosts} per (algorithm family, protocol), every protocol present in each family
 * ({@link Family#of} says which family a plan is charged). The constructors throw {@link IllegalArgumentException}
 * naming the JSON key of a missing protocol or link class, or of a value out of range.
 *
 * @param ring                per protocol: costs of ring all-gather, reduce-scatter and all-reduce (JSON {@code ring},
 *                            required)
 * @param tree                per protocol: costs of the tree all-reduce ({@code tree}, required)
 * @param p2p                 per protocol: costs of send/recv and all-to-all ({@code p2p}, required)
 * @param chain               per protocol: costs of ring broadcast and reduce ({@code chain}, optional; default: the
 *                            ring's costs)
 * @param duplexEfficiency    per link class, every class present, in (0, 1]: the fraction of its capacity each
 *                            direction of a full-duplex link delivers while the opposite direction carries a flow
 *                            ({@code duplex_efficiency}, optional; default {@link #INDEPENDENT_DIRECTIONS}, 1 each)
 * @param cta                 per protocol, any subset: the thread block's per-stream costs ({@link CtaCosts}), which
 *                            replace the per-channel limit and the shared reduce/copy throughput for that protocol in
 *                            every family ({@code cta}, optional; default none)
 * @param graphLaunchUs       host cost of one CUDA graph launch in gpu-backend's CudaExecutor timing, µs, in [0, 1e6)
 *                            ({@code graph_launch_us}, optional; default 0); see {@link #graphTimingSkewUs}
 * @param graphCallLaunchUs   its cost per captured call, µs, in [0, 1e6) ({@code graph_call_launch_us}, optional;
 *                            default 0)
 * @param multiPeerEfficiency per protocol, every protocol present, in (0, 1]: the fraction of a GPU's NVLink capacity
 *                            per direction that its traffic gets when the GPU sends to (or receives from) several
 *                            peers at once in a tree or point-to-point plan ({@code multi_peer_efficiency}, optional;
 *                            default {@link #NO_MULTI_PEER_LOSS}, 1 each)
 * @param channelSkewNs       how much later each channel's thread block starts than the previous one, ns, in [0, 1e6):
 *                            channel c starts (c mod {@value #SKEW_PHASES}) × this after its rank's kernel, and only
 *                            channels of the same phase fold into one simulated representative ({@code channel_skew_ns},
 *                            optional; default 0 = channels start together)
 * @param frameworkCallUs     what the harness of the profile's measurements (PyTorch's calls captured in CUDA graphs,
 *                            tools/nccl-measure/measure.py) adds to each call over NCCL's own captured call, µs, in
 *                            [0, 1e6): subtracted where ccsim times NCCL's own calls ({@code framework_call_us},
 *                            optional; default 0, a profile fitted to NCCL's own calls); see {@link #ownCallUs}
 */
public record SimCosts(Map<Protocol, SimProtocolCosts> ring, Map<Protocol, SimProtocolCosts> tree,
                       Map<Protocol, SimProtocolCosts> p2p, Map<Protocol, SimProtocolCosts> chain,
                       Map<LinkClass, Double> duplexEfficiency, Map<Protocol, CtaCosts> cta, double graphLaunchUs,
                       double graphCallLaunchUs, Map<Protocol, Double> multiPeerEfficiency, double channelSkewNs,
                       double frameworkCallUs) {
    /*
     * Families. NCCL's tree has its own chain pipelining and per-channel throughput (NCCL's tuner has separate tree
     * caps: perChMaxTreeBws in src/graph/tuning.cc); point-to-point kernels are launched and scheduled differently
     * (src/enqueue.cc, p2p path); ring broadcast and reduce are a chain, a pipeline from or to the root over the ring
     * order (runRing in src/device/broadcast.h and reduce.h: one send or receive per rank and step, no data coming
     * back around the ring), a hop of which costs far less than a step of the ring all-gather, reduce-scatter or
     * all-reduce (experiments/nccl-h200, Ring/Simple at 8 B: going from 2 to 4 ranks adds about 0.7 us to a broadcast,
     * 6 us to an all-gather).
     *
     * Duplex efficiency. A direction's capacity is C * e while the opposite direction carries a flow
     * (FlowNetwork#setDuplexEfficiency): on NVLink4 (experiments/nccl-h200, NCCL 2.28.9, n = 2, Simple) an all-gather,
     * both directions busy, moves 268 GB/s per direction where a broadcast, one direction, moves 361 GB/s.
     *
     * Thread-block costs are shared by every family because one kernel runs every algorithm's steps (ccsim's own
     * kernels: gpu-backend's ccsim_prims.cu); a protocol without them keeps the per-channel limit model.
     *
     * Graph launch costs are not a property of the simulated system but of how gpu-backend's CudaExecutor times a
     * call: it records every GPU's start event, then launches one CUDA graph per GPU (its back-to-back calls,
     * captured) one GPU after the other from one host thread, so GPU r's calls start r host graph launches after the
     * start events, and every rank's elapsed time carries its own offset. A host graph launch costs
     * graph_launch_us + iterations * graph_call_launch_us, so the mean per call of the CudaExecutor's rows is the
     * simulated back-to-back mean plus (n - 1) * (graph_call_launch_us + graph_launch_us / iterations)
     * (PerfRunner#simulateGraphReplay); NCCL's fixtures and `ccsim perf` never add it. Measured as the host time of
     * the launch loop, 5 to 200 captured calls (experiments/h200x4-skew); a send/recv, whose per-rank work
     * does not depend on n, takes longer per call at n = 4 than at n = 2 by what the formula predicts.
     *
     * Multi-peer efficiency. Such flows cross one more constraint per GPU, protocol and direction
     * (Fabric#multiPeerLink); a ring or a send/recv ring (one peer each way) never crosses it. On 4 x H200 NVSwitch
     * (experiments/nccl-h200, NCCL 2.28.9, n = 4) a send/recv to one peer moves more per GPU than an all-to-all to
     * three peers, and a middle rank of the Tree/LL chain less than single-peer LL rows; per-channel limits alone
     * predicted both 12-17 % fast.
     *
     * The framework's call. The built-in profiles are fitted to PyTorch's calls captured in CUDA graphs (measure.py:
     * K calls a graph, the replays between CUDA events), users compare with nccl-tests, whose -G captures NCCL's own
     * calls. On 4 x H200 in one lease (experiments/nccl-tests-h200x4/harness) PyTorch's call cost 5.0 us more than
     * NCCL's own one process a GPU (median of 132 pairs, all-reduce, broadcast, send/recv at n = 2 and 4, 8 B to
     * 16 MiB; quartiles 3.9 and 5.4) and 5.2 us more than nccl-tests' in one process (237 pairs, every op up to
     * 1 MiB): a cost of the harness (its stream and event dependencies around each captured call), not of the
     * process model, which changed nothing (NCCL's calls one process a GPU within 1.5 us of nccl-tests' up to 1 MiB).
     *
     * Channel skew. Identical channels of a simulation otherwise stay in lock-step, so their bursts all meet on the
     * links, where real thread blocks drift apart and interleave: ccsim's LL all-gather at 48 channels on 4 x H200 is
     * faster measured than simulated in lock-step, and a skew closes part of the gap
     * (experiments/h200x4-channels).
     */

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
        if (!(frameworkCallUs >= 0 && frameworkCallUs < 1e6)) {
            throw new IllegalArgumentException("sim.framework_call_us must be in [0, 1e6) µs, got " + frameworkCallUs);
        }
    }

    /** Costs fitted to NCCL's own calls (no framework cost per call). */
    public SimCosts(Map<Protocol, SimProtocolCosts> ring, Map<Protocol, SimProtocolCosts> tree,
                    Map<Protocol, SimProtocolCosts> p2p, Map<Protocol, SimProtocolCosts> chain,
                    Map<LinkClass, Double> duplexEfficiency, Map<Protocol, CtaCosts> cta, double graphLaunchUs,
                    double graphCallLaunchUs, Map<Protocol, Double> multiPeerEfficiency, double channelSkewNs) {
        this(ring, tree, p2p, chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency,
                channelSkewNs, 0.0);
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
                f == Family.CHAIN ? m : chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency, channelSkewNs, frameworkCallUs);
    }

    /** The duplex efficiency of link class {@code c}, in (0, 1]. */
    public double duplexEfficiency(LinkClass c) { return duplexEfficiency.get(c); }

    /** A copy with the duplex efficiency of link class {@code c} replaced (in (0, 1]). */
    public SimCosts withDuplexEfficiency(LinkClass c, double e) {
        EnumMap<LinkClass, Double> d = new EnumMap<>(duplexEfficiency);
        d.put(c, e);
        return new SimCosts(ring, tree, p2p, chain, d, cta, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency, channelSkewNs, frameworkCallUs);
    }

    /** The multi-peer NVLink efficiency of protocol {@code p}, in (0, 1]. */
    public double multiPeerEfficiency(Protocol p) { return multiPeerEfficiency.get(p); }

    /** A copy with the multi-peer NVLink efficiency of protocol {@code p} replaced (in (0, 1]). */
    public SimCosts withMultiPeerEfficiency(Protocol p, double e) {
        EnumMap<Protocol, Double> m = new EnumMap<>(multiPeerEfficiency);
        m.put(p, e);
        return new SimCosts(ring, tree, p2p, chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs, m, channelSkewNs, frameworkCallUs);
    }

    /** The thread-block stream costs of protocol {@code p}, or null when {@code p} uses the per-channel limit model. */
    public CtaCosts ctaOf(Protocol p) { return cta.get(p); }

    /** A copy with protocol {@code p}'s thread-block stream costs set ({@code c} non-null) or removed (null). */
    public SimCosts withCta(Protocol p, CtaCosts c) {
        EnumMap<Protocol, CtaCosts> m = new EnumMap<>(Protocol.class);
        m.putAll(cta);
        if (c == null) m.remove(p); else m.put(p, c);
        return new SimCosts(ring, tree, p2p, chain, duplexEfficiency, m, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency, channelSkewNs, frameworkCallUs);
    }

    /** A copy with other graph launch costs of the CudaExecutor's timing: per graph and per captured call, µs (≥ 0). */
    public SimCosts withGraphLaunch(double perGraphUs, double perCallUs) {
        return new SimCosts(ring, tree, p2p, chain, duplexEfficiency, cta, perGraphUs, perCallUs, multiPeerEfficiency, channelSkewNs, frameworkCallUs);
    }

    /** A copy with another channel skew, ns (≥ 0; see {@link #channelSkewNs}). */
    public SimCosts withChannelSkew(double ns) {
        return new SimCosts(ring, tree, p2p, chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs, multiPeerEfficiency, ns, frameworkCallUs);
    }

    /** A copy with another framework cost per call, µs (≥ 0; see {@link #frameworkCallUs}). */
    public SimCosts withFrameworkCallUs(double us) {
        return new SimCosts(ring, tree, p2p, chain, duplexEfficiency, cta, graphLaunchUs, graphCallLaunchUs,
                multiPeerEfficiency, channelSkewNs, us);
    }

    /**
     * NCCL's own captured call (nccl-tests' {@code -G}) of one that takes {@code us} µs on this profile's basis: less
     * {@link #frameworkCallUs}, never below half the call (every call of a profile costs several µs more than that).
     */
    public double ownCallUs(double us) {
        return Math.max(us - frameworkCallUs, us / 2);
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
