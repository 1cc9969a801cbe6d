package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import io.ccsim.algorithms.profile.CalibrationProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Fits a calibration profile's simulator numbers to NCCL calibration fixtures (tools/nccl-measure's graph-replay
 * timings, read by {@link Measurements#calibrationFixture}): every row is simulated as {@code ccsim perf} would, forced
 * rows with their NCCL_ALGO/NCCL_PROTO, default rows with NCCL's choice by the tuner, on {@code hgx-h200} with the row's
 * n GPUs. Errors use 64 KiB size classes. {@code ccsim fit nccl} runs it.
 */
public final class NcclFit {
    private NcclFit() {}

    /**
     * What to fit and how.
     *
     * @param rounds           rounds of block coordinate descent (0: only score the start)
     * @param maxEvalPerBlock  objective evaluations per block and round (≥ 20)
     * @param cta              protocols to give thread-block stream costs ({@code sim.cta}) where the base has none,
     *                         seeded with the kernel fit's seeds and their per-channel limits lifted to 400 GB/s
     * @param blocks           fit only the blocks whose whole name matches; empty: every block
     * @param minPipelineBytes per protocol, the smallest forwarding unit the fit may choose, bytes, in [1024, 4194304)
     * @param date             the fit section's date (YYYY-MM-DD)
     * @param note             text appended to the fit section's source; empty for none
     */
    public record Options(int rounds, int maxEvalPerBlock, Set<Protocol> cta, Optional<Pattern> blocks,
                          Map<Protocol, Double> minPipelineBytes, String date, String note) {
        public Options {
            cta = cta.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(cta));
            minPipelineBytes = Map.copyOf(minPipelineBytes);
        }
    }

    /**
     * The outcome of a fit.
     *
     * @param profile the fitted profile, with its {@code fit} section (source, date, per-group median errors)
     * @param errors  its error table over every row
     * @param loss    its mean soft-L1 loss of log(predicted / measured) over every row
     * @param rows    the number of rows
     */
    public record Result(CalibrationProfile profile, ErrorTable errors, double loss, int rows) {}

    /** The names of the blocks a fit of {@code base} with {@code cta} seeded has, in order. */
    public static List<String> blockNames(CalibrationProfile base, Set<Protocol> cta) {
        return FitBlocks.nccl(KernelFit.withCtaSeeds(base, cta), Map.of()).stream().map(FitBlock::name).toList();
    }

    /** The parameters a fit of {@code base} with {@code o} adjusts, by name, in block order; empty where no block matches. */
    public static List<String> fittedParameters(CalibrationProfile base, Options o) {
        List<String> fitted = new ArrayList<>();
        for (FitBlock b : FitBlocks.nccl(KernelFit.withCtaSeeds(base, o.cta()), o.minPipelineBytes())) {
            if (matches(o.blocks(), b.name())) {
                for (FitParameter f : b.params()) fitted.add(f.name());
            }
        }
        return fitted;
    }

    /**
     * Fits {@code base} to the graph-replay rows of {@code fixtures}, telling {@code progress} of each block done.
     *
     * @throws IOException              if a fixture cannot be read
     * @throws IllegalArgumentException for a malformed fixture (naming file, row and field), no rows, an option out of
     *                                  its range, or blocks that match no block
     */
    public static Result fit(CalibrationProfile base, List<Path> fixtures, Options o, Consumer<BlockProgress> progress) throws IOException {
        CalibrationProfile start = KernelFit.withCtaSeeds(base, o.cta());
        List<MeasuredRow> rows = Measurements.calibrationFixtures(fixtures);
        ProfileFitter fitter = new ProfileFitter(o.maxEvalPerBlock());
        for (Map.Entry<Protocol, Double> e : o.minPipelineBytes().entrySet()) fitter.withMinPipelineBytes(e.getKey(), e.getValue());
        List<String> fitted = fittedParameters(base, o);
        if (fitted.isEmpty()) {
            throw new IllegalArgumentException("block pattern " + o.blocks().get() + " matches no block; blocks: " + fitter.blockNames(start));
        }
        ProfileFitter.Result r = fitter.fit(start, rows, o.rounds(), name -> matches(o.blocks(), name), progress);
        String source = source(o, fixtures, fitted, start);
        return new Result(FitSection.with(r.profile(), r.errors(), source, o.date()), r.errors(), r.loss(), rows.size());
    }

    private static boolean matches(Optional<Pattern> blocks, String name) {
        return blocks.isEmpty() || blocks.get().matcher(name).matches();
    }

    private static String source(Options o, List<Path> fixtures, List<String> fitted, CalibrationProfile start) {
        StringBuilder src = new StringBuilder("Fitted by io.ccsim.algorithms.fit.ProfileFitter (BOBYQA on soft-L1 of log(pred/meas), ")
                .append(o.rounds()).append(" rounds) to NCCL 2.28.9 graph-replay timings on 4 x H200 NVSwitch: ");
        for (int i = 0; i < fixtures.size(); i++) src.append(i > 0 ? ", " : "").append(fixtures.get(i).getFileName());
        src.append(" (experiments/nccl-h200/, how taken: tools/nccl-measure/README.md). Fitted: ");
        src.append(String.join(", ", fitted)).append(". Only the simulator's numbers (sim section, reduce/copy throughput, link"
                + " efficiency) are fitted; protocols, tree and tuner stay NCCL's constants so that the Tuner chooses as NCCL does (");
        src.append(FitSection.sourceOf(start, "base profile")).append(")");
        if (!o.note().isEmpty()) src.append(". ").append(o.note());
        return src.toString();
    }
}
