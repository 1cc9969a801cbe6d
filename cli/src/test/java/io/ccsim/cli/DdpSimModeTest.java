package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code ddp --sim-mode folded|extrapolated|auto}: a training step's collectives timed on clusters of any size. */
class DdpSimModeTest {
    private static final String[] STEP = {"ddp", "--topology", "hgx-h100", "--model", "mlp:L=4,d=2048,tokens=8192",
        "--tflops", "400", "--format", "json"};

    private static JsonObject run(String... more) {
        String[] args = java.util.Arrays.copyOf(STEP, STEP.length + more.length);
        System.arraycopy(more, 0, args, STEP.length, more.length);
        CliTest.Result r = CliTest.run(args);
        assertThat(r.code()).as(r.err()).isZero();
        return JsonParser.parseString(r.out()).getAsJsonObject();
    }

    /** bytes to the collective's JSON object. */
    private static Map<Long, JsonObject> collectives(JsonObject doc) {
        Map<Long, JsonObject> out = new HashMap<>();
        for (JsonElement e : doc.getAsJsonArray("collectives")) {
            JsonObject c = e.getAsJsonObject();
            out.put(c.get("bytes").getAsLong(), c);
        }
        return out;
    }

    /**
     * 128 HGX H100 nodes (1,024 GPUs), where both run: each bucket's all-reduce extrapolated (TREE, samples on 32 and
     * 64 nodes) is within its law's bound of the folded simulation of all 1,024 GPUs, at the same choice; the iteration
     * follows to within the same bound; and it is the row {@code perf --sim-mode extrapolated} gives for that size.
     */
    @Test
    void extrapolatedBucketsAreWithinTheLawOfTheFoldedOnesAndArePerfsRows() {
        JsonObject folded = run("--nodes", "128");
        JsonObject read = run("--nodes", "128", "--sim-mode", "extrapolated");
        assertThat(folded.get("sim_mode").getAsString()).isEqualTo("folded");
        assertThat(read.get("sim_mode").getAsString()).isEqualTo("extrapolated");
        Map<Long, JsonObject> f = collectives(folded);
        Map<Long, JsonObject> x = collectives(read);
        assertThat(x.keySet()).hasSize(2).isEqualTo(f.keySet());
        for (Map.Entry<Long, JsonObject> e : x.entrySet()) {
            JsonObject c = e.getValue();
            JsonObject sim = f.get(e.getKey());
            assertThat(sim.get("found_by").getAsString()).isEqualTo("folded");
            assertThat(c.get("found_by").getAsString()).isEqualTo("extrapolated");
            assertThat(c.get("law").getAsString()).isEqualTo("TREE");
            assertThat(c.getAsJsonArray("samples_nodes").toString()).isEqualTo("[32,64]");
            assertThat(c.get("algo").getAsString() + c.get("proto").getAsString() + c.get("channels").getAsInt())
                    .isEqualTo(sim.get("algo").getAsString() + sim.get("proto").getAsString() + sim.get("channels").getAsInt());
            double us = c.get("time_us").getAsDouble();
            double bound = c.get("error_bound_pct").getAsDouble();
            assertThat(100 * Math.abs(us / sim.get("time_us").getAsDouble() - 1)).as("%d B", e.getKey())
                    .isLessThanOrEqualTo(bound);
            CliTest.Result perf = CliTest.run("perf", "--topology", "hgx-h100", "--nodes", "128", "--op", "all_reduce",
                    "-b", e.getKey().toString(), "-e", e.getKey().toString(), "--sim-mode", "extrapolated", "--format", "json");
            assertThat(perf.code()).as(perf.err()).isZero();
            JsonObject row = JsonParser.parseString(perf.out()).getAsJsonArray().get(0).getAsJsonObject();
            assertThat(Math.abs(row.get("time_us").getAsDouble() - us)).as("%d B", e.getKey()).isLessThan(1e-3);
        }
        double simulated = folded.getAsJsonObject("step").get("iteration_ms").getAsDouble();
        double extrapolated = read.getAsJsonObject("step").get("iteration_ms").getAsDouble();
        assertThat(100 * Math.abs(extrapolated / simulated - 1)).isLessThanOrEqualTo(6.2);
        assertThat(extrapolated).isNotEqualTo(simulated);
    }

    /**
     * 520 nodes of 2 GPUs (1,040 GPUs) under auto, buckets of 4 MiB: NCCL's choice there is Tree/LL128, which the TREE
     * law reads up to 6.8 % off, so auto simulates each distinct all-reduce at the target (folded, exact): the same
     * times as {@code --sim-mode folded}, where the law reads them otherwise.
     */
    @Test
    void autoFoldsTheBucketsWhoseLawMissesTheGoal() {
        String[] small = {"ddp", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "520", "--model",
            "mlp:L=4,d=512,tokens=8192", "--tflops", "400", "--format", "json", "--bucket-cap-mb", "4", "--first-bucket-mb",
            "4", "--sim-mode"};
        Map<Long, JsonObject> auto = collectives(runArgs(concat(small, "auto")));
        Map<Long, JsonObject> folded = collectives(runArgs(concat(small, "folded")));
        Map<Long, JsonObject> read = collectives(runArgs(concat(small, "extrapolated")));
        assertThat(auto.keySet()).isNotEmpty().isEqualTo(folded.keySet());
        for (Map.Entry<Long, JsonObject> e : auto.entrySet()) {
            JsonObject c = e.getValue();
            assertThat(c.get("algo").getAsString() + "/" + c.get("proto").getAsString()).isEqualTo("Tree/LL128");
            assertThat(c.get("found_by").getAsString()).isEqualTo("folded");
            assertThat(c.get("time_us").getAsDouble()).isEqualTo(folded.get(e.getKey()).get("time_us").getAsDouble());
            assertThat(c.get("time_us").getAsDouble()).isNotEqualTo(read.get(e.getKey()).get("time_us").getAsDouble());
        }
    }

    private static JsonObject runArgs(String... args) {
        CliTest.Result r = CliTest.run(args);
        assertThat(r.code()).as(r.err()).isZero();
        return JsonParser.parseString(r.out()).getAsJsonObject();
    }

    private static String[] concat(String[] a, String last) {
        String[] out = java.util.Arrays.copyOf(a, a.length + 1);
        out[a.length] = last;
        return out;
    }

    /**
     * 100,000 GPUs under auto: DDP's all-reduces are extrapolated (the target is never built: the folded run of this
     * cluster needs more heap than a test JVM has), FSDP's ring all-gathers and reduce-scatters, which have no law at
     * 12,500 nodes, are refused by extrapolated in one line before any output.
     */
    @Test
    void autoExtrapolatesDdpAtOneHundredThousandGpusAndExtrapolatedRefusesFsdpsRings() {
        JsonObject doc = run("--nodes", "12500", "--sim-mode", "auto");
        assertThat(doc.get("ranks").getAsInt()).isEqualTo(100_000);
        JsonArray calls = doc.getAsJsonArray("collectives");
        assertThat(calls).isNotEmpty();
        for (JsonElement e : calls) {
            assertThat(e.getAsJsonObject().get("found_by").getAsString()).isEqualTo("extrapolated");
            assertThat(e.getAsJsonObject().get("samples_nodes").getAsJsonArray().get(1).getAsInt()).isLessThan(12500);
        }
        CliTest.Result r = CliTest.run("ddp", "--topology", "hgx-h100", "--model", "mlp:L=2,d=1024,tokens=4096", "--tflops",
                "400", "--nodes", "12500", "--mode", "fsdp", "--sim-mode", "extrapolated");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("ccsim: error: ddp --sim-mode extrapolated: all_gather of ")
                .contains("Ring/LL").contains("valid here: --sim-mode auto");
    }
}
