package io.ccsim.cli;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.TunerException;
import io.ccsim.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ccsim perf}: an nccl-tests twin over the simulator. Sizes, counts, algbw and busbw follow
 * nccl-tests' definitions (doc/PERFORMANCE.md); NCCL_* variables come from the environment.
 */
@Command(name = "perf", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulate a collective over a range of sizes, like nccl-tests' *_perf binaries.",
                "NCCL environment variables (NCCL_ALGO, NCCL_PROTO, NCCL_BUFFSIZE, NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS,",
                "NCCL_NTHREADS, NCCL_P2P_DISABLE, NCCL_NVLS_ENABLE) are read from the environment with NCCL's grammar."})
final class PerfCommand implements Callable<Integer>, Main.NeedsEnv {
    enum Format { text, json, csv }

    @Spec CommandSpec spec;
    private Map<String, String> env = Map.of();

    @Option(names = "--topology", required = true, paramLabel = "NAME|FILE", description = "catalog name or topology JSON file")
    String topology;
    @Option(names = "--gpus", paramLabel = "N", description = "GPUs of one board (default: all)")
    int gpus;
    @Option(names = "--nodes", paramLabel = "M", defaultValue = "1", description = "nodes of a cluster (default: ${DEFAULT-VALUE})")
    int nodes;
    @Option(names = "--oversubscription", paramLabel = "X", defaultValue = "1.0", description = "fat-tree oversubscription (default: ${DEFAULT-VALUE})")
    double oversubscription;
    @Option(names = "--profile", paramLabel = "FILE", description = "calibration profile JSON (default: built-in for the GPU model)")
    Path profile;
    @Option(names = "--op", required = true, paramLabel = "OP",
            description = "all_reduce|all_gather|reduce_scatter|broadcast|reduce|all_to_all|sendrecv")
    String op;
    @Option(names = {"-b", "--minbytes"}, defaultValue = "8", paramLabel = "SIZE", description = "smallest size, K/M/G suffixes (default: ${DEFAULT-VALUE})")
    String minBytes;
    @Option(names = {"-e", "--maxbytes"}, defaultValue = "128M", paramLabel = "SIZE", description = "largest size (default: ${DEFAULT-VALUE})")
    String maxBytes;
    @Option(names = {"-f", "--stepfactor"}, paramLabel = "F", description = "multiply the size by F (default: 2)")
    Long factor;
    @Option(names = {"-i", "--stepbytes"}, paramLabel = "STEP", description = "add STEP bytes to the size (instead of -f)")
    String stepBytes;
    @Option(names = {"-d", "--datatype"}, defaultValue = "float", paramLabel = "TYPE", description = "nccl-tests type name (default: ${DEFAULT-VALUE})")
    String dtype;
    @Option(names = {"-o", "--op-reduce"}, defaultValue = "sum", paramLabel = "REDOP", description = "sum|prod|max|min|avg (default: ${DEFAULT-VALUE})")
    String redop;
    @Option(names = {"-r", "--root"}, defaultValue = "0", paramLabel = "ROOT", description = "root rank for broadcast/reduce (default: ${DEFAULT-VALUE})")
    int root;
    @Option(names = "--format", defaultValue = "text", description = "text|json|csv (default: ${DEFAULT-VALUE})")
    Format format;
    @Option(names = "--seed", defaultValue = "0", description = "simulation seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Override
    public void setEnv(Map<String, String> env) { this.env = env; }

    @Override
    public Integer call() {
        CollectiveOp cop = parse(() -> CollectiveOp.parse(op));
        DataType dt = parse(() -> DataType.parse(dtype));
        ReduceOp ro = parse(() -> ReduceOp.parse(redop));
        long[] sizes = SimSetup.sizes(Sizes.parse("-b", minBytes), Sizes.parse("-e", maxBytes), factor,
                stepBytes == null ? null : Sizes.parse("-i", stepBytes));
        Topology topo = TopologyArgs.resolve(topology, gpus, nodes, oversubscription, seed);
        CalibrationProfile prof = SimSetup.profile(profile, topo);
        NcclEnv nccl = SimSetup.ncclEnv(env);
        int n = topo.gpus().size();
        PerfRunner runner = new PerfRunner(topo, n, prof, nccl, seed);
        List<PerfRow> rows = new ArrayList<>();
        long events = 0;
        long flows = 0;
        long t0 = System.nanoTime();
        for (long s : sizes) {
            if (runner.countFor(cop, s, dt) == 0 && s != 0) continue; // nccl-tests skips sizes below one element per rank
            try {
                rows.add(runner.run(cop, s, dt, ro, root));
            } catch (TunerException e) {
                throw new UserException(e.getMessage(), e);
            }
            events += runner.lastEvents();
            flows += runner.lastFlows();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case json: printJson(out, rows); break;
            case csv: printCsv(out, rows); break;
            default: printText(out, rows, topo, runner.graph(), prof, cop, sizes, wall, events, flows);
        }
        out.flush();
        return 0;
    }

    private <T> T parse(java.util.function.Supplier<T> s) {
        try {
            return s.get();
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    static String timeStr(double us) {
        // nccl-tests' report: %7.0f from 10 ms, %7.1f from 100 us, else %7.2f
        if (us >= 10000.0) return String.format(Locale.ROOT, "%7.0f", us);
        if (us >= 100.0) return String.format(Locale.ROOT, "%7.1f", us);
        return String.format(Locale.ROOT, "%7.2f", us);
    }

    private void printText(PrintWriter out, List<PerfRow> rows, Topology topo, CommGraph g, CalibrationProfile prof,
                           CollectiveOp cop, long[] sizes, double wall, long events, long flows) {
        out.printf(Locale.ROOT, "# ccsim perf (simulated): %s_perf on %s, nRanks %d nNodes %d, profile %s%s%n", cop.cliName(), topo.name(),
                g.nRanks(), g.nNodes(), prof.gpu(), profile == null ? " (built-in)" : " (" + profile + ")");
        out.printf(Locale.ROOT, "# minBytes %d maxBytes %d step: %s  graph: %d channels x %.1f GB/s %s%s%n", sizes[0], sizes[sizes.length - 1],
                stepBytes != null ? stepBytes + "(bytes)" : (factor == null ? 2 : factor) + "(factor)", g.nChannels(), g.intraBwGBs(),
                g.intraClass().jsonName(), g.nNodes() > 1 ? String.format(Locale.ROOT, ", net %.1f GB/s per channel", g.interBwGBs()) : "");
        StringBuilder ncclVars = new StringBuilder();
        env.keySet().stream().filter(k -> k.startsWith("NCCL_")).sorted().forEach(k -> ncclVars.append(' ').append(k).append('=').append(env.get(k)));
        if (ncclVars.length() > 0) out.println("# NCCL environment:" + ncclVars);
        out.println("#");
        out.println("#       size         count      type   redop    root     time   algbw   busbw    algo   proto  nch");
        out.println("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)");
        double sum = 0;
        for (PerfRow r : rows) {
            out.printf(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d  %7s  %6.2f  %6.2f  %6s  %6s  %3d%n", r.bytes(), r.count(), r.dtype().ncclTestsName(),
                    r.redop() == null ? "none" : r.redop().ncclTestsName(), r.root(), timeStr(r.timeUs()), r.algbwGbps(), r.busbwGbps(),
                    r.algo().ncclName(), r.proto().ncclName(), r.channels());
            sum += r.busbwGbps();
        }
        out.printf(Locale.ROOT, "# Avg bus bandwidth    : %g%n", rows.isEmpty() ? 0.0 : sum / rows.size());
        out.printf(Locale.ROOT, "# simulated %d sizes in %.2f s wall: %d events (%.2f M/s), %d flows (%.2f M/s)%n", rows.size(), wall,
                events, events / wall / 1e6, flows, flows / wall / 1e6);
        out.println("#");
    }

    static JsonObject rowJson(PerfRow r) {
        JsonObject o = new JsonObject();
        o.addProperty("op", r.op().cliName());
        o.addProperty("bytes", r.bytes());
        o.addProperty("count", r.count());
        o.addProperty("dtype", r.dtype().ncclTestsName());
        o.addProperty("redop", r.redop() == null ? "none" : r.redop().ncclTestsName());
        o.addProperty("root", r.root());
        o.addProperty("algo", r.algo().ncclName());
        o.addProperty("proto", r.proto().ncclName());
        o.addProperty("channels", r.channels());
        o.addProperty("time_us", round(r.timeUs(), 3));
        o.addProperty("algbw_gbps", round(r.algbwGbps(), 3));
        o.addProperty("busbw_gbps", round(r.busbwGbps(), 3));
        return o;
    }

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    private static void printJson(PrintWriter out, List<PerfRow> rows) {
        JsonArray a = new JsonArray();
        for (PerfRow r : rows) a.add(rowJson(r));
        out.println(new GsonBuilder().setPrettyPrinting().create().toJson(a));
    }

    private static void printCsv(PrintWriter out, List<PerfRow> rows) {
        out.println("op,bytes,count,dtype,redop,root,algo,proto,channels,time_us,algbw_gbps,busbw_gbps");
        for (PerfRow r : rows) {
            JsonObject o = rowJson(r);
            out.println(String.join(",", o.keySet().stream().map(k -> o.get(k).getAsString()).toArray(String[]::new)));
        }
    }
}
