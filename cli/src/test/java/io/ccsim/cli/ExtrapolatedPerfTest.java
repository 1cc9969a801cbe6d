package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.scale.ScalingLaw;
import io.ccsim.sim.RunControl;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code perf --sim-mode extrapolated} and {@code auto}: rows of clusters too large to simulate, and what is refused. */
class ExtrapolatedPerfTest {

    private static CliTest.Result withHeap(long heapBytes, Map<String, String> env, String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.execute(args, new PrintWriter(o, true), new PrintWriter(e, true), env,
                new Main.Session(new RunControl(), false, System::nanoTime, heapBytes));
        return new CliTest.Result(code, o.toString(), e.toString());
    }

    /** The data rows of a text output. */
    private static List<String[]> rows(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.trim().split("\\s+")).toList();
    }

    /**
     * Runs {@code common} folded and with {@code --sim-mode extrapolated} under {@code env}, checks that the
     * extrapolated row has the folded row's size, count and choice and its time within {@code law}'s bound, and returns
     * the extrapolated run.
     */
    private static CliTest.Result extrapolatedBesideFolded(Map<String, String> env, String[] common, ScalingLaw law) {
        CliTest.Result folded = CliTest.run(env, common);
        String[] extra = java.util.Arrays.copyOf(common, common.length + 2);
        extra[common.length] = "--sim-mode";
        extra[common.length + 1] = "extrapolated";
        CliTest.Result ex = CliTest.run(env, extra);
        assertThat(ex.code()).as(ex.err()).isZero();
        String[] f = rows(folded.out()).get(0);
        String[] x = rows(ex.out()).get(0);
        assertThat(List.of(x[0], x[1], x[8], x[9], x[10])).isEqualTo(List.of(f[0], f[1], f[8], f[9], f[10]));
        double err = Math.abs(Double.parseDouble(x[5]) / Double.parseDouble(f[5]) - 1);
        assertThat(100 * err).isLessThanOrEqualTo(law.errorBoundPct());
        return ex;
    }

    /**
     * 40 nodes of 2 GPUs, Ring all-gather at 64 MiB (209,712 floats a rank: nccl-tests' 16-byte blocks): the extrapolated
     * row has the folded row's size, count, choice and (within the law's bound) time, and the footer says how it was
     * found; samples of 16 and 32 nodes run the same count per rank.
     */
    @Test
    void anExtrapolatedRowMatchesTheSimulatedOne() {
        String[] common = {"perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "40", "--op", "all_gather", "-b", "64M",
            "-e", "64M"};
        CliTest.Result ex = extrapolatedBesideFolded(Map.of("NCCL_ALGO", "Ring"), common, ScalingLaw.RING);
        assertThat(ex.out()).containsPattern("# ccsim .+ perf \\(extrapolated, NCCL 2.28.9 model\\): all_gather_perf on"
                        + " hgx-h100-2g-40n, nRanks 80 nNodes 40")
                .contains("# mode: extrapolated: not simulated at 40 nodes;")
                .contains("#   law RING: time linear in x = nodes (the ring's length) at the target's bytes per step; simulated"
                        + " on 16, 32 nodes;")
                .containsPattern("#     67107840 B Ring/LL128 x\\d+: [0-9.]+ us \\(16 nodes, 26843136 B\\), [0-9.]+ us \\(32 nodes,"
                        + " 53686272 B\\); T = [0-9.]+ \\+ [0-9.]+ x, x = 40 at 40 nodes");
    }

    /**
     * A chain no longer than its train: 16 nodes of 2 GPUs, a 256 MiB broadcast on Ring/LL x2 (32 ranks, 32,768 units of
     * 4 KiB a channel). TRAIN samples 2, 4 and 8 nodes at 8 and 16 MiB (1,024 and 2,048 units, their bytes costing
     * what the target's do) and reads the plane at the target's 16 nodes and 32,768 units: the folded row's time within
     * the law's bound.
     */
    @Test
    void aTrainLongerThanItsChainMatchesTheSimulatedOne() {
        String[] common = {"perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "16", "--op", "broadcast", "-b",
            "256M", "-e", "256M"};
        CliTest.Result ex = extrapolatedBesideFolded(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL", "NCCL_MAX_NCHANNELS",
                "2"), common, ScalingLaw.TRAIN);
        assertThat(List.of(rows(ex.out()).get(0)).subList(8, 11)).containsExactly("Ring", "LL", "2");
        assertThat(ex.out()).contains("#   law TRAIN: ").contains("simulated on 2, 4, 8 nodes;")
                .containsPattern("#     268435456 B Ring/LL x2: [0-9.]+ us \\(2 nodes, 8388608 B\\), .+ [0-9.]+ us \\(8"
                        + " nodes, 16777216 B\\); T = [0-9.]+ \\+ [0-9.]+ U \\+ [0-9.]+ N, U = 32768 at 16 nodes");
    }

    /**
     * 12,500 HGX nodes do not fit a 1 GiB heap (the topology alone needs about 0.8 GiB live), but their extrapolation
     * builds only the samples' clusters and runs.
     */
    @Test
    void aTargetTooLargeToBuildIsExtrapolatedWithinTheHeap() {
        long heap = 1L << 30;
        String[] folded = {"perf", "--topology", "hgx-h100", "--nodes", "12500", "--op", "all_reduce", "-b", "1M", "-e", "1M"};
        CliTest.Result refused = withHeap(heap, Map.of(), folded);
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).startsWith("ccsim: error: --nodes 12500: the run needs about ")
                .contains("valid here: --nodes <= ").contains(", --sim-mode extrapolated, or more heap: ");
        String[] extra = java.util.Arrays.copyOf(folded, folded.length + 2);
        System.arraycopy(new String[] {"--sim-mode", "extrapolated"}, 0, extra, folded.length, 2);
        CliTest.Result r = withHeap(heap, Map.of(), extra);
        assertThat(r.code()).as(r.err()).isZero();
        String[] row = rows(r.out()).get(0);
        assertThat(row[0]).isEqualTo("1048576");
        assertThat(row[8]).isEqualTo("Tree");
        assertThat(r.out()).contains("nRanks 100000 nNodes 12500").contains("law TREE").contains("simulated on 24, 48 nodes");
    }

    /** auto: folded up to 1,024 GPUs, extrapolated beyond; the footer says which, and that auto chose it. */
    @Test
    void autoChoosesByTheGpuCount() {
        CliTest.Result small = CliTest.run("perf", "--topology", "hgx-h100", "--nodes", "2", "--op", "all_gather", "-b", "1M",
                "-e", "1M", "--sim-mode", "auto");
        assertThat(small.code()).isZero();
        assertThat(small.out()).contains("# mode: folded (exact, --sim-mode auto up to 1024 GPUs)");
        // a 64 KiB broadcast: a ring chain, whose law holds within the goal (trees are simulated at the target: below)
        CliTest.Result large = CliTest.run("perf", "--topology", "hgx-h100", "--gpus", "1", "--nodes", "1100", "--op",
                "broadcast", "-b", "64K", "-e", "64K", "--sim-mode", "auto");
        assertThat(large.code()).as(large.err()).isZero();
        assertThat(large.out()).contains("# mode: extrapolated (--sim-mode auto): not simulated at 1,100 nodes;");
    }

    /**
     * auto beyond 1,024 GPUs where NCCL's choices are trees, which the TREE law reads beyond the scale goals' 2 % (520
     * nodes of 2 GPUs: Tree/LL128 at 4 MiB 327.6 µs extrapolated, 345.8 simulated; NVLSTree at 64 MiB): each size is
     * simulated at the target, its row the folded run's and its JSON {@code sim_mode} "folded" with no law and a bound
     * of 0, and the footer says why, with each law's measured error.
     */
    @Test
    void autoSimulatesAtTheTargetTheSizesWhoseLawMissesTheGoal() {
        String[] common = {"perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "520", "--op", "all_reduce", "-b",
            "4M", "-f", "16", "--sim-mode"};
        CliTest.Result folded = CliTest.run(concat(common, "folded", "-e", "64M"));
        CliTest.Result extrapolated = CliTest.run(concat(common, "extrapolated", "-e", "4M"));
        CliTest.Result auto = CliTest.run(concat(common, "auto", "-e", "64M"));
        assertThat(auto.code()).as(auto.err()).isZero();
        String[] f = rows(folded.out()).get(0);
        assertThat(List.of(f[0], f[8], f[9])).containsExactly("4194304", "Tree", "LL128");
        assertThat(rows(folded.out()).get(1)[8]).isEqualTo("NVLSTree");
        assertThat(rows(auto.out())).hasSize(2);
        for (int i = 0; i < 2; i++) assertThat(rows(auto.out()).get(i)).containsExactly(rows(folded.out()).get(i));
        double law = Double.parseDouble(rows(extrapolated.out()).get(0)[5]);
        assertThat(100 * Math.abs(law / Double.parseDouble(f[5]) - 1)).as("the law's miss here").isGreaterThan(2.0);
        assertThat(auto.out()).contains("(folded, NCCL 2.28.9 model)")
                .contains("# simulated 2 sizes at 520 nodes in ")
                .contains("# mode: folded (exact) at 520 nodes for 2 sizes (--sim-mode auto): their laws' measured error"
                        + " exceeds the scale goals' 2 %; at most ")
                .contains("#     4194304 B Tree/LL128 x8: law TREE's measured error for Tree <= 6.80 %")
                .contains("#     67108864 B NVLSTree/Simple x16: law TREE's measured error for NVLSTree <= 8.40 %")
                .doesNotContain("# mode: extrapolated");
        CliTest.Result json = CliTest.run(concat(common, "auto", "-e", "64M", "--format", "json"));
        com.google.gson.JsonArray a = com.google.gson.JsonParser.parseString(json.out()).getAsJsonArray();
        for (int i = 0; i < 2; i++) {
            com.google.gson.JsonObject o = a.get(i).getAsJsonObject();
            assertThat(List.of(o.get("sim_mode").getAsString(), o.get("law").getAsString(),
                    o.get("samples_nodes").getAsString(), o.get("error_bound_pct").getAsString()))
                    .containsExactly("folded", "", "520", "0.00");
            assertThat(o.get("time_us").getAsDouble()).isEqualTo(Double.parseDouble(rows(folded.out()).get(i)[5]),
                    org.assertj.core.api.Assertions.within(0.05));
        }
    }

    /**
     * auto where the target would fold but its folded run does not fit the heap: the size whose law misses the goal is
     * read from the law after all, its bound stated (520 nodes of 2 GPUs at 4 MiB: 327.6 µs, where the folded run gives
     * 345.8).
     */
    @Test
    void autoReadsTheLawWhereTheTargetsFoldedRunDoesNotFit() {
        CliTest.Result r = withHeap(48L << 20, Map.of(), "perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "520",
                "--op", "all_reduce", "-b", "4M", "-e", "4M", "--sim-mode", "auto");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(rows(r.out()).get(0)[5]).isEqualTo("327.6");
        assertThat(r.out()).contains("# mode: extrapolated (--sim-mode auto): not simulated at 520 nodes;")
                .contains("measured error of this law for Tree <= 6.80 %").doesNotContain("# mode: folded (exact) at");
    }

    /**
     * auto beyond 1,024 GPUs on a cluster too small for its law's samples (15 NVL72 racks, 1,080 GPUs: a tree law
     * needs a sample beyond one leaf at half the target) runs folded, as the same rows show, and says why;
     * {@code --sim-mode extrapolated} refuses it naming the node count from which it applies.
     */
    @Test
    void autoSimulatesFoldedWhereTheTargetIsTooSmallForTheLawsSamples() {
        String[] common = {"perf", "--topology", "gb200-nvl72", "--nodes", "15", "--op", "all_reduce", "-b", "1M", "-e", "1M",
            "--sim-mode"};
        CliTest.Result auto = CliTest.run(concat(common, "auto"));
        assertThat(auto.code()).as(auto.err()).isZero();
        assertThat(auto.out()).contains("# mode: folded (exact, --sim-mode auto: too few nodes to extrapolate NCCL's choice): ");
        CliTest.Result folded = CliTest.run(concat(common, "folded"));
        assertThat(rows(auto.out())).hasSize(1);
        assertThat(rows(auto.out()).get(0)).containsExactly(rows(folded.out()).get(0));
        CliTest.Result extrapolated = CliTest.run(concat(common, "extrapolated"));
        assertThat(extrapolated.code()).isNotZero();
        assertThat(extrapolated.err().lines()).singleElement().satisfies(l -> assertThat(l).isEqualTo("ccsim: error: perf"
                + " --sim-mode extrapolated: 15 nodes are too few to extrapolate TREE: it needs a sample beyond one leaf (32"
                + " hosts) at half the target or less; valid: 66 nodes or more, or --sim-mode folded"));
    }

    /**
     * auto beyond 1,024 GPUs where NCCL's choice has no law (a ring across more than 4 leaf groups): the folded run,
     * which the same rows show, where the plan knows the ranks alike; a Simple broadcast between one train and two (2
     * GiB on 6,000 ranks, 4,096 units a channel), whose ranks the plan does not know alike and whose unfolded flows
     * exceed what auto simulates, is refused in one line that says why neither mode serves; a smaller one runs folded;
     * at 1 MiB it is extrapolated.
     */
    @Test
    void autoSimulatesFoldedWhereTheChoiceHasNoLawAndTheRanksFold() {
        String[] common = {"perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "600", "--op", "all_gather", "-b", "1M",
            "-e", "1M", "--sim-mode"};
        CliTest.Result auto = CliTest.run(concat(common, "auto"));
        assertThat(auto.code()).as(auto.err()).isZero();
        assertThat(auto.out()).contains("# mode: folded (exact, --sim-mode auto: NCCL's choice has no scaling law here): 2 of"
                + " 1200 workers");
        CliTest.Result folded = CliTest.run(concat(common, "folded"));
        assertThat(rows(auto.out())).hasSize(1);
        assertThat(rows(auto.out()).get(0)).containsExactly(rows(folded.out()).get(0));
        // NCCL's own choices for these broadcasts are LL128 and LL; Simple and LL128 keep the two kinds of chain
        CliTest.Result chain = CliTest.run(Map.of("NCCL_PROTO", "Simple"), "perf", "--topology", "hgx-h100", "--gpus", "2",
                "--nodes", "3000", "--op", "broadcast", "-b", "2G", "-e", "2G", "--sim-mode", "auto");
        assertThat(chain.code()).isNotZero();
        assertThat(chain.out()).isEmpty();
        assertThat(chain.err().lines()).singleElement().satisfies(l -> assertThat(l)
                .startsWith("ccsim: error: perf --sim-mode auto: broadcast of 2147483648 B on 3000 nodes runs Ring/Simple x8"
                        + " (NCCL's choice there), a chain of 6000 ranks longer than its train (4096 forwarding units per"
                        + " channel) but shorter than two of them")
                .contains("and the folded run would simulate its ranks one by one (no two are known to run the same"
                        + " steps); valid here: --sim-mode folded (every rank simulated, slower), fewer --nodes, or"
                        + " NCCL_ALGO or NCCL_PROTO for a choice with a law"));
        // the same gap at 128 MiB over 2 channels on 600 nodes (1,200 ranks, 1,024 units): 2.5 M flows unfolded, within
        // what auto simulates folded (PerfSizes.AUTO_FOLDED_MAX_FLOWS), so it runs them
        CliTest.Result affordable = CliTest.run(Map.of("NCCL_PROTO", "Simple", "NCCL_MIN_NCHANNELS", "2",
                "NCCL_MAX_NCHANNELS", "2"), "perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "600", "--op",
                "broadcast", "-b", "128M", "-e", "128M", "--sim-mode", "auto");
        assertThat(affordable.code()).as(affordable.err()).isZero();
        assertThat(affordable.out()).contains("# mode: folded (exact, --sim-mode auto: NCCL's choice has no scaling law"
                + " here): no two of the 2400 workers (rank, channel) are equivalent, all simulated");
        CliTest.Result shortTrain = CliTest.run(Map.of("NCCL_PROTO", "LL128"), "perf", "--topology", "hgx-h100", "--gpus",
                "2", "--nodes", "600", "--op", "broadcast", "-b", "1M", "-e", "1M", "--sim-mode", "auto");
        assertThat(shortTrain.code()).as(shortTrain.err()).isZero();
        assertThat(shortTrain.out()).contains("# mode: extrapolated (--sim-mode auto)").contains("law CHAIN");
    }

    /**
     * A run folded by default beyond 1,024 GPUs notes on stderr, once, that auto would extrapolate it where a law
     * serves NCCL's choice (a 1 MiB broadcast on 1,200 GPUs: the chain law); not where none does (all-gather's ring
     * across more than 4 leaf groups), nor where the user chose --sim-mode folded. The rows are the folded run's.
     */
    @Test
    void aDefaultFoldedRunNotesWhatAutoWouldExtrapolate() {
        String[] chain = {"perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "600", "--op", "broadcast", "-b", "1M",
            "-e", "1M"};
        Map<String, String> ll128 = Map.of("NCCL_PROTO", "LL128"); // NCCL's own choice, LL, has no samples that fit here
        CliTest.Result noted = CliTest.run(ll128, chain);
        assertThat(noted.code()).as(noted.err()).isZero();
        assertThat(noted.err().lines()).containsExactly("ccsim: note: perf simulates all 1,200 GPUs folded (exact), which"
                + " may take long where ranks do not fold; --sim-mode auto would extrapolate it from fewer nodes in seconds"
                + " (law CHAIN <= 1.00 %)");
        CliTest.Result chosen = CliTest.run(ll128, concat(concat(chain, "--sim-mode"), "folded"));
        assertThat(chosen.err()).isEmpty();
        assertThat(rows(noted.out())).hasSize(1);
        assertThat(rows(noted.out()).get(0)).containsExactly(rows(chosen.out()).get(0));
        CliTest.Result ring = CliTest.run("perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "600", "--op",
                "all_gather", "-b", "1M", "-e", "1M");
        assertThat(ring.code()).as(ring.err()).isZero();
        assertThat(ring.err()).isEmpty();
    }

    /** auto, no law, and a heap the folded run does not fit: refused in one line naming both. */
    @Test
    void autoRefusesWhereTheChoiceHasNoLawAndTheFoldedRunDoesNotFit() {
        CliTest.Result r = withHeap(24L << 20, Map.of(), "perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes", "600",
                "--op", "all_gather", "-b", "1M", "-e", "1M", "--sim-mode", "auto");
        assertThat(r.code()).isNotZero();
        assertThat(r.err().lines()).singleElement().satisfies(l -> assertThat(l)
                .startsWith("ccsim: error: perf --sim-mode auto: all_gather of ")
                .endsWith(", and the folded run does not fit this heap; valid here: fewer --nodes, or NCCL_ALGO or"
                        + " NCCL_PROTO for a choice with a law"));
    }

    private static String[] concat(String[] a, String last) {
        String[] out = java.util.Arrays.copyOf(a, a.length + 1);
        out[a.length] = last;
        return out;
    }

    @Test
    void whatCannotBeExtrapolatedIsRefusedInOneLine() {
        String[] base = {"perf", "--topology", "hgx-h100", "--nodes", "100", "-b", "1M", "-e", "1M", "--sim-mode", "extrapolated"};
        CliTest.Result sr = CliTest.run(concat(base, "--op", "sendrecv"));
        assertThat(sr.code()).isEqualTo(1);
        assertThat(sr.err()).isEqualTo("ccsim: error: perf --sim-mode extrapolated: sendrecv of 1048576 B on 100 nodes runs"
                + " P2P/Simple x1 (NCCL's choice there), which is not extrapolated: send/recv (each rank to the next) has no"
                + " law: its folded simulation is one connection per rank at any node count; valid here: --sim-mode folded or"
                + " full (at a node count that fits), or NCCL_ALGO or NCCL_PROTO for a choice with a law\n");
        CliTest.Result iters = CliTest.run(concat(base, "--op", "all_reduce", "-n", "5"));
        assertThat(iters.err()).isEqualTo("ccsim: error: -n/--iters 5: --sim-mode extrapolated times one call; valid: 1\n");
        CliTest.Result few = CliTest.run(concat(base, "--op", "all_reduce", "--extrapolate-from", "8,200"));
        assertThat(few.err()).isEqualTo("ccsim: error: perf --sim-mode extrapolated --extrapolate-from: sample of 200 nodes:"
                + " valid are 2 to 99 (below the target's 100 nodes)\n");
        CliTest.Result folded = CliTest.run("perf", "--topology", "hgx-h100", "--nodes", "4", "--op", "all_reduce",
                "--extrapolate-from", "2,3");
        assertThat(folded.code()).isEqualTo(2);
        assertThat(folded.err()).contains("--extrapolate-from applies to --sim-mode extrapolated (or auto beyond 1024 GPUs),"
                + " not to folded");
    }

    /** JSON rows carry the provenance of the target and how the row was found; a what-if fault is refused. */
    @Test
    void jsonRowsSayTheyAreExtrapolatedAndFaultsAreRefused() {
        CliTest.Result r = CliTest.run(Map.of("NCCL_ALGO", "Ring"), "perf", "--topology", "hgx-h100", "--gpus", "2", "--nodes",
                "40", "--op", "all_gather", "-b", "1M", "-e", "1M", "--sim-mode", "extrapolated", "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        com.google.gson.JsonObject o = com.google.gson.JsonParser.parseString(r.out()).getAsJsonArray().get(0).getAsJsonObject();
        assertThat(o.get("topology").getAsString()).isEqualTo("hgx-h100-2g-40n");
        assertThat(o.get("ranks").getAsInt()).isEqualTo(80);
        assertThat(o.get("sim_mode").getAsString()).isEqualTo("extrapolated");
        assertThat(o.get("law").getAsString()).isEqualTo("RING");
        assertThat(o.get("samples_nodes").getAsString()).isEqualTo("16 32");
        // all-gather's samples keep the target's per-rank part (1 MiB / 80 ranks: 13,104 B), so their nccl-tests
        // sizes are that part times 32 and 64 ranks
        assertThat(o.get("samples_bytes").getAsString()).isEqualTo("419328 838656");
        CliTest.Result fault = CliTest.run("perf", "--topology", "hgx-h100", "--nodes", "100", "--op", "all_reduce", "-b", "1M",
                "-e", "1M", "--sim-mode", "extrapolated", "--degrade", "n5.nic3~*=0.1");
        assertThat(fault.code()).isEqualTo(1);
        assertThat(fault.err()).startsWith("ccsim: error: --degrade: --sim-mode extrapolated simulates fewer of the same"
                + " healthy nodes; a degraded or down link makes the run asymmetric");
    }

    /** A topology file may be faulty or uneven: no law of the node count describes it, so it is refused. */
    @Test
    void aTopologyFileIsRefused() throws Exception {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("ccsim-topo", ".json");
        try {
            CliTest.Result json = CliTest.run("topology", "hgx-h200", "--gpus", "2", "--format", "json");
            java.nio.file.Files.writeString(f, json.out());
            CliTest.Result r = CliTest.run("perf", "--topology", f.toString(), "--op", "all_reduce", "-b", "1M", "-e", "1M",
                    "--sim-mode", "extrapolated");
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.err().lines().count()).isEqualTo(1);
            assertThat(r.err()).startsWith("ccsim: error: --sim-mode extrapolated needs a catalog topology (--topology ")
                    .contains("a degraded link makes the run asymmetric").contains("--sim-mode folded or full");
        } finally {
            java.nio.file.Files.deleteIfExists(f);
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
