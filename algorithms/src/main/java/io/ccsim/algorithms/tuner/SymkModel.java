package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
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
     *   mask      the op's kernels ∩ NCCL_SYM_KERNEL (a kernel name; unset or "^" = all); multimem kernels need NVLS,
     *             those that reduce (RSxLDMC_AGxSTMC, LDMC) also an NVLS-reducible (type, sum) — f32, f16, bf16
     *             (fp8 only from sm100); AllGather_STMC any type; busBytes =
     *             (all-reduce ? 1 : n) × nBytes: ≥ 2 GiB removes the LL kernels, ≥ 64 GiB every kernel.
     *   nBytes    count × type size, rounded up to a 1024-byte cell (count per rank: all-gather input, reduce-scatter
     *             output).
     *   model     time(us) = baseLat + softplus(busBytes / bw − 1, 1), bw = softmin(blocks × smBw × mult, peak, smBw),
     *             softmin(x, c, s) = c − s·ln(1 + (e^{c/s} − 1)·e^{−x/s}), softplus(x, s) = s·ln(1 + e^{x/s});
     *             bandwidths in GiB/s (1 GiB/s = 2^30/1e6 bytes per us).
     *             busBytes: AGxLL_R n·nBytes·9; RSxLD_AGxST 2·nBytes·(n−1)/n; RSxLDMC_AGxSTMC nBytes/n + nBytes,
     *             mult n; AllGather_ST and ReduceScatter_LD (n−1)·nBytes; AllGather_STMC and ReduceScatter_LDMC
     *             (n−1)·nBytes, mult 0.55·n.
     *             sm90: baseLat 4.5 (LL) / 7.8 us; smBw 65 (all-reduce) / 44 GiB/s; peak 480 (RSxLDMC_AGxSTMC) / 320.
     *   blocks    max 64 (multimem, STMC and LDMC included: ceil(16 / n) on sm90), min 1; NCCL_SYM_CTAS > 0 fixes both; the fewest blocks
     *             whose time is within 2.5 % of the time at the most.
     *   pick      the least time × (1 + 0.025 × blocks).
     * ccsim implements seven of NCCL's eleven kernels (SymmetricSupport); the others (AllReduce_AGxLLMC_R,
     * AllGather_LL/LLMC, ReduceScatter_LL) are left out of the choice, so where NCCL would pick one of them ccsim
     * runs the best of the seven; NCCL_SYM_KERNEL naming one of them is an error. Blackwell's constants are not
     * modelled (sm90's are used, and the result says so through {@link Choice#note()}).
     */
    /** NCCL_SYM_KERNEL: force one symmetric kernel by name. */
    public static final String NCCL_SYM_KERNEL = "NCCL_SYM_KERNEL";
    /** NCCL_SYM_CTAS: fix the symmetric kernels' block count (0: the model's choice). */
    public static final String NCCL_SYM_CTAS = "NCCL_SYM_CTAS";
    /** NCCL_WIN_ENABLE: 0 turns window registration, hence symmetric kernels, off. */
    public static final String NCCL_WIN_ENABLE = "NCCL_WIN_ENABLE";

    private static final List<String> NOT_IMPLEMENTED = List.of("AllReduce_AGxLLMC_R", "AllGather_LL", "AllGather_LLMC",
            "ReduceScatter_LL");
    private static final Algorithm[] KERNELS = {Algorithm.SYM_AR_ONE_SHOT, Algorithm.SYM_AR_TWO_SHOT,
            Algorithm.SYM_AR_MULTIMEM, Algorithm.SYM_AG_ST, Algorithm.SYM_AG_STMC, Algorithm.SYM_RS_LD,
            Algorithm.SYM_RS_LDMC};
    private static final double GIBPS = (1L << 30) / 1e6; // bytes per us
    private static final long LL_LIMIT = 2L << 30;
    private static final long ANY_LIMIT = 64L << 30;
    private static final int MAX_BLOCKS = 64;

    private final Algorithm forced;
    private final int ctas;
    private final boolean windows;

    private SymkModel(Algorithm forced, int ctas, boolean windows) {
        this.forced = forced;
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
        if (!k.isEmpty() && !k.equals("^")) {
            for (Algorithm a : KERNELS) if (a.ncclName().equals(k)) forced = a;
            if (forced == null) {
                List<String> valid = new ArrayList<>();
                for (Algorithm a : KERNELS) valid.add(a.ncclName());
                boolean known = NOT_IMPLEMENTED.contains(k);
                throw new NcclEnvException(NCCL_SYM_KERNEL, k, k, valid, known
                        ? "NCCL's kernel " + k + " is not implemented in ccsim" : "not a symmetric kernel name");
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
        return new SymkModel(forced, ctas, windows);
    }

    /** A symmetric kernel NCCL runs: the kernel, its blocks and the model's time, µs. */
    public record Choice(Algorithm kernel, int blocks, double timeUs, String note) { }

    /**
     * NCCL's symmetric kernel for the call {@code in} describes (its op, nccl-tests size, ranks, nodes, type,
     * reduction and NVLS graph) on GPUs of compute capability {@code cc}, or why none runs (NCCL then takes its
     * normal tuner).
     */
    public Result pick(TuneInput in, int cc, boolean p2pDisabled, boolean nvlsEnabled) {
        CollectiveOp op = in.op();
        if (!windows) return Result.none("NCCL_WIN_ENABLE=0: no symmetric windows");
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
            if (k == Algorithm.SYM_AR_ONE_SHOT && busBytes >= LL_LIMIT) continue;
            Choice c = blocks(k, n, nBytes);
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
        String note = cc >= 100 ? "sm" + cc + ": sm90's symmetric-kernel constants (Blackwell's are not modelled)" : "";
        return Result.of(new Choice(best.kernel(), best.blocks(), best.timeUs(), note));
    }

    /** The kernel's block count (the fewest within 2.5 % of the most's time) and its time. */
    private Choice blocks(Algorithm k, int n, long nBytes) {
        int max = SymmetricSupport.multimem(k) ? (16 + n - 1) / n : MAX_BLOCKS;
        int min = 1;
        if (ctas > 0) {
            min = ctas;
            max = ctas;
        }
        double tMax = timeUs(k, n, nBytes, max);
        int b = min;
        while (b < max && timeUs(k, n, nBytes, b) > 1.025 * tMax) b++;
        return new Choice(k, b, timeUs(k, n, nBytes, b), "");
    }

    /** NCCL's model time of kernel {@code k} on {@code blocks} blocks, µs (sm90 constants). */
    public static double timeUs(Algorithm k, int n, long nBytes, int blocks) {
        boolean ll = k == Algorithm.SYM_AR_ONE_SHOT;
        boolean ar = SymmetricSupport.opOf(k) == CollectiveOp.ALL_REDUCE;
        double baseLat = ll ? 4.5 : 7.8;
        double smBw = ar ? 65 : 44;
        double peak = k == Algorithm.SYM_AR_MULTIMEM ? 480 : 320;
        double mult = 1;
        double busBytes;
        switch (k) {
            case SYM_AR_ONE_SHOT: busBytes = (double) n * nBytes * 9; break;
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
                forced == null ? "any" : forced.ncclName(), ctas, windows);
    }
}
