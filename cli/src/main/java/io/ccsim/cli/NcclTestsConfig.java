package io.ccsim.cli;

import io.ccsim.algorithms.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * nccl-tests' flags ({@link NcclTestsFlags}) read as nccl-tests reads them (src/common.cu {@code main} at
 * NVIDIA/nccl-tests v2.19.6): integers as {@code strtol(s, NULL, 0)} does, sizes as {@code parsesize}, the sizes of
 * the sweep as {@code TimeTest}'s loop. Where nccl-tests falls back silently (an unknown type or op becomes float or
 * sum) or loops forever (a step of 0), this is an error naming the flag.
 *
 * @param nThreads      {@code -t}
 * @param nGpus         {@code -g}
 * @param minBytes      {@code -b}, bytes
 * @param maxBytes      {@code -e}, bytes
 * @param stepBytes     {@code -i}, bytes
 * @param stepFactor    {@code -f}; above 1 the sizes multiply by it, else {@code stepBytes} is added
 * @param iters         {@code -n}, at least 1
 * @param aggIters      {@code -m}, at least 1
 * @param warmupIters   {@code -w}
 * @param runCycles     {@code -N}; 0 is nccl-tests' "infinite"
 * @param parallelInit  {@code -p}
 * @param check         {@code -c}
 * @param ops           {@code -o}: nccl-tests' reduction names in its order ({@code all}: every one)
 * @param types         {@code -d}: the types in nccl-tests' order ({@code all}: every one; fp8 is left to the caller,
 *                      which knows the GPU)
 * @param allTypes      whether {@code -d all} was given
 * @param root          {@code -r}; -1: every rank in turn (broadcast, reduce)
 * @param blocking      {@code -z}
 * @param cudaGraph     {@code -G}
 * @param cpuTime       {@code -C 1}
 * @param outputFile    {@code -J}, or null
 * @param localRegister {@code -R}
 * @param unalign       {@code -u}
 * @param perIterTiming {@code -I}
 * @param perIterSkip   {@code -K}
 * @param noEffect      the flags given on the command line that change nothing in a simulation, each with why
 */
record NcclTestsConfig(int nThreads, int nGpus, long minBytes, long maxBytes, long stepBytes, long stepFactor, int iters,
                       int aggIters, int warmupIters, int runCycles, int parallelInit, int check, List<String> ops,
                       List<DataType> types, boolean allTypes, int root, int blocking, int cudaGraph, boolean cpuTime,
                       String outputFile, int localRegister, int unalign, int perIterTiming, int perIterSkip,
                       List<String> noEffect) {

    /** nccl-tests' reduction names ({@code test_opnames}), in its order. */
    static final List<String> OPS = List.of("sum", "prod", "max", "min", "avg", "mulsum");

    /** nccl-tests' type names ({@code test_typenames}, NCCL ≥ 2.24 with bfloat16 and fp8), in its order. */
    static final List<DataType> TYPES = List.of(DataType.INT8, DataType.UINT8, DataType.INT32, DataType.UINT32, DataType.INT64,
            DataType.UINT64, DataType.FLOAT16, DataType.FLOAT32, DataType.FLOAT64, DataType.BFLOAT16, DataType.FP8_E4M3,
            DataType.FP8_E5M2);

    /** The most sizes one sweep may have. */
    static final int MAX_SIZES = 100_000;

    /**
     * Reads {@code f}; {@code given} tells whether a flag (by its short name, {@code "-w"}) was on the command line.
     *
     * @throws UserException naming the flag, the value and what is valid
     */
    static NcclTestsConfig of(NcclTestsFlags f, Predicate<String> given) {
        int t = positive("-t/--nthreads", f.nThreads);
        int g = positive("-g/--ngpus", f.nGpus);
        long min = size("-b/--minbytes", f.minBytes);
        long max = size("-e/--maxbytes", f.maxBytes);
        if (min > max) throw new UserException("invalid sizes for 'minbytes' and 'maxbytes': " + min + " > " + max);
        long step = size("-i/--stepbytes", f.stepBytes);
        long factor = integer("-f/--stepfactor", f.stepFactor);
        int iters = positive("-n/--iters", f.iters);
        int agg = positive("-m/--agg_iters", f.aggIters);
        int warmup = (int) integer("-w/--warmup_iters", f.warmupIters);
        int cycles = (int) integer("-N/--run_cycles", f.runCycles);
        if (cycles < 0) throw new UserException("-N/--run_cycles: invalid " + cycles + "; valid: a cycle count >= 1, or 0 (infinite)");
        List<String> ops = ops(f.op);
        boolean allTypes = f.datatype.trim().equals("all");
        List<DataType> types = allTypes ? TYPES : List.of(type(f.datatype));
        int root = (int) integer("-r/--root", f.root);
        int register = (int) integer("-R/--local_register", f.localRegister);
        if (register < 0 || register > 2) {
            throw new UserException("-R/--local_register: invalid " + register + "; valid: 0 (none), 1 (local registration), 2 (symmetric windows)");
        }
        int perIter = (int) integer("-I/--per_iter_timing", f.perIterTiming);
        String out = f.outputFile;
        NcclTestsConfig c = new NcclTestsConfig(t, g, min, max, step, factor, iters, agg, warmup, cycles,
                (int) integer("-p/--parallel_init", f.parallelInit), (int) integer("-c/--check", f.check), ops, types, allTypes, root,
                (int) integer("-z/--blocking", f.blocking), (int) integer("-G/--cudagraph", f.cudaGraph),
                integer("-C/--report_cputime", f.reportCpuTime) != 0, out, register, (int) integer("-u/--unalign", f.unalign),
                perIter, (int) integer("-K/--per_iter_skip", f.perIterSkip), List.of());
        return c.withNoEffect(noEffect(f, given));
    }

    private NcclTestsConfig withNoEffect(List<String> notes) {
        return new NcclTestsConfig(nThreads, nGpus, minBytes, maxBytes, stepBytes, stepFactor, iters, aggIters, warmupIters, runCycles,
                parallelInit, check, ops, types, allTypes, root, blocking, cudaGraph, cpuTime, outputFile, localRegister, unalign,
                perIterTiming, perIterSkip, List.copyOf(notes));
    }

    /** The flags given that a simulation does not model, each as {@code -w 5 (warm-up)}. */
    private static List<String> noEffect(NcclTestsFlags f, Predicate<String> given) {
        List<String> out = new ArrayList<>();
        note(out, given, "-w", f.warmupIters, "warm-up");
        note(out, given, "-c", f.check, "data check: no data is moved");
        note(out, given, "-p", f.parallelInit, "parallel init");
        note(out, given, "-z", f.blocking, "blocking");
        note(out, given, "-y", f.streamNull, "NULL stream");
        note(out, given, "-T", f.timeout, "timeout");
        note(out, given, "-G", f.cudaGraph, "CUDA graphs: no host launch cost is simulated anyway");
        note(out, given, "-C", f.reportCpuTime, "CPU time: the simulated time");
        note(out, given, "-S", f.reportTimestamps, "timestamps: not printed");
        note(out, given, "-a", f.average, "every rank's time is the last rank's");
        if (given.test("-R") && !f.localRegister.trim().equals("2")) out.add("-R " + f.localRegister.trim() + " (only 2 changes NCCL's choice)");
        note(out, given, "-x", f.ctaPolicy, "CTA policy: not modelled");
        note(out, given, "-D", f.deviceImplementation, "device-API kernels: NCCL's own simulated");
        note(out, given, "-V", f.deviceCtaCount, "device-API CTAs");
        note(out, given, "-M", f.memory, "memory report: not modelled");
        note(out, given, "-u", f.unalign, "misalignment");
        note(out, given, "-I", f.perIterTiming, "per-iteration columns: not printed");
        note(out, given, "-K", f.perIterSkip, "per-iteration skip");
        return out;
    }

    private static void note(List<String> out, Predicate<String> given, String flag, String value, String why) {
        if (given.test(flag)) out.add(flag + " " + value.trim() + " (" + why + ")");
    }

    /**
     * The sizes of one sweep, as nccl-tests' {@code TimeTest} loops: from {@code -b} while at most {@code -e}, times
     * {@code -f} where it is above 1, else plus {@code -i}.
     *
     * @throws UserException where the loop would not end (a step of 0, or size 0 multiplied) or has more than
     *                       {@link #MAX_SIZES} sizes
     */
    long[] sizes() {
        boolean byFactor = stepFactor > 1;
        if (!byFactor && stepBytes <= 0) {
            throw new UserException("-f " + stepFactor + " and -i " + stepBytes + ": the sizes would not grow (nccl-tests loops forever);"
                    + " valid: -f 2 or more, or -i 1 or more");
        }
        if (byFactor && minBytes == 0) {
            throw new UserException("-b 0 with -f " + stepFactor + ": 0 times a factor stays 0 (nccl-tests loops forever); valid: -b 1 or"
                    + " more, or -i STEP instead of -f");
        }
        List<Long> out = new ArrayList<>();
        for (long s = minBytes; s <= maxBytes; ) {
            out.add(s);
            if (out.size() > MAX_SIZES) throw new UserException("-b/-e/-f/-i give more than " + MAX_SIZES + " sizes");
            long next = byFactor ? (s > Long.MAX_VALUE / stepFactor ? Long.MAX_VALUE : s * stepFactor)
                    : (s > Long.MAX_VALUE - stepBytes ? Long.MAX_VALUE : s + stepBytes);
            if (next == Long.MAX_VALUE && s == Long.MAX_VALUE) break;
            s = next;
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** Back-to-back calls each row's time is the mean of: {@code -n × -m}. */
    int calls() {
        return Math.multiplyExact(iters, aggIters);
    }

    /** {@code strtol(s, NULL, 0)} of the whole text: decimal, {@code 0x} hex, or octal with a leading 0. */
    static long integer(String flag, String text) {
        String s = text.trim();
        boolean neg = s.startsWith("-");
        String digits = neg || s.startsWith("+") ? s.substring(1) : s;
        try {
            long v;
            if (digits.startsWith("0x") || digits.startsWith("0X")) v = Long.parseLong(digits.substring(2), 16);
            else if (digits.length() > 1 && digits.startsWith("0")) v = Long.parseLong(digits.substring(1), 8);
            else v = Long.parseLong(digits);
            return neg ? -v : v;
        } catch (NumberFormatException e) {
            throw new UserException(flag + ": invalid '" + text + "'; valid: an integer (decimal, 0x hex, or 0-prefixed octal)");
        }
    }

    private static int positive(String flag, String text) {
        long v = integer(flag, text);
        if (v < 1 || v > Integer.MAX_VALUE) throw new UserException(flag + ": invalid " + v + "; valid: 1 or more");
        return (int) v;
    }

    /** nccl-tests' {@code parsesize}: a number (decimals allowed) and an optional K, M or G (powers of 1024). */
    static long size(String flag, String text) {
        String s = text.trim();
        int end = 0;
        while (end < s.length() && (Character.isDigit(s.charAt(end)) || s.charAt(end) == '.')) end++;
        double units = 1;
        String rest = s.substring(end).trim();
        if (!rest.isEmpty()) {
            switch (Character.toUpperCase(rest.charAt(0))) {
                case 'K': units = 1L << 10; break;
                case 'M': units = 1L << 20; break;
                case 'G': units = 1L << 30; break;
                default: units = -1;
            }
            if (rest.length() > 1 && !rest.substring(1).equalsIgnoreCase("B") && !rest.substring(1).equalsIgnoreCase("iB")) units = -1;
        }
        double v;
        try {
            v = Double.parseDouble(s.substring(0, end));
        } catch (NumberFormatException e) {
            v = -1;
        }
        if (units < 0 || v < 0 || v * units > 0x1p62) {
            throw new UserException("invalid size specified for '" + flag + "': '" + text + "'; valid: a number of bytes with an optional"
                    + " K, M or G (powers of 1024), e.g. 8, 64K, 1.5M, 1G");
        }
        return (long) (v * units);
    }

    private static List<String> ops(String text) {
        String s = text.trim();
        if (s.equals("all")) return OPS;
        if (!OPS.contains(s)) {
            throw new UserException("-o/--op: invalid reduction '" + text + "'; valid: " + String.join(", ", OPS) + ", all");
        }
        return List.of(s);
    }

    private static DataType type(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        for (DataType d : TYPES) if (d.ncclTestsName().equals(s)) return d;
        throw new UserException("-d/--datatype: invalid type '" + text + "'; valid: "
                + String.join(", ", TYPES.stream().map(DataType::ncclTestsName).toList()) + ", all");
    }
}
