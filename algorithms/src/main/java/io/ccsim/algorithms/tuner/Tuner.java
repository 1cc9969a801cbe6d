package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.plan.P2pOperation;
import io.ccsim.algorithms.plan.P2pSettings;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LatencyCosts;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.TunerConstants;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * NCCL's cost model and choice of algorithm, protocol and channel count, with the constants taken from a
 * {@link CalibrationProfile}.
 *
 * <h2>The model (NVIDIA/nccl @5067397c; src/graph/tuning.cc unless stated)</h2>
 * For collective {@code c}, algorithm {@code a}, protocol {@code p} and {@code nc} channels, with
 * {@code n} ranks on {@code N} nodes, {@code ppn = n / N}:
 * <pre>
 * nsteps = 2(n−1) all-reduce | n−1 all-gather, reduce-scatter | n otherwise                 (l.289)
 * bw     = N ≤ 2 ? intraBw : interBw                     (per-channel graph bandwidth, l.306)
 *          across nodes: the search graph's speed, with nc its channels (before Postset doubles them)
 * busBw  = nc × bw                                                                           (l.324)
 * Ring LL:     busBw = min(llMaxBw, nc × min(bw, capLL) × 0.5)                               (l.327)
 * Ring LL128:  busBw = min(nc × bw × ll128Eff, nc × perChMaxRingLL128Bw)                     (l.328)
 * Ring Simple: busBw = nc × min(bw, capSimple)              [ccsim: cap from the profile; NCCL has none]
 * Tree AR:     busBw = min(busBw × treeEff, nc × perChMaxTreeBw)                            (l.330)
 *   Tree LL:    busBw = min(busBw × treeLlFactor, llMaxBw)                                  (l.332)
 *   Tree LL128: busBw = min(busBw × (N == 1 ? 7/9 : 120/128), nc × perChMaxTreeLL128Bw)     (l.333)
 *   Tree across nodes on the plain pattern (no NIC-sharing pairs, too few NICs): busBw × 0.85   (l.335)
 * across nodes the communicator's nc of maxChannels channels get busBw × nc / maxChannels
 * bandwidth = busBw × (Ring ? n / nsteps : 0.5)                  (bus → algorithm bandwidth, l.376)
 * latency   = baseLat[a][p] +
 *   Ring bcast/reduce: sameChannels ? hwLat : nsteps × hwLat (Simple: tree's hwLat)          (l.395)
 *   Ring others: (nsteps − nInter) × max(intraLat, netOverhead) + nInter × interLat,
 *                nInter = N == 1 ? 0 : all-reduce ? 2(N−1) : N−1                              (l.404)
 *   Tree AR:     2 × ((ppn − 1) × intraLat + log2(N) × interLat)                             (l.416)
 *   intraLat = hwLat[intraClass][a][p]; interLat = hwLat[NET][ppn == 1 ? Tree : a][p] + latencyInter
 *   (+ latencyInter again for Simple); netOverhead = N > 1 ? 1 µs (×3 for Simple) : 0         (l.385-410)
 * time(nc) = latency' + nBytes / (1000 × bandwidth')  µs       (ncclTopoGetAlgoTime, l.630-655)
 *   Tree AR: bandwidth' = bandwidth × treeCorrection[p][log2(nBytes / 64)] for log2 in [0, 23)
 *   Ring Simple AR on N > 1 with nBytes / (nc × n) ≥ 64: latency' = latency × 1.4 (plateau)
 * </pre>
 * The ring latency constants (baseLat, hwLat of Ring) are the profile's {@code protocols}; Tree's are the
 * profile's {@code tree}; caps and factors are the profile's {@code tuner}; the per-channel protocol limits
 * {@code capP} are the profile's {@code max_channel_bw_gbps}; ring LL128's cap is the tuner's
 * {@code ring_ll128_max_channel_bw_gbps} by node count (Hopper 36.7, Blackwell 73.4 / 34.6 / 73.4).
 *
 * <h2>Enablement</h2>
 * Candidates are the (algorithm, protocol) pairs ccsim implements for the collective — all-reduce: Tree,
 * Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree; all-gather, reduce-scatter: Ring, CollNetDirect, NVLS, PAT; broadcast,
 * reduce: Ring; Ring and Tree with LL, LL128, Simple; NVLS and NVLSTree with Simple only ({@link NvlsModel} on
 * one node, {@link NvlsTreeModel} across nodes: an NVLS graph, NCCL_NVLS_ENABLE not 0, a reduction and type the
 * switch reduces); CollNet with Simple only ({@link CollNetModel}: NCCL_COLLNET_ENABLE=1, a SHARP network, 2+
 * nodes, at most 8 ranks per node, a reduction and type SHARP reduces, an NVSwitch for Direct, for all-gather and
 * reduce-scatter a NIC per GPU); PAT with Simple
 * only ({@link PatModel}: one rank per node, NCCL_PAT_ENABLE not 0, no avg reduce-scatter); send/recv and
 * all-to-all: P2P with LL or Simple — minus what NCCL_ALGO / NCCL_PROTO
 * disable for the function, minus LL128 where NCCL's default rule disables it (l.518-536: only when NCCL_PROTO
 * did not set the function's protocols; LL128 needs an NVLink intra-node graph, no NCCL_P2P_DISABLE, and
 * compute capability ≥ 70). NCCL_NVLS_ENABLE=1 where there is no NVLS graph is an error.
 * NCCL's forms that ccsim does not implement (NVLS across nodes, with IB SHARP) are reported as
 * {@link Unavailable}; if nothing is
 * left the tuner throws {@link TunerException} naming what the collective supports — never a silent
 * replacement (NCCL ≥ 2.24 fails the same way, env.rst "NCCL_ALGO").
 *
 * <h2>Choice</h2>
 * The winner has the least cost at the communicator's channel count (NCCL computes its tables with the
 * graph's nChannels), ties to the first in NCCL's order. Each candidate's channel count is then chosen as
 * enqueue.cc topoGetAlgoInfo does: start from the communicator's channels and drop one while
 * {@code nBytes < nc × nThreads × threadThreshold} (thresholds LL 8 × n for Ring, 8 otherwise; LL128 8;
 * Simple 64 — comm.h NCCL_*_THREAD_THRESHOLD, tuning.cc l.589-593; nThreads as getNthreads gives it),
 * but never below NCCL_MIN_NCHANNELS (NCCL goes down to 1; ccsim keeps the user's floor).
 * One rank: NCCL runs a local copy and reports Ring/Simple with time 0 (enqueue.cc updateCollCostTable).
 *
 * <h2>Send/recv and all-to-all (ccsim's extension; NCCL has no cost model for them)</h2>
 * {@code time = baseLat[p] + hwLat[class][p] + moved / (1000 × nc × min(bw, capP) × eff(p))} with class and
 * bw those of the network on several nodes, else of the intra-node graph; {@code moved = nBytes} for
 * send/recv and {@code nBytes × (n−1)/n} for all-to-all; eff(LL) = 0.5. The protocol follows NCCL's rule,
 * not the cost: LL when an operation's bytes (send/recv: nBytes; all-to-all: nBytes / n) are at most
 * {@code p2pnChannelsPerPeer × 16384} (src/enqueue.cc addP2pToPlan, NCCL_P2P_LL_THRESHOLD), else Simple.
 *
 * <p>The channels are NCCL's, not the cost's (NVIDIA/nccl 2.28.9 src/enqueue.cc addP2pToPlan and
 * scheduleP2pTasksToPlan, src/graph/paths.cc ncclTopoComputeP2pChannels): the communicator has
 * {@code p2pnChannels = pow2Up(min(nChannels, 64))} p2p channels and {@link #p2pChannelsPerPeer}; an operation
 * gets {@link P2pOperation#channels} of them, from the protocol's step (Simple: {@link #p2pChunkBytes}; LL: the LL
 * buffer's slot). Send/recv's plan runs on its operation's channels ({@link #p2pOpChannels}); all-to-all's spans the
 * p2p channels and places each peer's operation on its own ones as NCCL does ({@link #p2pSettings}).
 */
public final class Tuner {
    /*
     * Send/recv channels, checked against NCCL: on 4 x H200 (24 collective and 32 p2p channels, as NCCL 2.28.9
     * logs them) a 4-rank send/recv runs 8 channels up to 128 MiB and 16 at 256 MiB, where the measured bandwidth
     * doubles (experiments/nccl-h200; the fixture test checks it).
     */
    /** NCCL_LL_THREAD_THRESHOLD, NCCL_LL128_THREAD_THRESHOLD, NCCL_SIMPLE_THREAD_THRESHOLD (comm.h). */
    private static final int[] THREAD_THRESHOLD = {8, 8, 64};
    /** NCCL_LL128_MAX_NTHREADS (device.h): LL128 ignores NCCL_NTHREADS (NCCL_LL128_NTHREADS instead). */
    private static final int LL128_MAX_NTHREADS = 640;
    /** PCI_BW (graph/topo.h): below this total ring bandwidth Simple defaults to 256 threads. */
    private static final double PCI_BW = 12.0;

    private final CalibrationProfile profile;
    private final NcclEnv env;

    public Tuner(CalibrationProfile profile, NcclEnv env) {
        this.profile = Objects.requireNonNull(profile, "profile");
        this.env = Objects.requireNonNull(env, "env");
    }

    public CalibrationProfile profile() { return profile; }

    public NcclEnv env() { return env; }

    /** The algorithms ccsim implements for {@code op}, in NCCL's order. */
    public static List<Algorithm> implementedAlgorithms(CollectiveOp op) {
        switch (op) {
            case ALL_REDUCE: return List.of(Algorithm.TREE, Algorithm.RING, Algorithm.COLLNET_DIRECT, Algorithm.COLLNET_CHAIN,
                    Algorithm.NVLS, Algorithm.NVLS_TREE);
            case ALL_GATHER: case REDUCE_SCATTER: return List.of(Algorithm.RING, Algorithm.COLLNET_DIRECT, Algorithm.NVLS,
                    Algorithm.PAT);
            case BROADCAST: case REDUCE: return List.of(Algorithm.RING);
            default: return List.of(Algorithm.P2P);
        }
    }

    /**
     * NCCL's algorithms for {@code op} that ccsim does not implement (tuning.cc l.293-298): none; NVLS across nodes
     * (with IB SHARP) is a form of NVLS that {@link NvlsModel} refuses with that reason.
     */
    static List<Algorithm> unimplementedNcclAlgorithms(CollectiveOp op) {
        return List.of();
    }

    /**
     * Predicts every allowed (algorithm, protocol, channel count) for {@code in} and picks the winner.
     *
     * @throws TunerException if the NCCL environment leaves nothing that the collective supports
     */
    public TuneResult tune(TuneInput in) {
        Objects.requireNonNull(in, "in");
        int lo = env.minChannels().orElse(1);
        int hi = Math.min(in.maxChannels(), env.maxChannels().orElse(NcclEnv.MAX_CHANNELS));
        hi = Math.max(hi, lo); // NCCL_MIN_NCHANNELS raises the communicator's channels (connect.cc)
        Optional<NcclFunc> func = NcclFunc.of(in.op());
        if (func.isEmpty()) return tuneP2p(in, lo, hi);
        NcclFunc f = func.get();

        List<Unavailable> unavailable = new ArrayList<>();
        List<Candidate> candidates = new ArrayList<>();
        boolean ll128Platform = ll128PlatformAllowed(in);
        for (Algorithm a : implementedAlgorithms(in.op())) {
            if (!env.algoEnabled(f, a)) {
                unavailable.add(new Unavailable(a, Optional.empty(), "disabled by NCCL_ALGO=\""
                        + env.algo().orElse("") + "\" for " + f.ncclName()));
                continue;
            }
            if (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE) {
                nvlsCandidate(in, f, a, unavailable).ifPresent(candidates::add);
                continue;
            }
            if (a == Algorithm.COLLNET_DIRECT || a == Algorithm.COLLNET_CHAIN) {
                collNetCandidate(in, f, a, lo, hi, unavailable).ifPresent(candidates::add);
                continue;
            }
            if (a == Algorithm.PAT) {
                patCandidate(in, f, hi, unavailable).ifPresent(candidates::add);
                continue;
            }
            for (Protocol p : Protocol.values()) {
                if (!env.protoEnabled(f, p)) {
                    unavailable.add(new Unavailable(a, Optional.of(p), "disabled by NCCL_PROTO=\""
                            + env.proto().orElse("") + "\" for " + f.ncclName()));
                    continue;
                }
                if (p == Protocol.LL128 && !env.protoExplicit(f) && !ll128Platform) {
                    unavailable.add(new Unavailable(a, Optional.of(p), "LL128 is off by default here (NCCL enables it"
                            + " only over NVLink intra-node graphs with P2P, compute capability >= 70; set"
                            + " NCCL_PROTO to force it)"));
                    continue;
                }
                if (in.nRanks() == 1 && !(a == Algorithm.RING && p == Protocol.SIMPLE)) {
                    unavailable.add(new Unavailable(a, Optional.of(p),
                            "one rank: NCCL runs a local copy as Ring/Simple"));
                    continue;
                }
                candidates.add(candidate(in, a, p, lo, hi));
            }
        }
        for (Algorithm a : unimplementedNcclAlgorithms(in.op())) {
            String reason;
            if (!env.algoEnabled(f, a)) {
                reason = "disabled by NCCL_ALGO=\"" + env.algo().orElse("") + "\" for " + f.ncclName();
            } else {
                reason = env.algo().isPresent() ? "requested by NCCL_ALGO=\"" + env.algo().get()
                        + "\" but not implemented by ccsim" : "not implemented by ccsim";
            }
            unavailable.add(new Unavailable(a, Optional.empty(), reason));
        }
        if (candidates.isEmpty()) throw nothingLeft(in, f, unavailable);

        Candidate winner = candidates.get(0);
        for (Candidate c : candidates) if (c.costUs() < winner.costUs()) winner = c; // strict <: NCCL order wins ties
        if (env.tunerConfig().isEmpty()) return new TuneResult(in, candidates, winner, unavailable);
        return withTunerPlugin(in, candidates, winner, unavailable, env.tunerConfig().get());
    }

    /**
     * NCCL's example tuner plugin on top of the cost model ({@link TunerConfig}): one collective per call
     * (numPipeOps 1), buffers not registered (regBuff 0). The chosen candidate is replaced by its copy at the
     * plugin's channel count.
     */
    private static TuneResult withTunerPlugin(TuneInput in, List<Candidate> candidates, Candidate ncclWinner,
                                              List<Unavailable> unavailable, TunerConfig config) {
        TunerConfig.Decision d = config.decide(in, candidates, 1, 0);
        Candidate chosen = ncclWinner;
        if (d.row().isPresent()) {
            for (Candidate c : candidates) {
                if (c.algorithm() == d.row().get().algorithm() && c.protocol() == d.row().get().protocol()) chosen = c;
            }
        }
        Candidate launched = chosen.withChannels(d.channels());
        List<Candidate> all = new ArrayList<>(candidates);
        all.set(all.indexOf(chosen), launched);
        return new TuneResult(in, all, launched, unavailable, Optional.of(d));
    }

    private TunerException nothingLeft(TuneInput in, NcclFunc f, List<Unavailable> unavailable) {
        StringBuilder sb = new StringBuilder("no algorithm/protocol left for ").append(f.ncclName());
        if (env.algo().isPresent()) sb.append(" with NCCL_ALGO=\"").append(env.algo().get()).append('"');
        if (env.proto().isPresent()) sb.append(" with NCCL_PROTO=\"").append(env.proto().get()).append('"');
        sb.append(": ").append(f.ncclName()).append(" supports ");
        List<String> algos = new ArrayList<>();
        for (Algorithm a : implementedAlgorithms(in.op())) {
            boolean simpleOnly = a == Algorithm.NVLS || a == Algorithm.NVLS_TREE || a == Algorithm.COLLNET_DIRECT
                    || a == Algorithm.COLLNET_CHAIN || a == Algorithm.PAT;
            algos.add(simpleOnly ? a.ncclName() + " (Simple only)" : a.ncclName());
        }
        sb.append(String.join(", ", algos)).append(" with LL, LL128, Simple");
        List<Algorithm> others = unimplementedNcclAlgorithms(in.op());
        if (!others.isEmpty()) {
            List<String> names = new ArrayList<>();
            for (Algorithm a : others) names.add(NcclEnv.ncclAlgoName(a));
            sb.append(" (NCCL also has ").append(String.join(", ", names)).append(", not implemented by ccsim)");
        }
        sb.append("; excluded:");
        for (Unavailable u : unavailable) sb.append(' ').append(u.label()).append(" (").append(u.reason()).append(");");
        return new TunerException(sb.toString());
    }

    /**
     * NVLS's candidate (Simple, its CTA count), or empty with the reasons added to {@code unavailable}
     * ({@link NvlsModel}). NCCL_NVLS_ENABLE=1 on a communicator without NVLS is an error, as NCCL's failed multicast
     * setup is.
     */
    private Optional<Candidate> nvlsCandidate(TuneInput in, NcclFunc f, Algorithm a, List<Unavailable> unavailable) {
        boolean tree = a == Algorithm.NVLS_TREE;
        Optional<String> refusal = tree ? NvlsTreeModel.refusal(in, env) : NvlsModel.refusal(in, env);
        if (refusal.isPresent()) {
            if (env.nvlsEnable() == 1 && !in.nvls().available()) {
                throw new TunerException("NCCL_NVLS_ENABLE=1 forces NVLS, but " + in.nvls().refusal().orElse("")
                        + "; unset it or set 0 or 2");
            }
            unavailable.add(new Unavailable(a, Optional.empty(), refusal.get()));
            return Optional.empty();
        }
        for (Protocol p : new Protocol[] {Protocol.LL, Protocol.LL128}) {
            unavailable.add(new Unavailable(a, Optional.of(p), a.ncclName() + " runs the Simple protocol only"));
        }
        if (!env.protoEnabled(f, Protocol.SIMPLE)) {
            unavailable.add(new Unavailable(a, Optional.of(Protocol.SIMPLE), "disabled by NCCL_PROTO=\""
                    + env.proto().orElse("") + "\" for " + f.ncclName()));
            return Optional.empty();
        }
        int ctas = in.nvls().ctas();
        double latency = tree ? NvlsTreeModel.latencyUs(in) : NvlsModel.latencyUs();
        double bw = tree ? NvlsTreeModel.bandwidthGBs(in) : NvlsModel.bandwidthGBs(in);
        double time = latency + in.bytes() / (1000.0 * bw);
        return Optional.of(new Candidate(a, Protocol.SIMPLE, ctas, new double[] {time}, ctas, time, latency, bw));
    }

    /**
     * CollNetDirect's or CollNetChain's candidate (Simple, NCCL's channel count), or empty with the reasons added to
     * {@code unavailable} ({@link CollNetModel}).
     */
    private Optional<Candidate> collNetCandidate(TuneInput in, NcclFunc f, Algorithm a, int lo, int hi,
                                                 List<Unavailable> unavailable) {
        Optional<String> refusal = CollNetModel.refusal(in, env, a);
        if (refusal.isPresent()) {
            unavailable.add(new Unavailable(a, Optional.empty(), refusal.get()));
            return Optional.empty();
        }
        for (Protocol p : new Protocol[] {Protocol.LL, Protocol.LL128}) {
            unavailable.add(new Unavailable(a, Optional.of(p), "CollNet runs the Simple protocol only"));
        }
        if (!env.protoEnabled(f, Protocol.SIMPLE)) {
            unavailable.add(new Unavailable(a, Optional.of(Protocol.SIMPLE), "disabled by NCCL_PROTO=\""
                    + env.proto().orElse("") + "\" for " + f.ncclName()));
            return Optional.empty();
        }
        int nc = CollNetModel.channels(in, a, lo, hi);
        double latency = CollNetModel.latencyUs(in, a, profile);
        double bw = CollNetModel.bandwidthGBs(in, a, profile.computeCapability());
        double time = latency + in.bytes() / (1000.0 * bw);
        return Optional.of(new Candidate(a, Protocol.SIMPLE, nc, new double[] {time}, nc, time, latency, bw));
    }

    /**
     * PAT's candidate (Simple, the communicator's channels), or empty with the reasons added to {@code unavailable}
     * ({@link PatModel}).
     */
    private Optional<Candidate> patCandidate(TuneInput in, NcclFunc f, int channels, List<Unavailable> unavailable) {
        Optional<String> refusal = in.nRanks() == 1 ? Optional.of("one rank: NCCL runs a local copy as Ring/Simple")
                : PatModel.refusal(in, env, profile);
        if (refusal.isPresent()) {
            unavailable.add(new Unavailable(Algorithm.PAT, Optional.empty(), refusal.get()));
            return Optional.empty();
        }
        for (Protocol p : new Protocol[] {Protocol.LL, Protocol.LL128}) {
            unavailable.add(new Unavailable(Algorithm.PAT, Optional.of(p), "PAT runs the Simple protocol only"));
        }
        if (!env.protoEnabled(f, Protocol.SIMPLE)) {
            unavailable.add(new Unavailable(Algorithm.PAT, Optional.of(Protocol.SIMPLE), "disabled by NCCL_PROTO=\""
                    + env.proto().orElse("") + "\" for " + f.ncclName()));
            return Optional.empty();
        }
        double latency = PatModel.latencyUs(in, profile);
        double bw = PatModel.bandwidthGBs(in, channels);
        double time = latency + in.bytes() / (1000.0 * bw);
        return Optional.of(new Candidate(Algorithm.PAT, Protocol.SIMPLE, channels, new double[] {time}, channels, time,
                latency, bw));
    }

    /** tuning.cc l.518-536 with ccsim's inputs: LL128 on by default only on NVLink graphs, with P2P. */
    private boolean ll128PlatformAllowed(TuneInput in) {
        return in.intraClass() == LinkClass.NVLINK && !env.p2pDisable() && profile.computeCapability() >= 70;
    }

    private LinkClass intraClass(TuneInput in) {
        return env.p2pDisable() ? LinkClass.PCIE : in.intraClass();
    }

    private Candidate candidate(TuneInput in, Algorithm a, Protocol p, int lo, int hi) {
        if (in.nRanks() == 1) { // enqueue.cc updateCollCostTable: table[RING][SIMPLE] = 0
            double[] zeros = new double[hi - lo + 1];
            return new Candidate(a, p, lo, zeros, lo, 0.0, 0.0, Double.POSITIVE_INFINITY);
        }
        double latency = latencyUs(in, a, p);
        double[] times = new double[hi - lo + 1];
        for (int nc = lo; nc <= hi; nc++) times[nc - lo] = timeUs(in, a, p, nc, latency);
        double bw = bandwidthGBs(in, a, p, hi);
        return new Candidate(a, p, lo, times, chooseChannels(in, a, p, lo, hi), times[hi - lo], latency, bw);
    }

    /** ncclTopoGetAlgoTime (l.630-655) with the bandwidth of {@code nc} channels, µs. */
    double timeUs(TuneInput in, Algorithm a, Protocol p, int nc, double latency) {
        TunerConstants t = profile.tuner();
        double bw = bandwidthGBs(in, a, p, nc);
        long nBytes = in.bytes();
        int logSize = 63 - Long.numberOfLeadingZeros(nBytes >> 6); // log2i(nBytes >> 6); -1 for 0
        if (a == Algorithm.TREE && in.op() == CollectiveOp.ALL_REDUCE && logSize >= 0 && logSize < 23) {
            bw *= t.treeCorrection(p, logSize);
        }
        double lat = latency;
        if (a == Algorithm.RING && p == Protocol.SIMPLE && in.nNodes() > 1 && in.op() == CollectiveOp.ALL_REDUCE
                && nBytes / ((long) nc * in.nRanks()) >= 64) {
            lat *= profile.computeCapability() < 80 ? 1.9 : t.ringPlateauFactor();
        }
        return lat + nBytes / (1000.0 * bw);
    }

    private static int nsteps(CollectiveOp op, int n) {
        switch (op) {
            case ALL_REDUCE: return 2 * (n - 1);
            case REDUCE_SCATTER: case ALL_GATHER: return n - 1;
            default: return n;
        }
    }

    /**
     * {@code comm->bandwidths[coll][a][p]} for {@code nc} channels (l.306-383), GB/s. Across nodes NCCL reads the search
     * graph ({@link TuneInput.NetGraph}: its channels at its speed, the plain tree at 0.85), of which the communicator's
     * {@code nc} of {@code maxChannels} channels get their share.
     */
    double bandwidthGBs(TuneInput in, Algorithm a, Protocol p, int nc) {
        TunerConstants t = profile.tuner();
        int n = in.nRanks();
        int nNodes = in.nNodes();
        TuneInput.NetGraph g = nNodes > 1 ? in.netGraph() : null;
        int gc = g != null ? g.channels() : nc; // the channels NCCL's bandwidth counts
        double bw = g != null ? g.bwGBs() : nNodes <= 2 ? in.intraBwGBs() : in.interBwGBs();
        double llMaxBw = t.llMaxBwGbps().forNodes(nNodes);
        double busBw;
        if (a == Algorithm.RING) {
            if (p == Protocol.LL128) {
                busBw = Math.min(gc * bw * t.ll128Efficiency(), gc * t.ringLl128MaxChannelBwGbps().forNodes(nNodes));
            } else {
                busBw = gc * Math.min(bw, profile.protocol(p).maxChannelBwGbps());
            }
            if (p == Protocol.LL) busBw = Math.min(llMaxBw, busBw * 0.5);
            busBw *= (double) n / nsteps(in.op(), n);
        } else if (a == Algorithm.TREE) {
            // the tree graph's NVLink part runs at the undivided search speed (its bwIntra, read on up to 2 nodes)
            if (g != null && nNodes <= 2) bw = g.treeIntraBwGBs();
            busBw = gc * bw;
            if (in.op() == CollectiveOp.ALL_REDUCE) {
                busBw = Math.min(busBw * t.treeEfficiency(), gc * t.treeMaxChannelBwGbps().forNodes(nNodes));
            }
            if (p == Protocol.LL) busBw = Math.min(busBw * t.treeLlFactor(), llMaxBw);
            if (p == Protocol.LL128) {
                busBw = Math.min(busBw * (nNodes == 1 ? t.treeLl128IntraEfficiency() : t.treeLl128InterEfficiency()),
                        gc * t.treeLl128MaxChannelBwGbps().forNodes(nNodes));
            }
            if (g != null && !g.balancedTree()) busBw *= PLAIN_TREE_FACTOR;
            busBw *= 0.5;
        } else {
            throw new IllegalStateException("no NCCL bandwidth model for " + a);
        }
        return g != null ? busBw * nc / in.maxChannels() : busBw;
    }

    /** NCCL's tree bandwidth factor where the tree search found only the plain pattern (tuning.cc l.335). */
    private static final double PLAIN_TREE_FACTOR = 0.85;

    /** {@code comm->latencies[coll][a][p]} (l.384-417), µs. */
    double latencyUs(TuneInput in, Algorithm a, Protocol p) {
        int n = in.nRanks();
        int nNodes = in.nNodes();
        double ppn = (double) n / nNodes;
        LatencyCosts ring = profile.protocol(p).latencies();
        LatencyCosts tree = profile.treeLatencies().get(p);
        LatencyCosts own = a == Algorithm.RING ? ring : tree;
        LinkClass intra = intraClass(in);
        double lat = own.baseLatencyUs();
        double intraLat = own.hopLatencyUs(intra);
        double interLat = (ppn == 1 ? tree : own).hopLatencyUs(LinkClass.NET) + in.interLatencyUs();
        if (p == Protocol.SIMPLE) interLat += in.interLatencyUs(); // flush
        int nsteps = nsteps(in.op(), n);
        if (a == Algorithm.RING) {
            LinkClass hw = nNodes == 1 ? intra : LinkClass.NET;
            double hop = ring.hopLatencyUs(hw);
            if (in.op() == CollectiveOp.REDUCE || in.op() == CollectiveOp.BROADCAST) {
                if (in.ringSameChannels()) {
                    lat += hop;
                } else {
                    if (p == Protocol.SIMPLE) hop = tree.hopLatencyUs(hw);
                    lat += nsteps * hop;
                }
            } else {
                double netOverhead = 0;
                if (nNodes > 1) {
                    netOverhead = profile.tuner().netOverheadUs();
                    if (p == Protocol.SIMPLE) netOverhead *= 3;
                }
                intraLat = Math.max(intraLat, netOverhead);
                int nInter = nNodes == 1 ? 0 : in.op() == CollectiveOp.ALL_REDUCE ? 2 * (nNodes - 1) : nNodes - 1;
                lat += (nsteps - nInter) * intraLat + nInter * interLat;
            }
        } else if (a == Algorithm.TREE) {
            if (in.op() == CollectiveOp.ALL_REDUCE) {
                int log2Nodes = 31 - Integer.numberOfLeadingZeros(nNodes);
                lat += 2 * ((n / nNodes - 1) * intraLat + log2Nodes * interLat);
            }
        }
        return lat;
    }

    /** Threads per block NCCL uses for (a, p) (tuning.cc l.244-257 getNthreads). */
    int maxThreads(TuneInput in, Algorithm a, Protocol p, int commChannels) {
        if (p == Protocol.LL128) return LL128_MAX_NTHREADS;
        if (env.nThreads().isPresent()) return env.nThreads().getAsInt();
        if (a == Algorithm.RING && p == Protocol.SIMPLE) {
            return in.intraBwGBs() * commChannels <= PCI_BW ? 256 : NcclEnv.MAX_NTHREADS;
        }
        return NcclEnv.MAX_NTHREADS;
    }

    /** enqueue.cc topoGetAlgoInfo l.2091-2097, bounded below by NCCL_MIN_NCHANNELS. */
    int chooseChannels(TuneInput in, Algorithm a, Protocol p, int lo, int hi) {
        long nt = maxThreads(in, a, p, hi);
        long threshold = THREAD_THRESHOLD[p.ordinal()];
        if (a == Algorithm.RING && p == Protocol.LL) threshold *= in.nRanks();
        int nc = hi;
        while (in.bytes() < nc * nt * threshold && nc > lo) nc--;
        return nc;
    }

    private TuneResult tuneP2p(TuneInput in, int lo, int hi) {
        List<Candidate> candidates = new ArrayList<>();
        int p2pn = p2pnChannels(hi);
        int top = in.nRanks() > 1 ? Math.max(hi, p2pn) : hi;
        int perPeer = p2pChannelsPerPeer(in, p2pn);
        long opBytes = in.op() == CollectiveOp.ALL_TO_ALL && in.nRanks() > 1 ? in.bytes() / in.nRanks() : in.bytes();
        for (Protocol p : new Protocol[] {Protocol.LL, Protocol.SIMPLE}) {
            int nc0 = hi;
            if (in.nRanks() > 1 && in.op() == CollectiveOp.SEND_RECV) nc0 = p2pOpChannels(in, p, opBytes, p2pn);
            else if (in.nRanks() > 1) nc0 = p2pn; // all-to-all: the plan spans the p2p channels (AllToAllPlanner)
            nc0 = Math.max(lo, Math.min(top, nc0));
            double[] times = new double[top - lo + 1];
            double latency = p2pLatencyUs(in, p);
            for (int nc = lo; nc <= top; nc++) times[nc - lo] = latency + p2pMovedBytes(in) / (1000.0 * p2pBw(in, p, nc));
            candidates.add(new Candidate(Algorithm.P2P, p, lo, times, nc0, times[nc0 - lo], latency, p2pBw(in, p, nc0)));
        }
        long threshold = env.p2pLlThreshold().orElse(P2pOperation.LL_THRESHOLD_BYTES); // NCCL_P2P_LL_THRESHOLD
        boolean ll = in.nRanks() > 1 && opBytes <= (threshold > Long.MAX_VALUE / perPeer ? Long.MAX_VALUE : perPeer * threshold);
        Candidate winner = candidates.get(ll ? 0 : 1);
        List<Unavailable> unavailable = List.of(new Unavailable(Algorithm.P2P, Optional.of(Protocol.LL128),
                "NCCL's point-to-point path uses LL or Simple only"));
        return new TuneResult(in, candidates, winner, unavailable);
    }

    /** NCCL_MAX_P2P_NCHANNELS default (src/init.cc). */
    static final int MAX_P2P_CHANNELS = 64;
    /** NCCL_P2P_NVL_CHUNKSIZE and NCCL_P2P_PCI_CHUNKSIZE / NCCL_P2P_NET_CHUNKSIZE defaults (src/init.cc), bytes. */
    static final int P2P_NVL_CHUNK = 512 * 1024, P2P_CHUNK = 128 * 1024;

    /** The communicator's p2p channels for {@code commChannels} collective channels (paths.cc). */
    static int p2pnChannels(int commChannels) {
        return pow2Up(Math.min(commChannels, MAX_P2P_CHANNELS));
    }

    /**
     * NCCL's {@code p2pnChannelsPerPeer} on {@code p2pn} p2p channels (src/graph/paths.cc ncclTopoComputeP2pChannels
     * and ncclTopoGetNchannels): the least over the peers, as a power of two, of a peer over NVLink: 2 per NVLink of
     * the path; another peer of the node: 2; a peer across the network: NCCL_NCHANNELS_PER_NET_PEER where set, else 2,
     * halved while that times nRanks exceeds 4 × p2pn, and at least the NICs the GPU needs for its bandwidth (one on
     * the catalog's boards, taken as one).
     */
    int p2pChannelsPerPeer(TuneInput in, int p2pn) {
        int min = p2pn;
        if (in.gpusPerNode() > 1) {
            boolean nvl = in.intraClass() == LinkClass.NVLINK;
            min = Math.min(min, nvl ? 2 * Math.max(1, (int) Math.round(in.intraBwGBs() * in.maxChannels() / nvlinkLinkGBs(in))) : 2);
        }
        if (in.nNodes() > 1) {
            int net = 2;
            while ((long) net * in.nRanks() > 4L * p2pn && net > 1) net /= 2;
            min = Math.min(min, env.netPeerChannels().orElse(net)); // NCCL_NCHANNELS_PER_NET_PEER replaces the rule
        }
        return Math.min(pow2Up(min), p2pn);
    }

    /** NCCL's {@code p2pChunkSize}: the net chunk on several nodes, the NVLink chunk where every GPU pair is NVLink. */
    static int p2pChunkBytes(TuneInput in) {
        return in.nNodes() == 1 && in.intraClass() == LinkClass.NVLINK ? P2P_NVL_CHUNK : P2P_CHUNK;
    }

    /** The communicator's p2p settings a plan reads ({@link io.ccsim.algorithms.plan.PlanOptions#p2p}). */
    public P2pSettings p2pSettings(TuneInput in, int p2pChannels) {
        return new P2pSettings(p2pChannelsPerPeer(in, p2pChannels), p2pChunkBytes(in));
    }

    /** The channels NCCL gives one send or receive of {@code bytes} with protocol {@code p} (see the class comment). */
    int p2pOpChannels(TuneInput in, Protocol p, long bytes, int p2pn) {
        int perPeer = p2pChannelsPerPeer(in, p2pn);
        long step = p == Protocol.LL ? Protocol.LL.defaultBufferBytes() / Protocol.NCCL_STEPS : p2pChunkBytes(in);
        return P2pOperation.channels(bytes, P2pOperation.minChannels(perPeer, in.nRanks(), p2pn), perPeer, step,
                in.nNodes() > 1);
    }

    /** NCCL's per-link NVLink bandwidth, GB/s (src/graph/topo.h SM90_NVLINK_BW: NVLink4; SM100_NVLINK_BW: NVLink5). */
    public static final double SM90_NVLINK_BW_GBS = 20.6, SM100_NVLINK_BW_GBS = 40.1;

    private double nvlinkLinkGBs(TuneInput in) {
        return profile.computeCapability() >= 100 ? SM100_NVLINK_BW_GBS : SM90_NVLINK_BW_GBS;
    }

    private static int pow2Up(int v) {
        int p = 1;
        while (p < v) p <<= 1;
        return p;
    }

    private double p2pMovedBytes(TuneInput in) {
        if (in.op() == CollectiveOp.ALL_TO_ALL) return (double) in.bytes() * (in.nRanks() - 1) / in.nRanks();
        return in.bytes();
    }

    private double p2pLatencyUs(TuneInput in, Protocol p) {
        LinkClass c = in.nRanks() == 1 ? null : in.nNodes() > 1 ? LinkClass.NET : intraClass(in);
        double lat = profile.protocol(p).baseLatencyUs();
        return c == null ? lat : lat + profile.protocol(p).hopLatencyUs(c);
    }

    private double p2pBw(TuneInput in, Protocol p, int nc) {
        double bw;
        if (in.nRanks() == 1) bw = profile.copyBwGbps(); // a send to oneself is a local copy
        else bw = in.nNodes() > 1 ? in.interBwGBs() : in.intraBwGBs();
        double perCh = Math.min(bw, profile.protocol(p).maxChannelBwGbps()) * p.dataEfficiency();
        return nc * perCh;
    }
}
