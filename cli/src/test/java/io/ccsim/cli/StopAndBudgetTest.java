package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.sim.RunControl;
import io.ccsim.topology.BuildOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A long command stopped in mid-run prints what it has; a run that cannot fit the heap is refused before it starts. */
class StopAndBudgetTest {
    /** A clock 1 s further at every read, so that every progress update draws (no waiting on the wall clock). */
    private static java.util.function.LongSupplier fastClock() {
        long[] t = {0};
        return () -> t[0] += 1_000_000_000L;
    }

    /** Stderr that opens a latch once the progress line shows a match of the regular expression {@code marker}. */
    private static final class Watching extends Writer {
        final StringBuilder text = new StringBuilder();
        final CountDownLatch seen = new CountDownLatch(1);
        final java.util.regex.Pattern marker;

        Watching(String marker) { this.marker = java.util.regex.Pattern.compile(marker); }

        @Override
        public synchronized void write(char[] buf, int off, int len) {
            text.append(buf, off, len);
            if (marker.matcher(text).find()) seen.countDown();
        }

        @Override public void flush() { }

        @Override public void close() { }
    }

    private record Stopped(int code, String out, String err, long stopNanos) { }

    /** Runs {@code args} in a thread and requests a stop for {@code signal} once stderr matches the regex {@code marker}. */
    private static Stopped stopWhenShown(String marker, String signal, String... args) throws Exception {
        RunControl control = new RunControl();
        StringWriter out = new StringWriter();
        Watching err = new Watching(marker);
        AtomicInteger code = new AtomicInteger(-1);
        Thread t = new Thread(() -> code.set(Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), Map.of(),
                new Main.Session(control, false, fastClock(), Runtime.getRuntime().maxMemory()))));
        t.start();
        assertThat(err.seen.await(30, TimeUnit.SECONDS)).as("progress showed '%s': %s", marker, err.text).isTrue();
        long t0 = System.nanoTime();
        control.requestStop(signal);
        t.join(5000);
        long took = System.nanoTime() - t0;
        assertThat(t.isAlive()).as("the run ended after the stop request").isFalse();
        return new Stopped(code.get(), out.toString(), err.text.toString(), took);
    }

    @Test
    void theFoldingsRoutingShowsHowFarItIsAndStops() throws Exception {
        // all-to-all on 32 HGX nodes: the folding routes 1,044,480 connections first (about a second), its part shown
        Stopped s = stopWhenShown("routing [0-9]+ %", "SIGTERM", "perf", "--topology", "hgx-h100", "--nodes", "32", "--op",
                "alltoall", "-b", "1G", "-e", "1G", "--progress");
        assertThat(s.stopNanos()).as("stopped within a second").isLessThan(1_000_000_000L);
        assertThat(s.code()).isEqualTo(143);
        assertThat(s.err()).contains("perf all_to_all 1G (1/1) P2P/Simple x16: routing ");
    }

    @Test
    void perfStoppedInTheSecondSizePrintsTheFirstRowAndExits130() throws Exception {
        // 1 MiB, 2 MiB, ... 16 GiB on 4 x 8 GPUs, one size at a time: minutes in all; stopped once the second size runs
        Stopped s = stopWhenShown(java.util.regex.Pattern.quote("perf all_reduce 2M (2/15)"), "SIGINT", "perf", "--topology", "hgx-h100", "--nodes", "4",
                "--op", "all_reduce", "-b", "1M", "-e", "16G", "--jobs", "1", "--sim-mode", "full", "--progress");
        assertThat(s.stopNanos()).as("stopped within a second").isLessThan(1_000_000_000L);
        assertThat(s.code()).isEqualTo(130);
        assertThat(s.out()).containsPattern("(?m)^ +1048576 +262144 +float +sum")
                .doesNotContain(" 2097152 ")
                .contains("# interrupted by SIGINT: the 1 rows above are complete; not simulated: 2097152, 4194304, 8388608,")
                .contains(", ... (14 sizes)");
        assertThat(s.err()).contains("ccsim: perf stopped by SIGINT: the 1 rows above are complete; not simulated: 2097152,");
    }

    @Test
    void perfStoppedInItsFirstSizeClaimsNoMode() throws Exception {
        // nothing simulated: no row, and no mode line (it would count the workers of no run)
        Stopped s = stopWhenShown(java.util.regex.Pattern.quote("perf all_reduce 1M (1/15)"), "SIGTERM", "perf", "--topology", "hgx-h100",
                "--nodes", "4", "--op", "all_reduce", "-b", "1M", "-e", "16G", "--jobs", "1", "--sim-mode", "full", "--progress");
        assertThat(s.code()).isEqualTo(143);
        assertThat(s.out()).contains("# interrupted by SIGTERM: the 0 rows above are complete; not simulated: 1048576, 2097152,")
                .doesNotContain("# mode:").doesNotContainPattern("(?m)^ +1048576 ");
    }

    @Test
    void perfOnTwoThreadsPrintsEveryRowDoneAndNamesTheOthers() throws Exception {
        // two sizes at once: whichever finished before the stop are printed, the others named, none twice or lost
        // --sim-mode full: every worker simulated, so the 15 sizes take minutes and the stop lands mid-run (folded,
        // the whole run is a few seconds and could end before the stop)
        // the progress line names the lowest size still running: with two at once, 8M may end before 4M and never be
        // shown, so any of the 4th to 7th sizes will do
        Stopped s = stopWhenShown("perf all_reduce (8M \\(4|16M \\(5|32M \\(6|64M \\(7)/", "SIGINT", "perf", "--topology", "hgx-h100", "--nodes", "4",
                "--op", "all_reduce", "-b", "1M", "-e", "16G", "--jobs", "2", "--sim-mode", "full", "--progress");
        assertThat(s.stopNanos()).isLessThan(1_000_000_000L);
        assertThat(s.code()).isEqualTo(130);
        java.util.List<Long> printed = new java.util.ArrayList<>();
        for (String line : s.out().split("\\R")) {
            if (line.matches(" +\\d+ +\\d+ +float.*")) printed.add(Long.parseLong(line.trim().split(" +")[0]));
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("not simulated: ([0-9, ]+)").matcher(s.out());
        assertThat(m.find()).isTrue();
        java.util.List<Long> missing = new java.util.ArrayList<>();
        for (String x : m.group(1).split(", *")) if (!x.isBlank()) missing.add(Long.parseLong(x.trim()));
        assertThat(printed).isNotEmpty().doesNotContainAnyElementsOf(missing).isSorted();
        assertThat(printed.size() + missing.size()).as("out: %s", s.out()).isLessThanOrEqualTo(15);
        assertThat(s.out()).contains("# interrupted by SIGINT: the " + printed.size() + " rows above are complete");
    }

    @Test
    void ddpShowsTheCollectiveItSimulatesAndStops() throws Exception {
        // a step of 24 blocks on 8 x 8 GPUs simulates its distinct all-reduces one by one, each under the status line
        Stopped s = stopWhenShown("ddp: all_reduce [0-9.]+[KMG]? \\(distinct collective 1\\) \\| [0-9]+ % done", "SIGTERM",
                "ddp", "--topology", "hgx-h100", "--nodes", "8", "--model", "mlp:L=24,d=4096,tokens=4096", "--tflops", "400",
                "--progress");
        assertThat(s.stopNanos()).isLessThan(1_000_000_000L);
        assertThat(s.code()).isEqualTo(143);
        assertThat(s.err()).contains("ccsim: stopped by SIGTERM");
    }

    @Test
    void tuneStoppedBySigtermPrintsTheSizesDoneAndExits143() throws Exception {
        Stopped s = stopWhenShown(java.util.regex.Pattern.quote("tune all_reduce 4M (2/"), "SIGTERM", "tune", "--topology", "hgx-h100", "--nodes", "2",
                "--op", "all_reduce", "-b", "1M", "-e", "16G", "-f", "4", "--jobs", "1", "--progress");
        assertThat(s.stopNanos()).isLessThan(1_000_000_000L);
        assertThat(s.code()).isEqualTo(143);
        assertThat(s.out()).containsPattern("(?m)^ +1048576 ")
                .contains("# interrupted by SIGTERM: the 1 sizes above are complete; not simulated: 4194304, 16777216,");
    }

    /** An extrapolated tune stopped in its second size prints the first, says what it left, and exits 143. */
    @Test
    void anExtrapolatedTuneStoppedPrintsTheSizesDone() throws Exception {
        Stopped s = stopWhenShown(java.util.regex.Pattern.quote("tune all_reduce 2M (2/"), "SIGTERM", "tune", "--topology",
                "hgx-h100", "--nodes", "12500", "--op", "all_reduce", "-b", "1M", "-e", "1G", "-f", "2", "--sim-mode",
                "extrapolated", "--jobs", "1", "--progress");
        assertThat(s.stopNanos()).isLessThan(1_000_000_000L);
        assertThat(s.code()).isEqualTo(143);
        assertThat(s.out()).containsPattern("(?m)^ +1048576 ").doesNotContainPattern("(?m)^ +2097152 ")
                .contains("# mode: extrapolated: not simulated at 12,500 nodes")
                .contains("# interrupted by SIGTERM: the 1 sizes above are complete; not simulated: 2097152, 4194304,");
    }

    /**
     * tune beyond 1,024 GPUs notes, before it simulates, that every candidate runs folded on all of them and that
     * --sim-mode auto reads each from fewer nodes; stopped then, before any candidate ran, it says so and exits 143.
     */
    @Test
    void tuneBeyondAutosFoldedLimitNotesWhatAutoWouldDo() throws Exception {
        Stopped s = stopWhenShown(java.util.regex.Pattern.quote("ccsim: note: tune simulates every candidate"), "SIGTERM",
                "tune", "--topology", "hgx-h100", "--nodes", "129", "--op", "all_reduce", "-b", "1G", "-e", "1G", "--jobs", "1");
        assertThat(s.code()).as(s.err() + s.out()).isEqualTo(143);   // stopped before any candidate ran: said so
        assertThat(s.err()).contains("ccsim: tune stopped by SIGTERM: the 0 sizes above are complete; not simulated:"
                + " 1073741824 B");
        assertThat(s.err()).contains("ccsim: note: tune simulates every candidate on all 1,032 GPUs folded (exact), which"
                + " may take long where ranks do not fold (trees, chains); --sim-mode auto reads each candidate that has a"
                + " scaling law from fewer nodes in seconds");
    }

    @Test
    void aStopBeforeAnyResultSaysSo() {
        RunControl control = new RunControl();
        control.requestStop("SIGTERM");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"topology", "hgx-h100", "--nodes", "2"}, new PrintWriter(out, true),
                new PrintWriter(err, true), Map.of(), new Main.Session(control, false, System::nanoTime, 1L << 30));
        assertThat(code).isEqualTo(143);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).isEqualTo("ccsim: stopped by SIGTERM before any result" + System.lineSeparator());
    }

    private static CliTest.Result withHeap(long heapBytes, String... args) {
        return withHeap(heapBytes, Map.of(), args);
    }

    private static CliTest.Result withHeap(long heapBytes, Map<String, String> env, String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.execute(args, new PrintWriter(o, true), new PrintWriter(e, true), env,
                new Main.Session(new RunControl(), false, System::nanoTime, heapBytes));
        return new CliTest.Result(code, o.toString(), e.toString());
    }

    @Test
    void aClusterTooLargeForTheHeapIsRefusedAtOnceWithTheLargestThatFits() {
        long heap = 512L << 20;
        long t0 = System.nanoTime();
        CliTest.Result r = withHeap(heap, "perf", "--topology", "hgx-h100", "--nodes", "100000", "--op", "all_reduce",
                "-b", "1G", "-e", "1G");
        assertThat(System.nanoTime() - t0).as("refused before building anything").isLessThan(2_000_000_000L);
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines().count()).isEqualTo(1);
        assertThat(r.err()).startsWith("ccsim: error: --nodes 100000: the run needs about ").contains("this JVM has 512 MiB")
                .contains("800,000 GPUs x 16 channels)").doesNotContain("Exception");
        // the largest count it names fits the same estimate, one more does not
        int largest = namedNodes(r);
        RunBudget budget = new RunBudget(heap);
        // where auto would extrapolate (a tree), the folded default run is held to every worker's heap
        assertThat(budget.fits(RunBudget.catalog("hgx-h100", BuildOptions.of(0, largest), 16, 1))).isTrue();
        assertThat(budget.fits(RunBudget.catalog("hgx-h100", BuildOptions.of(0, largest + 1), 16, 1))).isFalse();
        assertThat(RunBudget.channels("hgx-h100", BuildOptions.of(0, 100000), NcclEnv.empty().net())).isEqualTo(16);
    }

    @Test
    void aPlanTooLargeForTheHeapIsRefusedBeforeItIsSimulated() {
        // a heap the GPUs x channels bound fits but the tree's two lanes per channel do not
        BuildOptions o = BuildOptions.of(0, 64);
        long lower = RunBudget.catalog("hgx-h100", o, 16, 1).heapBytes();
        CliTest.Result r = withHeap(lower + (1L << 20), Map.of("NCCL_ALGO", "Tree"), "perf", "--topology", "hgx-h100",
                "--nodes", "64", "--op", "all_reduce", "-b", "64M", "-e", "64M", "--sim-mode", "full");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("ccsim: error: perf all_reduce at 67108864 B (Tree/LL128 x16): the run needs about ")
                .contains("16,384 workers and 16,352 connections").contains("valid here: about --nodes <= ");
    }

    /** The plan NCCL's choice runs for {@code op} of {@code bytes} on {@code nodes} HGX H100 boards, and its topology. */
    private static io.ccsim.algorithms.plan.Plan planOf(io.ccsim.topology.Topology t, io.ccsim.algorithms.CollectiveOp op, long bytes) {
        io.ccsim.algorithms.perf.PerfRunner runner = new io.ccsim.algorithms.perf.PerfRunner(t, t.gpus().size(),
                io.ccsim.algorithms.profile.CalibrationProfile.builtin("h100"), NcclEnv.empty(), 0);
        return runner.plan(op, bytes, io.ccsim.algorithms.DataType.FLOAT32, io.ccsim.algorithms.ReduceOp.SUM, 0);
    }

    @Test
    void aFoldedRunNeedsItsWorkersStateAndWhatItSimulatesNotAFullSimulation() {
        // the tree folds 16 channels a class: a heap too small for the full simulation holds the folded one
        io.ccsim.topology.Topology t = io.ccsim.topology.TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 64));
        io.ccsim.algorithms.plan.Plan plan = planOf(t, io.ccsim.algorithms.CollectiveOp.ALL_REDUCE, 64L << 20);
        long full = RunBudget.plans(t, java.util.List.of(plan), 1).heapBytes();
        long least = RunBudget.plans(t, java.util.List.of(plan), 1, true).heapBytes();
        assertThat(least).as("a folded run's least need").isLessThan(full - (8L << 20));
        long heap = full - (1L << 20);
        CliTest.Result refused = withHeap(heap, "perf", "--topology", "hgx-h100", "--nodes", "64", "--op", "all_reduce",
                "-b", "64M", "-e", "64M", "--sim-mode", "full");
        assertThat(refused.code()).isEqualTo(1);
        CliTest.Result r = withHeap(heap, "perf", "--topology", "hgx-h100", "--nodes", "64", "--op", "all_reduce",
                "-b", "64M", "-e", "64M");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("67108864").contains("Tree").contains("# mode: folded (exact)");
    }

    @Test
    void aFoldedRunWhoseRanksStayApartIsRefusedOnceItsFoldingIsKnownBeforeItSimulates() {
        // a chain's ranks all differ (their distance from the root): the folded run simulates half its workers
        io.ccsim.topology.Topology t = io.ccsim.topology.TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 16));
        io.ccsim.algorithms.plan.Plan plan = planOf(t, io.ccsim.algorithms.CollectiveOp.BROADCAST, 1L << 30);
        long least = RunBudget.plans(t, java.util.List.of(plan), 1, true).heapBytes();
        CliTest.Result r = withHeap(least + (1L << 20), "perf", "--topology", "hgx-h100", "--nodes", "16", "--op", "broadcast",
                "-b", "1G", "-e", "1G");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines().count()).isEqualTo(1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("folded: ([0-9,]+) workers and ([0-9,]+) connections"
                + " simulated").matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        long simulated = Long.parseLong(m.group(1).replace(",", ""));
        long workers = (long) plan.nActors() * plan.nChannels() * plan.nLanes();
        assertThat(simulated).as("ranks simulated of %d", workers).isGreaterThanOrEqualTo(workers / 2).isLessThan(workers);
        assertThat(r.err()).startsWith("ccsim: error: perf broadcast at 1073741824 B (Ring/LL128 x16): the run needs about ")
                .contains(String.format(java.util.Locale.ROOT, "%,d workers and %,d connections, folded", workers,
                        plan.connectionCount())).contains("or more heap: CCSIM_JAVA_OPTS=");
        long need = RunBudget.folded(t, plan, 1, simulated, Long.parseLong(m.group(2).replace(",", "")), 1).heapBytes();
        assertThat(need).isGreaterThan(least + (1L << 20));
    }

    /**
     * An extrapolation's samples are budgeted folded, as they run: on GB200 NVL72 racks a sample of 33 racks is 2,376
     * GPUs of NVLSTree x32, whose every worker simulated would not fit this heap (the 66-rack target was refused so,
     * and 200 racks needed 23.7 GiB), where the folded samples run in a few hundred MB.
     */
    @Test
    void anExtrapolationsSamplesAreBudgetedFoldedAsTheyRun() {
        io.ccsim.topology.Topology t = io.ccsim.topology.TopologyCatalog.build("gb200-nvl72", BuildOptions.of(0, 33));
        io.ccsim.algorithms.perf.PerfRunner runner = new io.ccsim.algorithms.perf.PerfRunner(t, t.gpus().size(),
                io.ccsim.algorithms.profile.CalibrationProfile.builtin("b200"), NcclEnv.empty(), 0);
        io.ccsim.algorithms.plan.Plan plan = runner.plan(io.ccsim.algorithms.CollectiveOp.ALL_REDUCE, 16L << 20,
                io.ccsim.algorithms.DataType.FLOAT32, io.ccsim.algorithms.ReduceOp.SUM, 0);
        assertThat(plan.options().algorithm()).isEqualTo(io.ccsim.algorithms.Algorithm.NVLS_TREE);
        long unfolded = RunBudget.plans(t, java.util.List.of(plan), 1).heapBytes();
        long folded = RunBudget.plans(t, java.util.List.of(plan), 1, true).heapBytes();
        assertThat(folded).isLessThan(unfolded / 2);
        CliTest.Result r = withHeap(unfolded - (1L << 20), "perf", "--topology", "gb200-nvl72", "--nodes", "66", "--op",
                "all_reduce", "-b", "16M", "-e", "16M", "--sim-mode", "extrapolated", "--jobs", "1");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("simulated on 16, 33 nodes").containsPattern("(?m)^ +16777216 .* NVLSTree +Simple +32$");
    }

    @Test
    void aDefaultRunThatAutoWouldExtrapolateIsHeldToEveryWorkersHeapAndOffersExtrapolation() {
        // 1,100 HGX nodes (8,800 GPUs, beyond the 8,192 auto simulates trees at): auto would extrapolate NCCL's
        // NVLSTree (the tree law), so the folded default run is budgeted unfolded; a heap the GPUs x channels bound fits
        // but the NVLSTree's switch actors do not
        BuildOptions o = BuildOptions.of(0, 1100);
        long lower = RunBudget.catalog("hgx-h100", o, 16, 1).heapBytes();
        CliTest.Result r = withHeap(lower + (1L << 20), "perf", "--topology", "hgx-h100", "--nodes", "1100", "--op",
                "all_reduce", "-b", "1G", "-e", "1G");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines()).singleElement().satisfies(l -> assertThat(l)
                .startsWith("ccsim: error: perf all_reduce at 1073741824 B (NVLSTree/Simple x16): the run needs about ")
                .contains("1,689,600 workers and 2,815,744 connections)").doesNotContain("folded").contains(", --sim-mode extrapolated, or more heap: "));
    }

    @Test
    void aHeldDefaultRunOffersTheFoldedRunWhereItsFirstCheckPasses() {
        // 1,100 HGX nodes (8,800 GPUs, beyond the 8,192 auto simulates trees at): held to every worker's heap, the
        // folded run's least need fits 5.2 GiB; on 2 GiB neither fits and only extrapolation is left
        String[] args = {"perf", "--topology", "hgx-h100", "--nodes", "1100", "--op", "all_reduce", "-b", "1G", "-e", "1G"};
        CliTest.Result big = withHeap(5_600_000_000L, args);
        assertThat(big.code()).isEqualTo(1);
        assertThat(big.err().lines()).singleElement().satisfies(l -> assertThat(l)
                .contains("1,689,600 workers and 2,815,744 connections)")
                .contains(", --sim-mode folded (exact; its heap is checked again once its folding is known), --sim-mode"
                        + " extrapolated, or more heap: "));
        CliTest.Result small = withHeap(2L << 30, args);
        assertThat(small.code()).isEqualTo(1);
        assertThat(small.err()).doesNotContain("--sim-mode folded").contains(", --sim-mode extrapolated, or more heap: ");
        // two sizes at once do not fit folded, one does: the offer names --jobs 1 (the 28-size sweep: 38.5 s, 1.6 GB)
        CliTest.Result two = withHeap(5_600_000_000L, "perf", "--topology", "hgx-h100", "--nodes", "1100", "--op",
                "all_reduce", "-b", "512M", "-e", "1G", "--jobs", "2");
        assertThat(two.code()).isEqualTo(1);
        assertThat(two.err()).contains(", --sim-mode folded --jobs 1 (exact; its heap is checked again once its folding"
                + " is known), --sim-mode extrapolated, or more heap: ");
    }

    /** Whether all-to-all of 1 GiB on {@code nodes} HGX H100 boards fits {@code heap} by the budget's estimate. */
    /** The node count a refusal names as the largest that fits ({@code --nodes <= N}). */
    private static int namedNodes(CliTest.Result r) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("--nodes <= ([0-9,]+)").matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        return Integer.parseInt(m.group(1).replace(",", ""));
    }

    private static boolean allToAllFits(long heap, int nodes) {
        io.ccsim.topology.Topology t = io.ccsim.topology.TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
        io.ccsim.algorithms.perf.PerfRunner runner = new io.ccsim.algorithms.perf.PerfRunner(t, t.gpus().size(),
                io.ccsim.algorithms.profile.CalibrationProfile.builtin("h100"), NcclEnv.empty(), 0);
        io.ccsim.algorithms.plan.Plan plan = runner.plan(io.ccsim.algorithms.CollectiveOp.ALL_TO_ALL, 1L << 30,
                io.ccsim.algorithms.DataType.FLOAT32, io.ccsim.algorithms.ReduceOp.SUM, 0);
        return new RunBudget(heap).fits(RunBudget.plans(t, java.util.List.of(plan), 1));
    }

    @Test
    void anAllToAllTooLargeIsRefusedNamingANodeCountThatFits() {
        // every rank talks to every rank: the connections, and the heap, grow with the square of the nodes; a heap that
        // the cluster's pairs fit (GPUs x channels workers) but not the plan's (x 16 lanes), so the plan refuses it
        long heap = 2300L << 20;
        CliTest.Result r = withHeap(heap, "perf", "--topology", "hgx-h100", "--nodes", "128", "--op", "alltoall",
                "-b", "1G", "-e", "1G", "--sim-mode", "full");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().lines().count()).isEqualTo(1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("valid here: about --nodes <= ([0-9,]+), or more heap")
                .matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        int named = Integer.parseInt(m.group(1).replace(",", ""));
        assertThat(allToAllFits(heap, named)).as("%d nodes", named).isTrue();
        assertThat(allToAllFits(heap, named + named / 4 + 1)).as("a quarter more than %d nodes", named).isFalse();
    }

    @Test
    void anAllToAllOnAClusterTooLargeIsRefusedBeforeTheClusterIsBuilt() {
        // 32,768 GPUs: a ring's GPUs x channels fit 5 GiB, every GPU to every other does not; the refusal comes before
        // the cluster is built (it took 23 s to refuse once the plan was known) and names a count whose pairs fit
        long heap = 5L << 30;
        long t0 = System.nanoTime();
        CliTest.Result r = withHeap(heap, "perf", "--topology", "hgx-h100", "--nodes", "4096", "--op", "alltoall",
                "-b", "1G", "-e", "1G");
        assertThat(System.nanoTime() - t0).as("refused before building anything").isLessThan(3_000_000_000L);
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().lines()).singleElement().satisfies(l -> assertThat(l)
                .startsWith("ccsim: error: --nodes 4096: the run needs about ")
                .contains("32,768 GPUs x 16 channels and 1,073,709,056 connections (every GPU to every other)")
                .contains("--sim-mode extrapolated"));
        int largest = namedNodes(r);
        RunBudget budget = new RunBudget(heap);
        // beyond auto's folded limit the default run is held to every worker's heap (not folded)
        assertThat(budget.fits(RunBudget.catalog("hgx-h100", BuildOptions.of(0, largest), 16, 1, false, true))).isTrue();
        assertThat(budget.fits(RunBudget.catalog("hgx-h100", BuildOptions.of(0, largest + 1), 16, 1, false, true))).isFalse();
        // the same cluster for an all-reduce: GPUs x channels, which fit
        assertThat(budget.fits(RunBudget.catalog("hgx-h100", BuildOptions.of(0, 4096), 16, 1, false, false))).isTrue();
    }

    @Test
    void aFoldedAllToAllIsBudgetedAtTheFoldingsPeak() {
        // 128 HGX nodes, 1,047,552 connections (one channel per peer): the run fails at -Xmx600m and completes at 750m;
        // 40 B a connection, what the folded run keeps, would admit it to 512 MiB, where it runs out of heap
        CliTest.Result r = withHeap(512L << 20, "perf", "--topology", "hgx-h100", "--nodes", "128", "--op", "alltoall",
                "-b", "1G", "-e", "1G");
        assertThat(r.code()).as(r.out()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines()).singleElement().satisfies(l -> assertThat(l)
                .startsWith("ccsim: error: perf all_to_all at 1073741824 B (P2P/Simple x16): the run needs about ")
                .contains("1,047,552 connections, folded)").contains("or more heap: "));
    }

    @Test
    void anOutOfMemoryErrorIsOneLineNamingTheHeap() {
        assertThat(HeapWatch.outOfMemory(new RuntimeException(new java.util.concurrent.ExecutionException(
                new OutOfMemoryError("Java heap space"))))).isTrue();
        assertThat(HeapWatch.outOfMemory(new RuntimeException(new IllegalStateException()))).isFalse();
        assertThat(HeapWatch.outOfMemory(5L << 30)).startsWith("stopped by budget before any result: out of heap (all of its 5.0 GiB")
                .endsWith("or more heap: CCSIM_JAVA_OPTS='" + RunBudget.JAVA_OPTS + " -Xmx10g'").doesNotContain("Error");
    }

    @Test
    void theNodeScaleThatFitsSolvesTheQuadraticNeed() {
        RunBudget budget = new RunBudget(RunBudget.BASE_BYTES + 1000);
        org.assertj.core.data.Offset<Double> exact = org.assertj.core.data.Offset.offset(1e-12);
        // 2 x (100 s + 400 s^2) <= 1000: s = 1 (50 bytes of topology, 50 of linear simulation, 400 quadratic)
        assertThat(budget.fittingScale(new RunBudget.Need(50, "", 450, "", 400))).isCloseTo(1.0, exact);
        // all linear: 2 x 1000 s <= 1000 at s = 1/2; all quadratic: 2 x 1000 s^2 <= 1000 at s = 1/sqrt(2)
        assertThat(budget.fittingScale(new RunBudget.Need(500, "", 500, "", 0))).isCloseTo(0.5, exact);
        assertThat(budget.fittingScale(new RunBudget.Need(0, "", 1000, "", 1000))).isCloseTo(Math.sqrt(0.5), exact);
        // no heap beyond the base: nothing fits
        assertThat(new RunBudget(RunBudget.BASE_BYTES).fittingScale(new RunBudget.Need(1, "", 1, "", 0))).isZero();
    }

    @Test
    void twoSizesAtOnceThatDoNotFitAreRefusedNamingTheJobsThatFit() {
        // two 64 MiB-class tree plans at once need twice the simulation; a heap between one and two suggests --jobs 1
        // (NCCL's own choice there is NVLSTree, whose switch actors no GPUs x channels estimate covers)
        BuildOptions o = BuildOptions.of(0, 64);
        long one = RunBudget.catalog("hgx-h100", o, 16, 1).heapBytes();
        long two = RunBudget.catalog("hgx-h100", o, 16, 2).heapBytes();
        CliTest.Result r = withHeap((one + two) / 2, Map.of("NCCL_ALGO", "Tree"), "perf", "--topology", "hgx-h100", "--nodes",
                "64", "--op", "all_reduce", "-b", "32M", "-e", "64M", "--jobs", "2");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("2 simulations at once (--jobs)").contains("valid here: --jobs 1, ");
    }

    @Test
    void aTopologyTooLargeForTheHeapIsRefusedNamingItsNodesAndLinks() {
        CliTest.Result r = withHeap(4L << 30, "topology", "hgx-h100", "--nodes", "100000");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).startsWith("ccsim: error: --nodes 100000: the topology needs about ")
                .contains("this JVM has 4.0 GiB").containsPattern("valid here: --nodes <= [0-9,]+, or more heap");
    }
}
