package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.FitInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fits a calibration profile's simulator numbers to the CudaExecutor's own timings (issue 4's fidelity check):
 * {@code KernelFit --base profile.json --out profile-fitted.json [--rounds 2] [--max-eval 60] [--date D]
 * [--fit-n N] [--sparse] [--blocks REGEX] [--large-weight W] [--criterion MARGIN] timing.json...}. Every row is predicted with the plan that ran ({@link Measurements#kernelTimings}); the
 * error table uses issue 4's size classes (below 1 MiB, from 1 MiB). With {@code --fit-n N} only the rows of
 * n = N ranks are fitted and the other rows are reported apart as held out (out of sample).
 */
public final class KernelFit {
    private KernelFit() {}

    /** Runs the fit; see the class comment for the arguments. */
    public static void main(String[] args) throws IOException {
        Path base = null, out = null;
        int rounds = 2, maxEval = 60, fitN = 0;
        double largeWeight = 1.0;
        Double criterion = null;
        boolean sparse = false;
        java.util.regex.Pattern only = null;
        String date = null;
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--base": base = Path.of(value(args, ++i, a)); break;
                case "--out": out = Path.of(value(args, ++i, a)); break;
                case "--rounds": rounds = Integer.parseInt(value(args, ++i, a)); break;
                case "--max-eval": maxEval = Integer.parseInt(value(args, ++i, a)); break;
                case "--date": date = value(args, ++i, a); break;
                case "--fit-n": fitN = Integer.parseInt(value(args, ++i, a)); break;
                case "--sparse": sparse = true; break;
                case "--blocks": only = java.util.regex.Pattern.compile(value(args, ++i, a)); break;
                case "--large-weight": largeWeight = Double.parseDouble(value(args, ++i, a)); break;
                case "--criterion": criterion = Double.parseDouble(value(args, ++i, a)); break;
                default:
                    if (a.startsWith("--")) {
                        throw new IllegalArgumentException("unknown option " + a + "; valid: --base, --out, --rounds, --max-eval, --date, --fit-n, --sparse, --blocks, --large-weight, --criterion");
                    }
                    files.add(Path.of(a));
            }
        }
        if (base == null || out == null || date == null || files.isEmpty()) {
            throw new IllegalArgumentException("usage: KernelFit --base PROFILE.json --out FILE --date YYYY-MM-DD [--rounds N] [--max-eval N] [--fit-n N] [--sparse] [--blocks REGEX] [--large-weight W] [--criterion MARGIN] TIMING.json...");
        }
        if (criterion != null && !(criterion > 0 && criterion <= 1)) {
            throw new IllegalArgumentException("--criterion " + criterion + ": the margin must be in (0, 1] (the fraction of each group's bound it aims below)");
        }
        java.util.regex.Pattern blocks = only;
        if (blocks != null && ProfileFitter.kernelBlockNames().stream().noneMatch(b -> blocks.matcher(b).matches())) {
            throw new IllegalArgumentException("--blocks " + blocks + " matches no block; blocks: " + ProfileFitter.kernelBlockNames());
        }
        CalibrationProfile start = withCtaSeeds(CalibrationProfile.load(base));
        List<MeasuredRow> rows = new ArrayList<>();
        for (Path f : files) rows.addAll(Measurements.kernelTimings(f));
        int n = fitN;
        List<MeasuredRow> fitRows = n == 0 ? rows : rows.stream().filter(r -> r.n() == n).toList();
        if (fitRows.isEmpty()) throw new IllegalArgumentException("--fit-n " + n + ": no rows with n = " + n);
        ProfileFitter fitter = ProfileFitter.forKernelTimings(System.out, maxEval, sparse ? KernelFit::sparseSize : x -> true)
                .withLargeRowWeight(largeWeight);
        // --criterion: search on issue 4's check itself, each group's median against its bound (ProfileFitter#withGroupCriterion)
        if (criterion != null) fitter.withGroupCriterion(ErrorTable.KERNEL_BOUND_SMALL, ErrorTable.KERNEL_BOUND_LARGE, criterion);
        ProfileFitter.Result r = fitter.fit(start, fitRows, rounds, name -> blocks == null || blocks.matcher(name).matches());
        List<Prediction> all = new FixturePredictor().predictAll(r.profile(), rows);
        ErrorTable table = ErrorTable.of(all, ErrorTable.KERNEL_LARGE_BYTES);
        System.out.print(table.format());
        if (n != 0) {
            List<Prediction> held = all.stream().filter(p -> p.row().n() != n).toList();
            System.out.println("held out (not fitted), n != " + n + ":");
            System.out.print(ErrorTable.of(held, ErrorTable.KERNEL_LARGE_BYTES).format());
        }
        System.out.printf(Locale.ROOT, "loss %.4f over %d rows (fitted on %d)%n", ProfileFitter.loss(all), rows.size(), fitRows.size());
        String objective = criterion != null
                ? "BOBYQA on the squared excess of each group's median error over " + criterion + " x its bound (" + Math.round(100 * ErrorTable.KERNEL_BOUND_SMALL)
                        + " % below 1 MiB, " + Math.round(100 * ErrorTable.KERNEL_BOUND_LARGE) + " % from 1 MiB)"
                        + " plus " + ProfileFitter.CRITERION_TIE + " x the soft-L1 of log(pred/meas) (--criterion)"
                : "BOBYQA on soft-L1 of log(pred/meas)";
        StringBuilder src = new StringBuilder("Fitted by io.ccsim.algorithms.fit.KernelFit (ProfileFitter: " + objective
                + (largeWeight == 1.0 ? "" : ", rows from 1 MiB weighing " + largeWeight + " (--large-weight)") + ", ")
                .append(rounds).append(" rounds, ").append(maxEval).append(" evaluations per block) to the CudaExecutor's graph-replay timings"
                        + " (ccsim's own kernels) on H200 NVSwitch hosts: ");
        for (int i = 0; i < files.size(); i++) src.append(i > 0 ? ", " : "").append(files.get(i));
        src.append(n == 0 ? " (all " + rows.size() + " rows; the errors below are in-sample)" : " (rows with n = " + n + " only)");
        src.append(". Each row predicted with the plan that ran (op, n, algorithm, protocol, channels, bytes on hgx-h200 with n GPUs)."
                + " Fitted: per family and protocol the launch, hop and step latencies and the forwarding unit"
                + " (pipeline_bytes >= 4096); per protocol the thread block's stream costs (sim.cta); NVLink and duplex efficiency. Start: ").append(base).append(" (")
                .append(start.fit().map(FitInfo::source).orElse("no fit section")).append(")");
        ProfileFitter.withFitInfo(r.profile(), table, src.toString(), date).write(out);
        System.out.println("wrote " + out);
    }

    /**
     * Starting thread-block stream costs (ns/KiB: recv, src, dst, send, reduce) for a profile that has none: a
     * least-squares fit of the steady-state work per channel of the ring and chain collectives at 16 MiB, 16
     * channels, n = 2 and 4 (gpu-backend/results/h200x4/timing.json), ignoring latencies and links.
     */
    static final Map<Protocol, CtaCosts> CTA_SEEDS = Map.of(
            Protocol.LL, new CtaCosts(57, 84, 64, 81, 27, CtaCosts.DEFAULT_L2_BYTES, 1.3),
            Protocol.LL128, new CtaCosts(29, 54, 41, 37, 17, CtaCosts.DEFAULT_L2_BYTES, 1.3),
            Protocol.SIMPLE, new CtaCosts(32, 15, 5.5, 46, 14, CtaCosts.DEFAULT_L2_BYTES, 1.3));

    /**
     * {@code p} with {@link #CTA_SEEDS} for each protocol that has no {@code sim.cta} costs; the per-channel
     * limits of such a protocol are lifted to 400 GB/s so that the block's streams and the links set the rate.
     */
    static CalibrationProfile withCtaSeeds(CalibrationProfile p) {
        return withCtaSeeds(p, java.util.EnumSet.allOf(Protocol.class));
    }

    /** As {@link #withCtaSeeds(CalibrationProfile)}, for the protocols of {@code protocols} only. */
    static CalibrationProfile withCtaSeeds(CalibrationProfile p, java.util.Set<Protocol> protocols) {
        CalibrationProfile q = p;
        for (Protocol pr : protocols) {
            if (q.sim().ctaOf(pr) != null) continue;
            SimCosts s = q.sim().withCta(pr, CTA_SEEDS.get(pr));
            for (SimCosts.Family f : SimCosts.Family.values()) s = s.with(f, pr, s.get(f, pr).withMaxChannelBwGbps(400));
            q = q.withSim(s);
        }
        return q;
    }

    /**
     * {@code --sparse}: the sizes the search simulates, 4 KiB × 4^k (every other size of the fidelity sweep's 2× steps,
     * half the rows and under half the simulation time); every row is still scored at the end. {@code --blocks}
     * fits only the blocks whose name matches (e.g. {@code "cta Simple|ring Simple"}).
     */
    static boolean sparseSize(MeasuredRow r) {
        long b = r.bytes();
        return Long.bitCount(b) == 1 && (Long.numberOfTrailingZeros(b) - 12) % 2 == 0;
    }

    private static String value(String[] args, int i, String opt) {
        if (i >= args.length) throw new IllegalArgumentException(opt + " needs a value");
        return args[i];
    }
}
