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
        return of(file, prof, topology, graph.nRanks(), graph.nNodes(), seed);
    }

    /**
     * The provenance of a run of {@code ranks} ranks on {@code nodes} hosts of {@code topology} with the profile
     * {@code prof} (from {@code file}, or built in).
     */
    static Provenance of(Path file, CalibrationProfile prof, Topology topology, int ranks, int nodes, long seed) {
        String builtin = prof.gpu().toLowerCase(Locale.ROOT);
        boolean calibrated = file == null ? CalibrationProfile.builtinCalibration(builtin).startsWith("calibrated")
                : prof.fit().isPresent();
        return new Provenance(BuildInfo.current().label(), CalibrationProfile.NCCL_VERSION, file == null ? builtin : file.toString(),
                calibrated, topology.name(), gpuModel(topology.gpus().get(0)), ranks, nodes, seed);
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

    /** The fields as a JSON object under {@link #COLUMNS}' keys, in that order (the {@code provenance} of a JSON document). */
    JsonObject toJson() {
        JsonObject o = new JsonObject();
        addTo(o);
        return o;
    }

    /**
     * The fields as one line of text for a header, without comment marker: {@code ccsim 0.1.0 (git 00f1ed4), NCCL 2.28.9
     * model, profile h200 (calibrated), topology hgx-h200-4g (H200), 4 ranks on 1 node(s), seed 0}.
     */
    String text() {
        return String.format(Locale.ROOT, "ccsim %s, NCCL %s model, profile %s (%s), topology %s (%s), %d ranks on %d node(s), seed %d",
                ccsimVersion, ncclModel, profile, calibrated ? "calibrated" : "uncalibrated", topology, gpu, ranks, nodes, seed);
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

    /**
     * The JSON document {@code json} (an object) with {@code first}'s members before its own, pretty-printed: how a
     * command puts its provenance at the top of a document another class wrote.
     */
    static String prepend(com.google.gson.JsonObject first, String json) {
        com.google.gson.JsonObject o = first.deepCopy();
        com.google.gson.JsonParser.parseString(json).getAsJsonObject().entrySet().forEach(e -> o.add(e.getKey(), e.getValue()));
        return new com.google.gson.GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(o);
    }
}
