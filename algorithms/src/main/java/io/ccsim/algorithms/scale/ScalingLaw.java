package io.ccsim.algorithms.scale;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

import java.util.Optional;

/**
 * How the time of one collective grows with the node count of a cluster of identical nodes, at a fixed algorithm,
 * protocol and channel count: the regressor {@link #x} the time is linear in, and the per-rank count that keeps the
 * per-step work of a smaller sample equal to the target's ({@link #sampleCount}).
 *
 * <p>Contract: for a node shape held fixed and nodes {@code N} beyond the samples', {@code T(N) = a + b · x(N)}, with
 * {@code a} and {@code b} fitted on simulations at fewer nodes ({@link LawFit}); {@link #CHAIN} and {@link #TRAIN} fit
 * four and three coefficients over the node count and the chain's train length ({@link #regressors}). {@link #errorBoundPct} is the largest
 * error of that prediction against the simulation at the target measured on the validation grid
 * (docs/performance.md, "Extrapolated mode").
 */
public enum ScalingLaw {
    /**
     * Ring all-reduce, all-gather, reduce-scatter: linear in nodes, each step carrying the target's bytes; up to
     * {@link #RING_MAX_LEAF_GROUPS} leaf groups.
     */
    RING("time linear in x = nodes (the ring's length) at the target's bytes per step", true, 1.7),
    /** NCCL's double binary tree (Tree, and NVLSTree across nodes): linear in the trees' depth at the same size. */
    TREE("time linear in x = ceil(log2 nodes) (the trees' depth) at the same size", false, 8.4),
    /** CollNet (SHARP): constant while the reduction crosses the same switch levels. */
    SWITCH_LEVELS("time constant (x = 0) at the target's switch levels (one leaf, or leaves and spines)", false, 0.0),
    /**
     * Ring broadcast and reduce (a pipelined chain): {@code T = a + s·U + b·N + k·U·ln(N/U)} over the node count N and
     * the train of U forwarding units a rank sends per channel, fitted on samples of shorter trains.
     */
    CHAIN("time T = a + s U + b N + k U ln(N/U) in the nodes N and the chain's train of U forwarding units per channel,"
            + " on samples of shorter trains", true, 1.0),
    /**
     * Ring broadcast and reduce where the chain's n ranks are no more than its train's U units per channel (n &le; U:
     * every hop busy at once): {@code T = a + s·U + b·N}, fitted on samples of 2 to 8 nodes at the target's train or
     * shorter ones (1,024 units or more).
     */
    TRAIN("time T = a + s U + b N in the nodes N and the train of U forwarding units per channel, for a chain no longer"
            + " than its train, on samples of a few nodes", true, 1.5),
    /**
     * All-to-all placed as NCCL places it: linear in nodes at the target's bytes per peer, on samples whose peers get
     * the target's channels ({@code p2pnChannelsPerPeer}).
     */
    PEERS("time linear in x = nodes (the peers' groups) at the target's bytes per peer", false, 0.1);

    /** The most ranks a {@link #PEERS} sample may have: its connections grow with the square of its ranks. */
    static final int PEERS_MAX_RANKS = 256;

    /** The most leaf groups (hosts per leaf each) a ring target may span: see the block comment. */
    public static final int RING_MAX_LEAF_GROUPS = 4;

    /*
     * The laws, for a cluster of N identical nodes of p ranks each (n = pN ranks), c channels, a call of S bytes.
     *
     * RING. NCCL's ring all-reduce (src/device/all_reduce.h runRing) runs loops of 2(n−1) steps, each step moving one
     * chunk of a channel's part to the next rank; all-gather and reduce-scatter run n−1 steps. A step's time h(B) is
     * the hop's overhead, latency and B bytes at the max-min rate of its link, and a chunk crosses every hop of the
     * ring once per phase: T = a + (steps) · h(B) + fill. With the per-step bytes B held fixed, every hop does the
     * same work whatever N, so T is linear in n, hence in N (n − N hops stay on NVLink, N cross the network; both
     * counts are linear in N). At a fixed size instead, B = S / (n c) shrinks with n, and h(B) is not affine in B:
     * Simple's slices have a floor (prims_simple.h: stepSize / 32), a step moves as ceil(B / pipeline_bytes)
     * sub-transfers, and hops that cross a spine change the rate at some B. Measured on 128 × HGX H100, 1 GiB
     * Ring/LL128: at the same size T(16, 32 nodes) = 7301.9, 7330.4 µs but T(64) = 9371.6 (a line through the first
     * two is 12 % off); at the target's bytes per step the samples on 4 to 64 nodes lie on one line to 0.001 µs per
     * node (89.2596 µs per node) and predict T(128) = 11431.44 against 11431.46 simulated. So the samples run the
     * target's per-rank block: all-reduce's count is the per-step block times n_s · c, all-gather's and
     * reduce-scatter's per-rank count is the target's. Crossings of a spine grow as N / (hosts per leaf), still
     * linear in N from two leaves on.
     *
     * Where the ring law stops. A ring's critical path is a chain of steps, each waiting for its predecessor's; a
     * connection has 8 slots, so a hop slower than the others (one that crosses a spine: two switches more) delays
     * only the steps behind it while the slots absorb it, and paces the whole ring once they fill. Short rings cost
     * the mean hop per step, long ones tend to the slowest hop. Measured at the bytes per step of 12,500 nodes
     * (all-gather 1 GiB, Ring/LL x2, 2,684 floats per rank): 11.509 µs per node from 32 to 128 nodes, 11.55 from 128
     * to 256, 12.65 from 256 to 384, 15.23 from 384 to 512, so samples of 64 and 128 nodes predict 512 nodes 9.6 %
     * low; all-reduce Ring/LL x4 at 4 KiB per step drifts from 160 nodes on (-2.1 % there, -3.4 % at 256 nodes).
     * Samples in the long-ring regime cost what the target does, so the law is used up to 4 leaf groups (128 HGX
     * nodes at 1:1), where the grid holds it to 1.7 %, and refused beyond.
     *
     * CHAIN and TRAIN. A ring broadcast (src/device/broadcast.h runRing) or reduce sends each channel's part down a chain of the
     * n = pN ranks in chunks, and each rank forwards a chunk in U sub-transfers as they land (cut-through, StepCosts),
     * so a channel is a train of U units travelling n − 1 hops. In the textbook, T = a + (U + n − 1) · h: linear in N.
     * Simulated, the time per node is not constant: it falls from the full pipeline's cost while the chain is shorter
     * than the train (n < U: every hop busy at once) towards the cost of the train's head running ahead of it (n >> U).
     * Measured on HGX H100 nodes (8 ranks, 16 channels, Ring/Simple, 64 KiB units), the time per node above its limit b
     * ≈ 20.08 µs is about 0.55 · U / N µs at every train length (U = 32, 64, 256 units: 1.85, 1.3 and 1.0 µs where the
     * chain is three trains long, n = 3U; 0.35, 0.29 and 0.37 where it is twelve): the train spreads by the hops it has
     * run in units of its own length. Integrated, that is k · U · ln(N / U), and the train itself costs s per unit: T =
     * a + s·U + b·N + k·U·ln(N/U). Fitted on U = 32 (16 to 128 nodes) and U = 64 (32 to 128 nodes), it predicts U =
     * 1,024 (1 GiB) at 256 nodes 0.98 % low and 64 MiB at 512 nodes 0.30 % high; the time is then a line in N as the
     * train runs ahead (64 MiB: 20.10 µs per node from 256 to 384 nodes, 20.08 from 384 to 512), and reduce costs what
     * broadcast does to 0.5 %. Where the chain is shorter than twice its train (n < 2U) the head has not left the full
     * pipeline and the law misses (1 GiB at 192 nodes, n = 1.5 U: 2.0 % low); such targets are refused (they are 2,048
     * ranks or fewer at 1 GiB over 16 channels: folded runs them). The samples run the target's algorithm, protocol and
     * channels at fewer bytes (SampleNodes.chain).
     *
     * TRAIN is the other side of that gap: a chain no longer than its train (n ≤ U). The head reaches the last rank
     * while the root is still sending, every hop is busy at once and the train moves at its slowest hop's rate, so
     * nothing spreads: T = a + s·U + b·N. Measured on HGX H100 nodes, Ring/LL x2 (4 KiB units), for every train of 16
     * to 1,024 units and N = 2 to 128 nodes while n ≤ U: 6.32 µs per node (6.300 to 6.325 between any two counts, one
     * leaf or across the spines) and 0.377 µs per unit. Past n = U the time jumps onto CHAIN's side, where a unit costs
     * twice (0.754 µs): U = 256 runs 307.8 µs at n = 256 and 426.9 at n = 288, then 6.32 µs per node again, on CHAIN's
     * line (603.7 at n = 512 = 2U, 629.0 at 544); with one channel there is no jump at all (U = 512: 6.3 µs per node
     * from n = 256 to 2,048). So under LL a chain longer than its train is a CHAIN (measured between one train and two
     * on 256 to 384 nodes, x1 and x2: equal to the printed digit); under LL128 and Simple, whose chain law misses there
     * (above), targets between one and two trains are refused. The cost per unit and per node depends on the size
     * through the protocol's cache term (CtaCosts: 0.377 and 6.32 µs at 8 MiB, 0.531 and 7.5 from 64 MiB on), so every
     * sample, of either chain law, costs its bytes as the target call does (Extrapolator.simulate: the target's working
     * set), and a TRAIN sample may run a shorter train (1,024 units or more, Extrapolator.trainPlan). Fitted so, a 128
     * MiB broadcast on 12,500 HGX nodes (Ring/LL x1, a CHAIN: samples of 32 and 64 units) and a 1 GiB one (Ring/LL x2,
     * a TRAIN) read the same 0.5312 µs a unit and 7.5383 a node. Validated against folded runs of broadcast and reduce
     * on 16 to 128 HGX nodes, with samples of 2, 4 and 8 nodes (docs/performance.md): Ring/LL x2 exact to the printed
     * digit at every point, up to n = U (8 MiB on 128 nodes) and across the cache regimes (1 GiB on 64 nodes from
     * samples at 8 and 16 MiB); NCCL's Ring/LL128 x16 up to +1.50 % where n nears U (1 GiB, 128 nodes: n = 1,024, U =
     * 1,052), because its time per node drifts from 30.0 µs on 2 to 8 nodes to 29.1 on 64 to 128; Ring/Simple x16 up to
     * −0.65 %.
     *
     * PEERS. All-to-all placed as NCCL places it (AllToAllPlanner): the ranks of a node form one schedule group of 8
     * and each group delta's 8 operations run as one batch on the channels of its round (src/init.cc ncclP2pSchedule,
     * src/enqueue.cc addWorkBatchToPlan), a network peer on one channel from 64 ranks on 16 channels (paths.cc: 2,
     * halved while 2 x nRanks > 4 x p2p channels). At a fixed count per peer every operation is the same, a channel's
     * batches grow by one every 16 nodes and the NIC's bytes by one peer group every node: T = a + b N. Measured on HGX
     * H100 (folded, 8 to 128 nodes): 128 KiB per peer 24.46 to 24.47 µs a node at every doubling from 4 nodes (97.5 ..
     * 3,131.9 µs); 8 KiB (LL) 3.06 µs a node from 8 to 64 nodes; 1 MiB 195.7 to 195.8. The samples are the largest two
     * powers of two within PEERS_MAX_RANKS ranks, and each must give a peer the target's channels (else refused):
     * their plans are then the target's, but for the number of batches and groups.
     *
     * TREE. NCCL's trees (src/graph/trees.cc ncclGetBtree, ncclGetDtree; connect.cc connectTrees) join the nodes in
     * two binary trees whose deepest node sits ceil(log2 N) levels below the root (checked against the planner's
     * trees for every N from 2 to 4,096 and 12,500); inside a node the ranks form a chain of fixed length p. The
     * chunks are fixed (calcCollChunking; Tree LL128's shrink reads log2 N, which the samples take from the target:
     * PlanOptions.chunkingNodes), so the pipeline's chunk count is the same and only its depth grows: T = a + b ·
     * ceil(log2 N). Two nodes (one level, a root with one child) and the NVLSTree chunk rule below 4 nodes are other
     * shapes: samples start at 4 nodes. A level is not a level, though: one whose edges cross the spines costs more
     * than one inside a leaf where chunks are mid-sized (Tree/LL128 64 MiB on HGX nodes: 17.8 µs inside, 30.8 and
     * 35.6 for the first two across), and the tree's shape matters (SampleNodes), so the samples are two of the
     * target's shifts, the larger beyond one leaf, and the slope is a crossing level's cost. That the levels above it
     * cost the same is the law's assumption beyond what can be simulated: measured, the first two crossing levels
     * differ by 2.0 µs at 1 GiB (66.2, 68.2) and by 4.8 µs at 64 MiB. Where the pipeline is neither latency- nor
     * bandwidth-bound (Tree/LL128 at 4 to 16 MiB) a level's cost varies from one node count to the next by up to a
     * third (HGX H100, 16 MiB: 26.3, 24.5, 17.7, 33.7, 19.4, 19.7, 20.1 µs per doubling from 8 to 1,024 nodes), so
     * two samples read the target up to 5.4 % low (1,024 nodes, 8 and 16 MiB) or 6.8 % high (1,024 nodes, 32 MiB)
     * and, on nodes of 2 GPUs, 6.1 % high (600 nodes, 4 MiB). Samples spanning 4 leaf groups or more (N >> 2 and N >> 1 at 512 and 1,024 nodes) read HGX H100 to 1.6 %
     * but meet node counts whose trees are slower than their depth says (195 and 390 nodes, shifts of 780: +11 % at
     * 1 GiB; 150 of 600 on 2 GPUs: +9.5 % at 64 MiB), which a target need not share: 780 nodes read 7,830 µs from
     * them, 7,047 from 24 and 48, against 7,029 simulated. The bound is the largest error of the validation grid
     * (docs/performance.md). Read at every size from 2 to 64 MiB by 2 on 100 to 2,000 nodes of 2, 4 and 8 GPUs, every
     * tree choice misses the scale goals' 2 % somewhere at mid sizes, NVLSTree too (Simple: +8.35 % at 32 MiB on 600
     * HGX nodes, −5.70 % on 700, +7.95 % at 8 MiB on 600 nodes of 2 GPUs), Tree/Simple up to +3.75 % and Tree/LL up to
     * −4.58 %; 1 MiB and 1 GiB stay within 0.5 %. So no TREE reading is within the goal ({@link #withinGoal}).
     *
     * SWITCH_LEVELS. CollNet reduces in the switches (SHARP): every node sends its part up once, the switches reduce
     * and send the result down; nothing grows with N while the traffic crosses the same switch levels. Measured on
     * 2 to 32 nodes (one leaf) and on 33 to 256 nodes (leaves and spines): one time each, to the picosecond. The
     * sample runs in the target's regime.
     *
     * Not extrapolated either: PAT (its steps cross spines from 33 nodes on and its time per node rose from 0.6 to
     * 3.0 µs between 32 and 128 nodes), all-to-all and send/recv (all-to-all at the target's bytes per peer grew by
     * 3,913, 2,574, 2,447 and 3,873 µs per node from 2 to 8 nodes: not linear in its peers), and single-node
     * algorithms (NVLS, symmetric kernels).
     */

    private final String description;
    private final boolean scalesCount;
    private final double errorBoundPct;

    ScalingLaw(String description, boolean scalesCount, double errorBoundPct) {
        this.description = description;
        this.scalesCount = scalesCount;
        this.errorBoundPct = errorBoundPct;
    }

    /** Whether the law reads a chain's train ({@link #CHAIN}, {@link #TRAIN}): more than one regressor besides 1. */
    public boolean readsTrain() { return this == CHAIN || this == TRAIN; }

    /** What the law says, in words. */
    public String description() { return description; }

    /**
     * The largest error, in per cent, of this law's prediction against the simulation at the target, measured on the
     * validation grid (docs/performance.md), for any algorithm it serves.
     */
    public double errorBoundPct() { return errorBoundPct; }

    /**
     * The largest error of this law's prediction for {@code algo}, in per cent, measured on the validation grid: TREE's
     * for NCCL's Tree is {@link #NCCL_TREE_ERROR_BOUND_PCT}, every other the law's own ({@link #errorBoundPct()}; TREE's
     * is NVLSTree's).
     */
    public double errorBoundPct(Algorithm algo) {
        return this == TREE && algo == Algorithm.TREE ? NCCL_TREE_ERROR_BOUND_PCT : errorBoundPct;
    }

    /**
     * TREE's largest error for NCCL's Tree on the grid: +6.8 % (Tree/LL128 at 32 MiB on 1,024 HGX nodes, 526.0 µs
     * against 492.5); Tree/Simple up to +3.75 % (32 MiB on 600 nodes of 2 GPUs), Tree/LL up to −4.58 % (2 MiB there).
     * NVLSTree's, the law's own, is larger: +8.35 % (32 MiB on 600 HGX nodes, from 18 and 37: 839.8 µs against 775.1).
     */
    public static final double NCCL_TREE_ERROR_BOUND_PCT = 6.8;

    /** The scale goals' bound on a reading's error where the simulation at the target can check it, per cent. */
    public static final double GOAL_PCT = 2.0;

    /**
     * Whether the validation grid holds this law's readings within {@link #GOAL_PCT}: every law but TREE, whose
     * readings of every tree choice miss it at mid sizes somewhere on the grid (NVLSTree 8 to 64 MiB up to 8.35 %,
     * Tree/LL128 4 to 32 MiB up to 6.8 %, Tree/Simple and Tree/LL up to 3.75 and 4.58 %; block comment).
     * {@code --sim-mode auto} simulates TREE's sizes at the target where it can (docs/performance.md, "Extrapolated
     * mode").
     */
    public boolean withinGoal() {
        return this != TREE;
    }

    /** Whose bound {@link #errorBoundPct(Algorithm)} states: {@code " for NVLSTree"} where it is per algorithm, else "". */
    public String boundScope(Algorithm algo) {
        return this == TREE ? " for " + algo.ncclName() : "";
    }

    /** Whether the samples run another per-rank count than the target (the target's bytes per step, {@link #RING}). */
    public boolean scalesCount() { return scalesCount; }

    /** The law of {@code algo} running {@code op}, or empty where none is validated ({@link #refusal}). */
    public static Optional<ScalingLaw> of(Algorithm algo, CollectiveOp op) {
        switch (algo) {
            case RING:
                return op == CollectiveOp.BROADCAST || op == CollectiveOp.REDUCE ? Optional.of(CHAIN) : Optional.of(RING);
            case TREE:
            case NVLS_TREE:
                return Optional.of(TREE);
            case COLLNET_DIRECT:
            case COLLNET_CHAIN:
                return Optional.of(SWITCH_LEVELS);
            case P2P:
                return op == CollectiveOp.ALL_TO_ALL ? Optional.of(PEERS) : Optional.empty();
            default:
                return Optional.empty();
        }
    }

    /** Why {@code algo} running {@code op} has no law (where {@link #of} has none). */
    public static String refusal(Algorithm algo, CollectiveOp op) {
        switch (algo) {
            case PAT:
                return "PAT's time does not follow a law in the node count on this fabric (its steps cross spines from"
                        + " one leaf on)";
            case P2P:
                return "send/recv (each rank to the next) has no law: its folded simulation is one connection per rank"
                        + " at any node count";
            default:
                return algo.ncclName() + " runs inside one node only";
        }
    }

    /**
     * The regressor at {@code nodes} nodes: the node count (ring), the trees' depth ceil(log2 nodes), or 0
     * (switch levels, constant within a regime).
     *
     * @throws IllegalArgumentException if {@code nodes} &lt; 1
     */
    public double x(int nodes) {
        if (nodes < 1) throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
        switch (this) {
            case TREE: return 32 - Integer.numberOfLeadingZeros(nodes - 1); // ceil(log2 nodes), 0 for 1 node
            case SWITCH_LEVELS: return 0;
            default: return nodes;
        }
    }

    /**
     * The regressors of a sample or target of {@code nodes} nodes whose chain sends {@code units} forwarding units per
     * channel (read by {@link #CHAIN} and {@link #TRAIN} only): {@code (1, x(nodes))} for a line (a constant's x is
     * 0), {@code (1, U, N, U·ln(N/U))} for a chain, {@code (1, U, N)} for a chain no longer than its train.
     *
     * @throws IllegalArgumentException if {@code nodes} &lt; 1, or a chain's {@code units} &lt; 1
     */
    public double[] regressors(int nodes, double units) {
        switch (this) {
            case CHAIN:
                if (nodes < 1 || !(units >= 1)) {
                    throw new IllegalArgumentException("a chain needs nodes >= 1 and units >= 1, got " + nodes + " and " + units);
                }
                return new double[] {1, units, nodes, units * Math.log(nodes / units)};
            case TRAIN:
                if (nodes < 1 || !(units >= 1)) {
                    throw new IllegalArgumentException("a train needs nodes >= 1 and units >= 1, got " + nodes + " and " + units);
                }
                return new double[] {1, units, nodes};
            default: return new double[] {1, x(nodes)};
        }
    }

    /** The fitted law written out at the target's regressors {@code row}, for the output's footer. */
    public String formula(LawFit fit, double[] row, int targetNodes) {
        double[] c = fit.coefficients();
        if (this == CHAIN) {
            return String.format(java.util.Locale.ROOT, "T = %.3f + %.4f U + %.4f N + %.5f U ln(N/U), U = %.0f at %,d nodes",
                    c[0], c[1], c[2], c[3], row[1], targetNodes);
        }
        if (this == TRAIN) {
            return String.format(java.util.Locale.ROOT, "T = %.3f + %.4f U + %.4f N, U = %.0f at %,d nodes", c[0], c[1], c[2],
                    row[1], targetNodes);
        }
        return String.format(java.util.Locale.ROOT, "T = %.3f + %.4f x, x = %.0f at %,d nodes", c[0], c[1], row[1],
                targetNodes);
    }

    /**
     * The per-rank element count a sample of {@code sampleRanks} ranks runs for a target call of {@code targetCount}
     * elements per rank on {@code targetRanks} ranks over {@code channels} channels: the target's count, except for
     * a ring all-reduce, whose step carries count / (ranks · channels) elements: the sample's count is that block
     * (rounded up to the 16-byte cells channels are cut into) times its ranks and channels.
     *
     * @param elementBytes bytes per element, 1..16
     */
    public long sampleCount(CollectiveOp op, long targetCount, int targetRanks, int sampleRanks, int channels,
                            int elementBytes) {
        if (!scalesCount || op != CollectiveOp.ALL_REDUCE) return targetCount;
        long cell = Math.max(1, 16 / elementBytes);
        long perStep = ceilDiv(ceilDiv(targetCount, (long) targetRanks * channels), cell) * cell;
        return perStep * sampleRanks * channels;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
