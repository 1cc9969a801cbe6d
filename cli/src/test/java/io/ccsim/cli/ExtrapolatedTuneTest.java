package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code tune --sim-mode extrapolated} and {@code auto}: every candidate read at a target too large to simulate. */
class ExtrapolatedTuneTest {

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static JsonObject json(CliTest.Result r) {
        assertThat(r.code()).as(r.err()).isZero();
        return JsonParser.parseString(r.out()).getAsJsonObject();
    }

    /** label (Ring/LL) to the candidate's JSON object, of the first size. */
    private static Map<String, JsonObject> candidates(JsonObject doc) {
        Map<String, JsonObject> out = new HashMap<>();
        for (JsonElement e : doc.getAsJsonArray("sizes").get(0).getAsJsonObject().getAsJsonArray("candidates")) {
            JsonObject c = e.getAsJsonObject();
            out.put(c.get("algo").getAsString() + "/" + c.get("proto").getAsString(), c);
        }
        return out;
    }

    /**
     * 40 nodes of 2 GPUs, all-gather at 64 MiB (three ring candidates, RING's samples on 16 and 32 nodes): each cell is
     * the row {@code perf --sim-mode extrapolated} gives for that candidate forced, and within RING's bound of the
     * folded tune's cell; the fastest is the least of them.
     */
    @Test
    void eachCandidateIsWhatPerfExtrapolatesForItAndNearTheSimulatedOne() {
        String[] common = {"tune", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "40", "--op", "all_gather", "-b", "64M",
            "-e", "64M", "--format", "json", "--sim-mode"};
        JsonObject folded = json(CliTest.run(concat(common, "folded")));
        JsonObject extrapolated = json(CliTest.run(concat(common, "extrapolated")));
        assertThat(folded.get("sim_mode").getAsString()).isEqualTo("folded");
        assertThat(extrapolated.get("sim_mode").getAsString()).isEqualTo("extrapolated");
        Map<String, JsonObject> f = candidates(folded);
        Map<String, JsonObject> x = candidates(extrapolated);
        assertThat(x.keySet()).containsExactlyInAnyOrder("Ring/LL", "Ring/LL128", "Ring/Simple").isEqualTo(f.keySet());
        String fastest = null;
        double least = Double.MAX_VALUE;
        for (Map.Entry<String, JsonObject> e : x.entrySet()) {
            JsonObject c = e.getValue();
            assertThat(c.get("law").getAsString()).isEqualTo("RING");
            double bound = c.get("error_bound_pct").getAsDouble();
            double us = c.get("time_us").getAsDouble();
            double sim = f.get(e.getKey()).get("time_us").getAsDouble();
            assertThat(100 * Math.abs(us / sim - 1)).as(e.getKey()).isLessThanOrEqualTo(bound);
            assertThat(c.get("channels").getAsInt()).isEqualTo(f.get(e.getKey()).get("channels").getAsInt());
            String[] ap = e.getKey().split("/");
            CliTest.Result perf = CliTest.run(Map.of("NCCL_ALGO", ap[0], "NCCL_PROTO", ap[1]), "perf", "--topology", "hgx-h100",
                    "--gpus", "2", "--nodes", "40", "--op", "all_gather", "-b", "64M", "-e", "64M", "--sim-mode",
                    "extrapolated", "--format", "json");
            assertThat(perf.code()).as(perf.err()).isZero();
            JsonObject row = JsonParser.parseString(perf.out()).getAsJsonArray().get(0).getAsJsonObject();
            assertThat(row.get("time_us").getAsDouble()).as(e.getKey()).isEqualTo(us);
            if (us < least) {
                least = us;
                fastest = e.getKey();
            }
        }
        assertThat(extrapolated.getAsJsonArray("sizes").get(0).getAsJsonObject().get("fastest").getAsString())
                .isEqualTo(fastest);
        assertThat(extrapolated.getAsJsonArray("not_extrapolated")).isEmpty();
        // nccl-tests' size at the target's ranks (16-byte blocks of 80 ranks), as the folded table's
        assertThat(extrapolated.getAsJsonArray("sizes").get(0).getAsJsonObject().get("bytes").getAsLong())
                .isEqualTo(folded.getAsJsonArray("sizes").get(0).getAsJsonObject().get("bytes").getAsLong())
                .isEqualTo(67_107_840L);
    }

    /**
     * 100,000 GPUs (12,500 HGX nodes) under auto: the trees are read by TREE, the rings (beyond 4 leaf groups) are no
     * cell and are named with why; a close call between the fastest and the runner-up is listed exactly where their
     * gap is below the sum of their bounds. The target is never built (the run fits a 1 GiB heap, which its topology
     * alone would not).
     */
    @Test
    void at100000GpusTheTreesAreReadAndTheRingsNamed() {
        String[] args = {"tune", "--topology", "hgx-h100", "--nodes", "12500", "--op", "all_reduce", "-b", "1M", "-e", "1M",
            "--sim-mode", "auto"};
        CliTest.Result text = CliTest.run(args);
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).contains("# ccsim tune: all_reduce on hgx-h100-12500n (100000 ranks, 12500 node(s));"
                        + " extrapolated time in us")
                .contains("# mode: extrapolated: not simulated at 12,500 nodes; each candidate simulated exactly (folded)"
                        + " on fewer nodes and its scaling law read at 12,500 nodes")
                .containsPattern("#   law TREE \\(Tree/LL, Tree/LL128, Tree/Simple\\): .*; simulated on 24, 48 nodes;"
                        + " measured error <= 6.80 %")
                .containsPattern("#   law TREE \\(NVLSTree/Simple\\): .*; simulated on 24, 48 nodes; measured error <= 8.40 %")
                .contains("# not extrapolated (no cell):")
                .contains("runs Ring/LL128 x16 (a candidate there), a ring, which is extrapolated up to 4 leaf groups");
        String row = text.out().lines().filter(l -> l.startsWith("     1048576")).findFirst().orElseThrow();
        assertThat(row.split("\\s+")).contains("-");
        JsonObject doc = json(CliTest.run(concat(args, "--format", "json")));
        JsonObject size = doc.getAsJsonArray("sizes").get(0).getAsJsonObject();
        JsonArray cands = size.getAsJsonArray("candidates");
        assertThat(cands).allSatisfy(c -> assertThat(c.getAsJsonObject().get("law").getAsString()).isEqualTo("TREE"));
        List<JsonObject> byTime = cands.asList().stream().map(JsonElement::getAsJsonObject)
                .sorted(java.util.Comparator.comparingDouble(c -> c.get("time_us").getAsDouble())).toList();
        double gapPct = 100 * (byTime.get(1).get("time_us").getAsDouble() / byTime.get(0).get("time_us").getAsDouble() - 1);
        double bounds = byTime.get(0).get("error_bound_pct").getAsDouble() + byTime.get(1).get("error_bound_pct").getAsDouble();
        for (JsonObject c : byTime) {
            assertThat(c.get("error_bound_pct").getAsDouble()).as(c.toString())
                    .isEqualTo(c.get("algo").getAsString().equals("NVLSTree") ? 8.4 : 6.8);
        }
        assertThat(doc.getAsJsonArray("fastest_within_error_bounds")).hasSize(gapPct < bounds ? 1 : 0);
        assertThat(doc.getAsJsonArray("not_extrapolated")).extracting(e -> e.getAsJsonObject().get("algo").getAsString())
                .containsOnly("Ring").hasSize(3);
    }

    /**
     * Where no candidate of any size has a law (an all-gather on 1,100 nodes of one GPU: rings beyond 4 leaf groups, PAT),
     * extrapolated refuses in one line, and auto simulates every candidate folded, saying so on stderr: the table is
     * the folded tune's.
     */
    @Test
    void withoutAnyLawAutoSimulatesFoldedAndExtrapolatedRefuses() {
        String[] args = {"tune", "--topology", "hgx-h100", "--gpus", "1", "--nodes", "1100", "--op", "all_gather", "-b", "1M",
            "-e", "1M", "--sim-mode"};
        CliTest.Result refused = CliTest.run(concat(args, "extrapolated"));
        assertThat(refused.code()).isNotZero();
        assertThat(refused.err().lines()).singleElement().satisfies(l -> assertThat(l).startsWith("ccsim: error: tune"
                + " --sim-mode extrapolated: no candidate has a scaling law at 1,100 nodes (all_gather of ")
                .endsWith("; valid here: --sim-mode folded or auto"));
        CliTest.Result auto = CliTest.run(concat(args, "auto"));
        assertThat(auto.code()).as(auto.err()).isZero();
        assertThat(auto.err()).contains("ccsim: note: --sim-mode auto: no candidate has a scaling law at 1,100 nodes");
        assertThat(auto.out()).contains("; simulated time in us").doesNotContain("# mode: extrapolated");
        CliTest.Result folded = CliTest.run(concat(args, "folded"));
        assertThat(auto.out()).isEqualTo(folded.out());
    }

    /** What no law describes is refused in one line naming what is valid; auto falls back to folded there. */
    @Test
    void asymmetricOrSingleNodeTargetsAreRefused() {
        CliTest.Result degraded = CliTest.run("tune", "--topology", "hgx-h100", "--nodes", "4", "--op", "all_reduce", "-b", "1M",
                "-e", "1M", "--degrade", "n1.nic0~leaf.r0.0=0.5", "--sim-mode", "extrapolated");
        assertThat(degraded.code()).isNotZero();
        assertThat(degraded.err().lines()).singleElement().satisfies(l -> assertThat(l).startsWith("ccsim: error: --degrade:"
                + " --sim-mode extrapolated simulates fewer of the same healthy nodes").contains("simulate it with"
                + " --sim-mode folded ("));
        CliTest.Result one = CliTest.run("tune", "--topology", "hgx-h100", "--op", "all_reduce", "-b", "1M", "-e", "1M",
                "--sim-mode", "extrapolated");
        assertThat(one.code()).isNotZero();
        assertThat(one.err().lines()).singleElement().satisfies(l -> assertThat(l).isEqualTo("ccsim: error: --sim-mode"
                + " extrapolated reads a law of the node count from fewer nodes, so it needs --nodes 2 or more (got 1);"
                + " valid here: --sim-mode folded"));
        CliTest.Result auto = CliTest.run("tune", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "-b", "1M",
                "-e", "1M", "--sim-mode", "auto");
        assertThat(auto.code()).as(auto.err()).isZero();
        assertThat(auto.out()).contains("; simulated time in us").doesNotContain("# mode: extrapolated");
    }
}
