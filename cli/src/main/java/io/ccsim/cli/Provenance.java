package io.ccsim.cli;

import com.google.gson.JsonObject;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.topology.Node;
import io.ccsim.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Where the numbers of an output come from, written into every JSON object and CSV row of it, so that a row read back
 * alone still says what produced it.
 *
 * @param ccsimVersion the ccsim build ({@link BuildInfo#label()})
 * @param ncclModel    the NCCL release whose behaviour is modelled ({@link CalibrationProfile#NCCL_VERSION})
 * @param profile      the built-in profile's name ({@code h200}) or the profile file given
 * @param calibrated   whether the profile was fitted to measurements: a built-in one as
 *                     {@link CalibrationProfile#builtinCalibration} says, a file where it records its fit
 * @param topology     the topology's name ({@code hgx-h100-4n})
 * @param gpu          the GPU model of the ranks ({@link #gpuModel})
 * @param ranks        ranks of the communicator
 * @param nodes        hosts the ranks are on
 * @param seed         the simulation seed
 */
record Provenance(String ccsimVersion, String ncclModel, String profile, boolean calibrated, String topology, String gpu,
                  int ranks, int nodes, long seed) {

    /** The CSV columns of {@link #csvValues()}, in order; the JSON keys of {@link #addTo}. */
    static final List<String> COLUMNS = List.of("ccsim_version", "nccl_model", "profile", "calibrated", "topology", "gpu",
            "ranks", "nodes", "seed");

    /**
     * The provenance of a run on {@code graph}'s communicator of {@code topology} with the profile {@code prof} (from
     * {@code file}, or built in).
     */
    static Provenance of(Path file, CalibrationProfile prof, Topology topology, CommGraph graph, long seed) {
        String builtin = prof.gpu().toLowerCase(Locale.ROOT);
        boolean calibrated = file == null ? CalibrationProfile.builtinCalibration(builtin).startsWith("calibrated")
                : prof.fit().isPresent();
        return new Provenance(BuildInfo.current().label(), CalibrationProfile.NCCL_VERSION, file == null ? builtin : file.toString(),
                calibrated, topology.name(), gpuModel(topology.gpus().get(0)), graph.nRanks(), graph.nNodes(), seed);
    }

    /**
     * A GPU's model as NVIDIA names the product: its {@code model} attribute ({@code H200}), {@code GB200} for the B200
     * GPUs of a GB200 NVL72 tray (nodes with a {@code tray}), {@code GPU} where the topology names none.
     */
    static String gpuModel(Node gpu) {
        String model = gpu.attrs().get("model");
        if (model == null) return "GPU";
        return gpu.attrs().containsKey("tray") && model.equals("B200") ? "GB200" : model;
    }

    /** Adds the fields to {@code o} under {@link #COLUMNS}' keys. */
    void addTo(JsonObject o) {
        o.addProperty("ccsim_version", ccsimVersion);
        o.addProperty("nccl_model", ncclModel);
        o.addProperty("profile", profile);
        o.addProperty("calibrated", calibrated);
        o.addProperty("topology", topology);
        o.addProperty("gpu", gpu);
        o.addProperty("ranks", ranks);
        o.addProperty("nodes", nodes);
        o.addProperty("seed", seed);
    }

    /** The fields as CSV values, in {@link #COLUMNS}' order. */
    List<String> csvValues() {
        return List.of(ccsimVersion, ncclModel, profile, Boolean.toString(calibrated), topology, gpu, Integer.toString(ranks),
                Integer.toString(nodes), Long.toString(seed));
    }
}
