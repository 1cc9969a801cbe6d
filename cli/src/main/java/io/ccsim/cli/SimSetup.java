package io.ccsim.cli;

import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.ProfileException;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.NcclEnvException;
import io.ccsim.topology.Node;
import io.ccsim.topology.Topology;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** Options shared by the commands that simulate: topology, ranks, profile, NCCL environment. */
final class SimSetup {
    private SimSetup() {}

    /** The profile in {@code file}, or the built-in one of the topology's GPU model. */
    static CalibrationProfile profile(Path file, Topology topo) {
        if (file != null) {
            try {
                return CalibrationProfile.load(file);
            } catch (IOException e) {
                throw new UserException("cannot read profile " + file + ": " + e.getMessage(), e);
            } catch (ProfileException e) {
                throw new UserException(e.getMessage(), e);
            }
        }
        if (topo.gpus().isEmpty()) throw new UserException("topology " + topo.name() + " has no GPU");
        Node g = topo.gpus().get(0);
        String model = g.attr("model");
        String key = model == null ? "" : model.toLowerCase(Locale.ROOT);
        if (!CalibrationProfile.BUILTIN_NAMES.contains(key)) {
            throw new UserException("no built-in calibration profile for GPU model '" + model + "' of topology " + topo.name()
                    + "; built-in: " + String.join(", ", CalibrationProfile.BUILTIN_NAMES) + "; pass --profile FILE");
        }
        return CalibrationProfile.builtin(key);
    }

    /**
     * How a profile is named in output headers: {@code H100 (built-in, uncalibrated: ...)} for a built-in one, with
     * its calibration, else the GPU and the file.
     */
    static String profileLabel(Path file, CalibrationProfile prof) {
        if (file != null) return prof.gpu() + " (" + file + ")";
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
