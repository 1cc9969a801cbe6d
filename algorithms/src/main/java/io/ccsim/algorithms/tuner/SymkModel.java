package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.plan.SymmetricSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * NCCL's choice among its symmetric-memory kernels for a call whose buffers lie in symmetric windows (NCCL 2.27+,
 * {@code ncclCommWindowRegister(..., NCCL_WIN_COLL_SYMMETRIC)}; nccl-tests {@code -R 2}). Immutable.
 *
 * <p>When a kernel is eligible NCCL runs it with no comparison against Ring or NVLS (v2.28.9 enqueue.cc); when none
 * is, the call takes the normal tuner ({@link #pick} says why).
 */
public final class SymkModel {
    /*
     * NVIDIA/nccl v2.28.9 src/sym_kernels.cc (ncclSymkImplemented, ncclSymkMask, queryModel, ncclSymkPickKernel),
     * src/init.cc (symmetricSupport), src/enqueue.cc:
     *   eligible  iff one node, NCCL_WIN_ENABLE != 0, P2P between all GPUs, ncclSymkImplemented (all-gather any type;
     *             all-reduce / reduce-scatter sum of f32, f16, bf16, fp8) and the kernel mask is not empty.
     *   mask      the op's kernels ∩ NCCL_SYM_KERNEL (a kernel name; unset or "^" = all); multimem kernels
     *             (kernelMask_STMC: AGxLLMC_R, RSxLDMC_AGxSTMC, AllGather_LLMC, AllGather_STMC, ReduceScatter_LDMC)
     *             need NVLS, those that reduce in the switch (RSxLDMC_AGxSTMC, LDMC) also an NVLS-reducible
     *             (type, sum) — f32, f16, bf16 (fp8 only from sm100); the others any type; busBytes =
     *             (all-reduce ? 1 : n) × nBytes: ≥ 2 GiB removes the LL kernels (kernelMask_LL: AGxLL_R, AGxLLMC_R,
     *             AllGather_LL, AllGather_LLMC, ReduceScatter_LL), ≥ 64 GiB every kernel; ncclSymkPickKernel also
     *             removes the LL kernels when a group batches several calls of one (op, type, reduction) into one
     *             launch (nWorks > 1).
     *             NCCL_SYM_KERNEL=AllReduce_RSxNet_ARxMC_AGxNet names a kernel that is in no op's mask: no symmetric
     *             kernel runs.
     *   nBytes    count × type size, rounded up to a 1024-byte cell (count per rank: all-gather input, reduce-scatter
     *             output).
     *   model     time(us) = baseLat + softplus(busBytes / bw − 1, 1), bw = softmin(blocks × smBw × mult, peak, smBw),
     *             softmin(x, c, s) = c − s·ln(1 + (e^{c/s} − 1)·e^{−x/s}), softplus(x, s) = s·ln(1 + e^{x/s});
     *             bandwidths in GiB/s (1 GiB/s = 2^30/1e6 bytes per us).
     *             busBytes: the LL kernels n·nBytes·9 ("2X the bytes, plus some processing, plus no unrolling"),
     *             the multicast LL kernels (AGxLLMC_R, AllGather_LLMC) with mult 1.1 ("to beat non-MC LL");
     *             RSxLD_AGxST 2·nBytes·(n−1)/n; RSxLDMC_AGxSTMC nBytes/n + nBytes, mult n;
     *             AllGather_ST and ReduceScatter_LD (n−1)·nBytes; AllGather_STMC and ReduceScatter_LDMC
     *             (n−1)·nBytes, mult 0.55·n.
     *             sm90 (cudaArch < 1000): baseLat 4.5 (LL) / 7.8 us; smBw 65 (all-reduce) / 44 GiB/s; peak 480
     *             (RSxLDMC_AGxSTMC) / 320.
     *             sm100 and later: baseLat LL 8.5 (all-gather) / 11, others 19.5 (all-reduce) / 13 us; smBw 55 GiB/s;
     *             peak 1000 (RSxLDMC_AGxSTMC) / 600.
     *   blocks    max 64, but ceil(16 / n) on sm90, ceil(32 / n) on sm100, for RSxLDMC_AGxSTMC, STMC and LDMC (not
     *             the LLMC kernels): one block from 17 (sm90) or 33 (sm100) ranks; min 1; NCCL_SYM_CTAS > 0 fixes
     *             both; the fewest blocks whose time is within 2.5 % of the time at the most.
     *   pick      the least time × (1 + 0.025 × blocks), kernels in NCCL's id order (ties keep the first).
     *   ranks     no limit: the multimem kernels need nvlsSupport only (ncclNvlsInit: the GPU's multicast attribute),
     *             so a 72-GPU NVL72 domain runs STMC and LDMC (NVLS's 32-head limit is the NVLS algorithm's).
     * ccsim plans all eleven kernels NCCL 2.28.9 builds. One deviation: on sm100 ncclSymkMask also lets the switch
     * reduce fp8 (RSxLDMC_AGxSTMC, LDMC); ccsim's planner, which does not know the GPU, refuses fp8 multimem
     * load-reduces, so fp8 calls choose among the other kernels (the result says so through {@link Choice#note()}).
     */
    /** NCCL_SYM_KERNEL: force one symmetric kernel by name. */
    public static final String NCCL_SYM_KERNEL = "NCCL_SYM_KERNEL";
    /** NCCL_SYM_CTAS: fix the symmetric kernels' block count (0: the model's choice). */
    public static final String NCCL_SYM_CTAS = "NCCL_SYM_CTAS";
    /** NCCL_WIN_ENABLE: 0 turns window registration, hence symmetric kernels, off. */
    public static final String NCCL_WIN_ENABLE = "NCCL_WIN_ENABLE";

    /** NCCL's kernel name (sym_kernels.cc kernelName) that is in no op's mask: 2.28.9 never runs it. */
    private static final String NEVER_BUILT = "AllReduce_RSxNet_ARxMC_AGxNet";
    /** NCCL's kernels in its id order (enum ncclSymkKernelId), the order ncclSymkPickKernel compares them in. */
    private static final Algorithm[] KERNELS = {Algorithm.SYM_AR_ONE_SHOT, Algorithm.SYM_AR_ONE_SHOT_MC,
            Algorithm.SYM_AR_TWO_SHOT, Algorithm.SYM_AR_MULTIMEM, Algorithm.SYM_AG_LL, Algorithm.SYM_AG_LLMC,
            Algorithm.SYM_AG_ST, Algorithm.SYM_AG_STMC, Algorithm.SYM_RS_LL, Algorithm.SYM_RS_LD, Algorithm.SYM_RS_LDMC};
    private static final double GIBPS = (1L << 30) / 1e6; // bytes per us
    private static final long LL_LIMIT = 2L << 30;
    private static final long ANY_LIMIT = 64L << 30;
    private static final int MAX_BLOCKS = 64;

    private final Algorithm forced;
    private final boolean forcedNone;
    private final int ctas;
    private final boolean windows;

    private SymkModel(Algorithm forced, boolean forcedNone, int ctas, boolean windows) {
        this.forced = forced;
        this.forcedNone = forcedNone;
        this.ctas = ctas;
        this.windows = windows;
    }

    /**
     * The model with the symmetric kernels' NCCL variables of {@code env} (NCCL_SYM_KERNEL, NCCL_SYM_CTAS,
     * NCCL_WIN_ENABLE; other entries ignored).
     *
     * @throws NcclEnvException naming the variable, the bad value and the valid ones
     */
    public static SymkModel parse(Map<String, String> env) {
        String k = env.getOrDefault(NCCL_SYM_KERNEL, "").trim();
        Algorithm forced = null;
        boolean forcedNone = k.equals(NEVER_BUILT);
        if (!k.isEmpty() && !k.equals("^") && !forcedNone) {
            for (Algorithm a : KERNELS) if (a.ncclName().equals(k)) forced = a;
            if (forced == null) {
                List<String> valid = new ArrayList<>();
                for (Algorithm a : KERNELS) valid.add(a.ncclName());
                valid.add(NEVER_BUILT);
                throw new NcclEnvException(NCCL_SYM_KERNEL, k, k, valid, "not a symmetric kernel name");
            }
        }
        int ctas = 0;
        String c = env.getOrDefault(NCCL_SYM_CTAS, "").trim();
        if (!c.isEmpty()) {
            long v = NcclEnv.parseNumber(NCCL_SYM_CTAS, c);
            if (v < 0 || v > MAX_BLOCKS) {
                throw new NcclEnvException(NCCL_SYM_CTAS, c, c, List.of("0 (the model's choice)", "1.." + MAX_BLOCKS),
                        "block count out of range");
            }
            ctas = (int) v;
        }
        String w = env.getOrDefault(NCCL_WIN_ENABLE, "").trim();
        boolean windows = w.isEmpty() || NcclEnv.parseNumber(NCCL_WIN_ENABLE, w) != 0;
        return new SymkModel(forced, forcedNone, ctas, windows);
    }

    /** A symmetric kernel NCCL runs: the kernel, its blocks and the model's time, µs. */
    public record Choice(Algorithm kernel, int blocks, double timeUs, String note) { }

    /**
     * NCCL's symmetric kernel for the call {@code in} describes (its op, nccl-tests size, ranks, nodes, type,
     * reduction and NVLS graph) on GPUs of compute capability {@code cc}, or why none runs (NCCL then takes its
     * normal tuner).
     */
    public Result pick(TuneInput in, int cc, boolean p2pDisabled, boolean nvlsEnabled) {
        return pick(in, cc, p2pDisabled, nvlsEnabled, 1);
    }

    /**
     * As {@link #pick(TuneInput, int, boolean, boolean)} for the head of {@code nWorks} ≥ 1 calls of one (op, type,
     * reduction) that a group launches as one symmetric kernel (NCCL then runs no LL kernel); {@code in}'s bytes stand
     * for the calls' total, which NCCL's model times (its 2 GiB and 64 GiB limits look at the largest call alone).
     * ccsim's {@code perf} times one call per group: nWorks = 1.
     */
    public Result pick(TuneInput in, int cc, boolean p2pDisabled, boolean nvlsEnabled, int nWorks) {
        if (nWorks < 1) throw new IllegalArgumentException("nWorks must be at least 1, got " + nWorks);
        CollectiveOp op = in.op();
        if (!windows) return Result.none("NCCL_WIN_ENABLE=0: no symmetric windows");
        if (forcedNone) {
            return Result.none(NCCL_SYM_KERNEL + "=" + NEVER_BUILT + ": NCCL 2.28.9 runs that kernel for no call");
        }
        Optional<String> why = SymmetricSupport.hostRefusal(in.nNodes());
        if (why.isEmpty() && p2pDisabled) why = Optional.of("NCCL_P2P_DISABLE=1: symmetric windows need P2P between all GPUs");
        if (why.isEmpty()) why = SymmetricSupport.refusal(op, in.dtype(), in.redop());
        if (why.isPresent()) return Result.none(why.get());
        int n = in.nRanks();
        long perRank = op == CollectiveOp.ALL_REDUCE ? in.bytes() : in.bytes() / n;
        long nBytes = (perRank + 1023) / 1024 * 1024;
        long busBytes = (op == CollectiveOp.ALL_REDUCE ? 1 : n) * nBytes;
        if (busBytes >= ANY_LIMIT) return Result.none("no symmetric kernel for 64 GiB or more (ncclSymkMask)");
        boolean mc = nvlsEnabled && in.nvls().available();
        Choice best = null;
        double bestCost = Double.POSITIVE_INFINITY;
        for (Algorithm k : KERNELS) {
            if (SymmetricSupport.opOf(k) != op || (forced != null && forced != k)) continue;
            if (SymmetricSupport.multimem(k)
                    && (!mc || SymmetricSupport.multimemRefusal(k, in.dtype(), in.redop()).isPresent())) continue;
            if (SymmetricSupport.ll(k) && (busBytes >= LL_LIMIT || nWorks > 1)) continue;
            Choice c = blocks(k, n, nBytes, cc);
            double cost = c.timeUs() * (1 + 0.025 * c.blocks());
            if (cost < bestCost) {
                bestCost = cost;
                best = c;
            }
        }
        if (best == null) {
            return Result.none(forced != null ? NCCL_SYM_KERNEL + "=" + forced.ncclName() + " does not run this call"
                    : "no symmetric kernel in NCCL's mask for this call");
        }
        boolean fp8 = in.dtype() == DataType.FP8_E4M3 || in.dtype() == DataType.FP8_E5M2;
        String note = cc >= 100 && fp8 && op != CollectiveOp.ALL_GATHER && mc
                ? "sm" + cc + " would also weigh the fp8 multimem load-reduce kernels, which ccsim does not plan" : "";
        return Result.of(new Choice(best.kernel(), best.blocks(), best.timeUs(), note));
    }

    /** The kernel's block count (the fewest within 2.5 % of the most's time) and its time. */
    private Choice blocks(Algorithm k, int n, long nBytes, int cc) {
        int max = nvlsBlocks(k) ? (nvlsBlockBase(cc) + n - 1) / n : MAX_BLOCKS;
        int min = 1;
        if (ctas > 0) {
            min = ctas;
            max = ctas;
        }
        double tMax = timeUs(k, n, nBytes, max, cc);
        int b = min;
        while (b < max && timeUs(k, n, nBytes, b, cc) > 1.025 * tMax) b++;
        return new Choice(k, b, timeUs(k, n, nBytes, b, cc), "");
    }

    /** Whether NCCL caps the kernel's blocks at ceil(16 or 32 / n) (queryModel's nMaxBlocksNvls). */
    private static boolean nvlsBlocks(Algorithm k) {
        return k == Algorithm.SYM_AR_MULTIMEM || k == Algorithm.SYM_AG_STMC || k == Algorithm.SYM_RS_LDMC;
    }

    /** queryModel's nMaxBlocksNvls numerator: 16 before sm100, 32 from it. */
    private static int nvlsBlockBase(int cc) {
        return cc >= 100 ? 32 : 16;
    }

    /**
     * NCCL's model time of kernel {@code k} over {@code n} ranks on {@code blocks} blocks of GPUs of compute
     * capability {@code cc} (× 10: 90 Hopper, 100 Blackwell; sm90's constants below 100), µs. {@code nBytes} is
     * NCCL's nBytes: the all-reduce buffer, one rank's part of an all-gather or reduce-scatter.
     */
    public static double timeUs(Algorithm k, int n, long nBytes, int blocks, int cc) {
        boolean ll = SymmetricSupport.ll(k);
        CollectiveOp op = SymmetricSupport.opOf(k);
        boolean ar = op == CollectiveOp.ALL_REDUCE;
        boolean blackwell = cc >= 100;
        double baseLat;
        if (blackwell) baseLat = ll ? (op == CollectiveOp.ALL_GATHER ? 8.5 : 11) : (ar ? 19.5 : 13.0);
        else baseLat = ll ? 4.5 : 7.8;
        double smBw = blackwell ? 55 : ar ? 65 : 44;
        double peak = k == Algorithm.SYM_AR_MULTIMEM ? (blackwell ? 1000 : 480) : (blackwell ? 600 : 320);
        double mult = 1;
        double busBytes;
        switch (k) {
            case SYM_AR_ONE_SHOT: case SYM_AG_LL: case SYM_RS_LL: busBytes = (double) n * nBytes * 9; break;
            case SYM_AR_ONE_SHOT_MC: case SYM_AG_LLMC: busBytes = (double) n * nBytes * 9; mult = 1.1; break;
            case SYM_AR_TWO_SHOT: busBytes = 2.0 * nBytes * (n - 1) / n; break;
            case SYM_AR_MULTIMEM: busBytes = (double) nBytes / n + nBytes; mult = n; break;
            case SYM_AG_STMC: case SYM_RS_LDMC: busBytes = (double) (n - 1) * nBytes; mult = 0.55 * n; break;
            default: busBytes = (double) (n - 1) * nBytes;
        }
        double bw = softmin(blocks * smBw * mult, peak, smBw) * GIBPS;
        return baseLat + softplus(busBytes / bw - 1, 1);
    }

    static double softmin(double x, double c, double s) {
        return c - s * Math.log1p(Math.expm1(c / s) * Math.exp(-x / s));
    }

    static double softplus(double x, double s) {
        return x / s >= 100 ? x : s * Math.log1p(Math.exp(x / s));
    }

    /** A kernel NCCL runs, or why none does. */
    public record Result(Optional<Choice> choice, String reason) {
        public Result {
            java.util.Objects.requireNonNull(choice, "choice");
            java.util.Objects.requireNonNull(reason, "reason");
        }

        static Result of(Choice c) { return new Result(Optional.of(c), ""); }

        static Result none(String why) { return new Result(Optional.empty(), why); }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "SymkModel[kernel=%s, ctas=%d, windows=%b]",
                forcedNone ? NEVER_BUILT : forced == null ? "any" : forced.ncclName(), ctas, windows);
    }
}
