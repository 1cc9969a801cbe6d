package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The what-if flags on perf, tune and topology: what they change, what the header says, and one-line refusals. */
class WhatIfCommandTest {

    private static CliTest.Result run(String... args) {
        return CliTest.run(args);
    }

    private static double timeUs(CliTest.Result r) {
        assertThat(r.code()).as(r.err()).isZero();
        JsonArray rows = JsonParser.parseString(r.out()).getAsJsonArray();
        return rows.get(0).getAsJsonObject().get("time_us").getAsDouble();
    }

    @Test
    void aCableAtATenthSlowsTheRunAndTheHeaderSaysSo() {
        String[] base = {"perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "-b", "64M", "-e", "64M"};
        double healthy = timeUs(run(concat(base, "--format", "json")));
        double slow = timeUs(run(concat(base, "--format", "json", "--degrade", "n1.nic3~leaf.r3.0=0.1")));
        assertThat(slow).isGreaterThan(2 * healthy);
        CliTest.Result text = run(concat(base, "--degrade", "leaf.r3.0~n1.nic3=0.1"));
        assertThat(text.out()).contains("# what-if: --degrade leaf.r3.0~n1.nic3=0.1: n1.nic3~leaf.r3.0 at 0.1 of the nominal rate"
                + " (5 GB/s of 50 GB/s per direction)\n");
        assertThat(run(base).out()).doesNotContain("what-if");
    }

    @Test
    void ddpTakesTheSameFlagsAndASlowCableLengthensTheStep() {
        String[] base = {"ddp", "--model", "mlp:L=2,d=2048,tokens=4096", "--tflops", "400", "--topology", "hgx-h100", "--nodes", "2",
            "--bucket-cap-mb", "25", "--format", "json"};
        CliTest.Result healthy = run(base);
        CliTest.Result slow = run(concat(base, "--degrade", "n*.nic*~leaf*=0.1"));
        assertThat(healthy.code()).as(healthy.err()).isZero();
        assertThat(slow.code()).as(slow.err()).isZero();
        JsonObject h = JsonParser.parseString(healthy.out()).getAsJsonObject();
        JsonObject s = JsonParser.parseString(slow.out()).getAsJsonObject();
        assertThat(h.has("what_if")).isFalse();
        assertThat(s.getAsJsonArray("what_if").get(0).getAsString()).startsWith("--degrade n*.nic*~leaf*=0.1: ");
        // every cable at a tenth: the all-reduces, hence the exposed communication and the step, take longer
        assertThat(s.getAsJsonObject("step").get("iteration_ms").getAsDouble())
                .isGreaterThan(h.getAsJsonObject("step").get("iteration_ms").getAsDouble());
        assertThat(run("ddp", "--model", "mlp:L=2,d=64,tokens=64", "--tflops", "100", "--topology", "hgx-h100",
                "--nic-gbps", "200").err()).contains("--nic-gbps");
    }

    @Test
    void foldedAndFullAgreeWithASlowUplinkThatOneReplicaChannelCrosses() {
        String[] base = {"perf", "--topology", "hgx-h100", "--gpus", "1", "--nodes", "40", "--op", "all_reduce", "-b", "64M",
            "-e", "64M", "--format", "json"};
        String[] slow = concat(base, "--degrade", "leaf.r0.0~spine.0=0.1");
        Map<String, String> ring = Map.of("NCCL_ALGO", "Ring");
        double healthy = timeUs(CliTest.run(ring, base));
        double folded = timeUs(CliTest.run(ring, slow));
        double full = timeUs(CliTest.run(ring, concat(slow, "--sim-mode", "full")));
        assertThat(full).as("the uplink is on the ring's path").isGreaterThan(2 * healthy);
        assertThat(folded).isEqualTo(full);
    }

    @Test
    void destinationRoutingIsInTheHeaderAndTheFoldedRunGivesTheFullTime() {
        String[] base = {"perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "40", "--op", "all_reduce", "-b", "4M",
            "-e", "4M", "--routing", "dmodk"};
        double folded = timeUs(run(concat(base, "--format", "json")));
        assertThat(timeUs(run(concat(base, "--format", "json", "--sim-mode", "full")))).isEqualTo(folded);
        assertThat(run(base).out()).contains("# what-if: --routing dmodk: each flow takes the equal path of its destination"
                + " (d-mod-k)\n");
        CliTest.Result bad = run("perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "--routing", "ospf");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("--routing ospf: unknown; valid: ecmp").doesNotContain("Exception");
    }

    @Test
    void fourNicsPerNodeHalveTheNetworkAndTheRatesFollowTheirFlags() {
        String[] base = {"perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_gather", "-b", "256M", "-e", "256M",
            "--format", "json"};
        double eight = timeUs(run(base));
        double four = timeUs(run(concat(base, "--nics-per-node", "4")));
        double slowNics = timeUs(run(concat(base, "--nic-gbps", "200")));
        assertThat(four).isGreaterThan(1.5 * eight);
        assertThat(slowNics).isGreaterThan(1.5 * eight);
        CliTest.Result text = run("perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_gather", "-b", "1M", "-e", "1M",
                "--nics-per-node", "4", "--oversubscription", "2", "--nic-gbps", "800");
        assertThat(text.out()).contains("# what-if: --nics-per-node 4: 4 NICs per node\n")
                .contains("# what-if: --oversubscription 2: leaves with 2 down ports per uplink\n")
                .contains("# what-if: --nic-gbps 800: ");
    }

    @Test
    void tuneSaysWhichWhatIfsItRanInTextAndJson() {
        String[] base = {"tune", "--topology", "hgx-h100", "--gpus", "4", "--op", "all_reduce", "-b", "1M", "-e", "1M",
            "--nvlink-gbps", "13.281"};
        CliTest.Result text = run(base);
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).contains("# what-if: --nvlink-gbps 13.281: ");
        CliTest.Result json = run(concat(base, "--format", "json"));
        JsonObject o = JsonParser.parseString(json.out()).getAsJsonObject();
        assertThat(o.getAsJsonArray("what_if").get(0).getAsString()).startsWith("--nvlink-gbps 13.281: ");
    }

    @Test
    void theTunerFileSaysWhichWhatIfsItWasFoundOn(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path f = dir.resolve("tuner.csv");
        CliTest.Result r = run("tune", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "-b", "1M", "-e", "1M",
                "--degrade", "n1.nic3~leaf.r3.0=0.1", "--tuner-config", f.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(java.nio.file.Files.readString(f))
                .contains("# what-if: --degrade n1.nic3~leaf.r3.0=0.1: n1.nic3~leaf.r3.0 at 0.1 of the nominal rate");
    }

    @Test
    void flagsThatDoNotApplyAreOneLineErrorsNamingTheFlag() {
        String[][] cases = {
            {"--oversubscription 2", "perf", "--topology", "hgx-h100", "--op", "all_reduce", "--oversubscription", "2"},
            {"--nvlink-gbps 50", "perf", "--topology", "pcie-8gpu", "--op", "all_reduce", "--nvlink-gbps", "50"},
            {"--nic-gbps 200", "tune", "--topology", "hgx-h100", "--op", "all_reduce", "--nic-gbps", "200"},
            {"--nics-per-node 3", "perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "--nics-per-node", "3"},
            {"--degrade n1.nic3=0.1", "perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "--degrade", "n1.nic3=0.1"},
            {"--degrade x~y=2", "perf", "--topology", "hgx-h100", "--op", "all_reduce", "--degrade", "x~y=2"},
        };
        for (String[] c : cases) {
            CliTest.Result r = run(java.util.Arrays.copyOfRange(c, 1, c.length));
            assertThat(r.code()).as(c[0]).isEqualTo(1);
            assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
            assertThat(r.err()).startsWith("ccsim: error: " + c[0] + ":").contains("valid").doesNotContain("Exception");
        }
        assertThat(run(java.util.Arrays.copyOfRange(cases[4], 1, cases[4].length)).err()).contains("nearest: n1.nic3~n1.pcie1, n1.nic3~leaf.r3.0");
    }

    @Test
    void aDownCableStopsTheCollectiveWithOneLineNamingTheFlag() {
        CliTest.Result r = run("perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "-b", "1M", "-e", "1M",
                "--down", "n1.nic3~leaf.r3.0");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip().lines().count()).isEqualTo(1);
        assertThat(r.err()).startsWith("ccsim: error: --down n1.nic3~leaf.r3.0: the collective never completes");
    }

    @Test
    void topologyListsTheLinkIdsThatTheFlagsTake() {
        CliTest.Result json = run("topology", "hgx-h100", "--nodes", "2", "--links", "--kind", "ib", "--node", "n1", "--format", "json");
        assertThat(json.code()).as(json.err()).isZero();
        JsonObject o = JsonParser.parseString(json.out()).getAsJsonObject();
        assertThat(o.get("total_links").getAsInt()).isEqualTo(138);
        JsonArray links = o.getAsJsonArray("links");
        assertThat(links).hasSize(8);
        for (var l : links) {
            String id = l.getAsJsonObject().get("id").getAsString();
            CliTest.Result one = run("topology", "hgx-h100", "--nodes", "2", "--links", "--node", "n1", "--degrade", id + "=0.5");
            assertThat(one.out()).contains(id).contains("x0.5");
        }
        CliTest.Result noLinks = run("topology", "hgx-h100", "--kind", "ib");
        assertThat(noLinks.code()).isEqualTo(2);
        assertThat(noLinks.err()).startsWith("ccsim: --kind selects links to list: add --links");
    }

    @Test
    void aTopologyFileTakesTheWhatIfsButNotTheBuildOptions(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path f = dir.resolve("h100x2.json");
        java.nio.file.Files.writeString(f, run("topology", "hgx-h100", "--nodes", "2", "--format", "json").out());
        String[] base = {"perf", "--topology", f.toString(), "--op", "all_reduce", "-b", "64M", "-e", "64M", "--format", "json"};
        String[] catalog = {"perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_reduce", "-b", "64M", "-e", "64M",
            "--format", "json"};
        assertThat(timeUs(run(concat(base, "--degrade", "n1.nic3~leaf.r3.0=0.1"))))
                .isEqualTo(timeUs(run(concat(catalog, "--degrade", "n1.nic3~leaf.r3.0=0.1"))));
        CliTest.Result r = run(concat(base, "--oversubscription", "2"));
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).startsWith("ccsim: error: --oversubscription applies to catalog topologies, not to the file ")
                .contains("valid on a file: the what-if flags");
    }

    @Test
    void theCudaBackendRefusesWhatIfs() {
        CliTest.Result r = run("perf", "--backend", "cuda", "--op", "all_reduce", "--degrade", "a~b=0.5");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("are for the simulated backend");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
