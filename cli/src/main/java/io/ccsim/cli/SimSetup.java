package io.ccsim.cli;

import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.ProfileException;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.NcclEnvException;
import io.ccsim.topology.Node;
import io.ccsim.topology.Topology;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** Options shared by the commands that simulate: topology, ranks, profile, NCCL environment. */
final class SimSetup {
    private SimSetup() {}

    /**
     * The profile {@code file} names: a profile JSON file, or, where no such file exists, a built-in profile's name
     * ({@link CalibrationProfile#BUILTIN_NAMES}); without it, the built-in one of the topology's GPU model.
     */
    static CalibrationProfile profile(Path file, Topology topo) {
        if (file != null) {
            String key = file.toString().toLowerCase(Locale.ROOT);
            if (CalibrationProfile.BUILTIN_NAMES.contains(key) && !java.nio.file.Files.exists(file)) {
                return CalibrationProfile.builtin(key);
            }
            if (!java.nio.file.Files.exists(file)) {
                throw new UserException("--profile " + file + ": no such file; valid: a profile JSON file or a built-in name, "
                        + String.join(", ", CalibrationProfile.BUILTIN_NAMES));
            }
            try {
                return CalibrationProfile.parse(io.ccsim.topology.input.TextFile.read(file, "profile"), file.toString());
            } catch (ProfileException e) {
                throw new UserException(e.getMessage(), e);
            }
        }
        if (topo.gpus().isEmpty()) throw new UserException("topology " + topo.name() + " has no GPU");
        Node g = topo.gpus().get(0);
        String model = g.attr("model");
        if (model == null) {
            throw new UserException("topology " + topo.name() + " names no GPU model (nvidia-smi topo -m does not print it);"
                    + " valid: --profile " + String.join("|", CalibrationProfile.BUILTIN_NAMES) + ", or import it with 'ccsim"
                    + " topology --from-nvidia-smi FILE --gpu-model MODEL --format json'");
        }
        String key = model.toLowerCase(Locale.ROOT);
        if (!CalibrationProfile.BUILTIN_NAMES.contains(key)) {
            throw new UserException("no built-in calibration profile for GPU model '" + model + "' of topology " + topo.name()
                    + "; built-in: " + String.join(", ", CalibrationProfile.BUILTIN_NAMES) + "; pass --profile FILE|NAME");
        }
        return CalibrationProfile.builtin(key);
    }

    /**
     * How a profile is named in output headers: {@code H100 (built-in, uncalibrated: ...)} for a built-in one, with
     * its calibration, else the GPU and the file.
     */
    static String profileLabel(Path file, CalibrationProfile prof) {
        if (file != null && !(CalibrationProfile.BUILTIN_NAMES.contains(file.toString().toLowerCase(Locale.ROOT))
                && !java.nio.file.Files.exists(file))) {
            return prof.gpu() + " (" + file + ")";
        }
        return prof.gpu() + " (built-in, " + CalibrationProfile.builtinCalibration(prof.gpu().toLowerCase(Locale.ROOT)) + ")";
    }

    /**
     * The header lines for the NCCL_* variables of {@code env}: those ccsim applies, and those it does not model
     * (listed as such, never as applied). No line for an empty group.
     */
    static java.util.List<String> ncclEnvLines(Map<String, String> env) {
        StringBuilder applied = new StringBuilder();
        StringBuilder ignored = new StringBuilder();
        env.keySet().stream().filter(k -> k.startsWith("NCCL_")).sorted().forEach(k ->
                (NcclEnv.honours(k) ? applied : ignored).append(' ').append(k).append('=').append(env.get(k)));
        java.util.List<String> out = new java.util.ArrayList<>();
        if (applied.length() > 0) out.add("# NCCL environment:" + applied);
        if (ignored.length() > 0) out.add("# NCCL variables not modelled (no effect on these numbers):" + ignored);
        if (env.containsKey(NcclEnv.NCCL_TUNER_CONFIG_FILE) && !env.get(NcclEnv.NCCL_TUNER_CONFIG_FILE).isEmpty()) {
            out.add("# tuner plugin: NCCL's example plugin (ext-tuner/example, " + CalibrationProfile.NCCL_VERSION
                    + ") applies " + env.get(NcclEnv.NCCL_TUNER_CONFIG_FILE) + ": first matching row wins; a row's"
                    + " channels -1, or no row, means 1 channel");
        }
        return out;
    }

    /** The NCCL_* variables of {@code env}, parsed with NCCL's grammar. */
    static NcclEnv ncclEnv(Map<String, String> env) {
        try {
            return NcclEnv.parse(env);
        } catch (NcclEnvException | io.ccsim.algorithms.tuner.TunerConfigException e) {
            throw new UserException(e.getMessage(), e);
        }
    }

    /**
     * Refuses sizes whose buffers do not fit the memory of the least GPU among the first {@code ranks} of {@code topo}
     * (its {@code memory_bytes}; no check without it), by nccl-tests' rule ({@link NcclTestsRanks#bufferLimit}): a
     * collective of {@code maxBytes} there could not allocate its send and receive buffers.
     *
     * @throws UserException naming -e, the GPU, its memory and the largest size that fits
     */
    static void checkBuffers(Topology topo, int ranks, long maxBytes) {
        long least = Long.MAX_VALUE;
        Node where = null;
        for (int r = 0; r < ranks && r < topo.gpus().size(); r++) {
            String m = topo.gpus().get(r).attr("memory_bytes");
            if (m != null && Long.parseLong(m) < least) {
                least = Long.parseLong(m);
                where = topo.gpus().get(r);
            }
        }
        if (where == null) return;
        long limit = NcclTestsRanks.bufferLimit(least, false);
        if (maxBytes <= limit) return;
        throw new UserException(String.format(Locale.ROOT, "-e %s: its send and receive buffers (2 x the size) do not fit the %s"
                + " of GPU %s, of which nccl-tests keeps %s for the rest; valid: -e <= %d (%s)", Sizes.human(maxBytes),
                RunBudget.gb(least), where.id(), RunBudget.gb(least - 2 * limit), limit, RunBudget.gb(limit)));
    }

    /** The refusal of -b/-e whose every size is below one element per rank, naming the least size that runs. */
    static UserException nothingToRun(String minBytes, String maxBytes, io.ccsim.algorithms.CollectiveOp cop,
                                      io.ccsim.algorithms.DataType dt, int ranks) {
        long lo = 0;
        long least = 1L << 40;
        while (least - lo > 1) {   // the count grows with the size: the least size of a count >= 1
            long mid = (lo + least) >>> 1;
            if (io.ccsim.algorithms.perf.PerfRunner.countFor(cop, mid, dt, ranks) > 0) least = mid;
            else lo = mid;
        }
        return new UserException("-b " + minBytes + " -e " + maxBytes + ": no size holds one " + dt.ncclTestsName() + " element"
                + (least > dt.bytes() ? " per rank" : "") + " (nccl-tests skips such sizes), so there is nothing to simulate;"
                + " valid: -e >= " + least + " for " + cop + " of " + dt.ncclTestsName() + " on " + ranks + " ranks");
    }

    /** nccl-tests' sizes from -b, -e and -f (factor) or -i (increment). */
    static long[] sizes(long min, long max, Long factor, Long step) {
        if (min < 0 || max < min) throw new UserException("-b/-e: need 0 <= minBytes <= maxBytes, got -b " + min + " -e " + max);
        if (factor != null && step != null) throw new UserException("-f and -i are exclusive: give a step factor or a step increment");
        java.util.List<Long> out = new java.util.ArrayList<>();
        if (step != null) {
            if (step <= 0) throw new UserException("-i: the step increment must be > 0, got " + step);
            for (long s = min; s <= max; s += step) {
                out.add(s);
                if (out.size() > 100_000) throw new UserException("-i " + step + " gives more than 100000 sizes");
            }
        } else {
            long f = factor == null ? 2 : factor;
            if (f < 2) throw new UserException("-f: the step factor must be >= 2, got " + f);
            long s = Math.max(min, 1);
            if (min == 0) out.add(0L);
            for (; s <= max; s = s > Long.MAX_VALUE / f ? Long.MAX_VALUE : s * f) {
                out.add(s);
                if (s == Long.MAX_VALUE) break;
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
