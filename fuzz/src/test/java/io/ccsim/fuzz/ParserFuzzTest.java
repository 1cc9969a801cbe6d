package io.ccsim.fuzz;

import io.ccsim.algorithms.ddp.StepProfileJson;
import io.ccsim.algorithms.measurements.Measurements;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.algorithms.tuner.SymkModel;
import io.ccsim.cli.SweepReaders;
import io.ccsim.scenarios.ScenarioCatalog;
import io.ccsim.scenarios.format.ScenarioParser;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import io.ccsim.topology.json.TopologyJson;
import io.ccsim.topology.smi.NvidiaSmiTopo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every reader of user input, fed {@link #TRIES} seeded mutations of valid input each, holds {@link Outcome}'s
 * property: a value or one clear line, never another exception or a hang. Try k of a property uses seed k, so a
 * failure names the seed that reproduces it. Cost in CI: 21,000 tries in all, about 4 s (see
 * docs/architecture.md, "Hostile input").
 */
class ParserFuzzTest {
    /** Tries per property and kind of mutation: 1,000, or the system property {@code ccsim.fuzz.tries} for a longer hunt. */
    static final int TRIES = Integer.getInteger("ccsim.fuzz.tries", 1000);

    static ExecutorService executor;

    @BeforeAll
    static void start() {
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fuzz-try");
            t.setDaemon(true);   // a try that hangs is abandoned, and cannot keep the JVM alive
            return t;
        });
    }

    @AfterAll
    static void stop() {
        executor.shutdownNow();
    }

    /** nvidia-smi topo -m of two GPUs bonded by 4 NVLinks and one NIC. */
    static final String SMI_SMALL = """
            \tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID
            GPU0\t X \tNV4\tPIX\t0-7\t0\t\tN/A
            GPU1\tNV4\t X \tSYS\t8-15\t1\t\tN/A
            NIC0\tPIX\tSYS\t X

            Legend:

              X    = Self
              NV#  = Connection traversing a bonded set of # NVLinks

            NIC Legend:

              NIC0: mlx5_0
            """;

    /** An 8-GPU NVSwitch board (NV18 everywhere), one NIC per GPU, two NUMA nodes. */
    static String smiBoard() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) s.append("\tGPU").append(i);
        for (int i = 0; i < 8; i++) s.append("\tNIC").append(i);
        s.append("\tCPU Affinity\tNUMA Affinity\n");
        for (int r = 0; r < 16; r++) {
            s.append(r < 8 ? "GPU" + r : "NIC" + (r - 8));
            for (int c = 0; c < 16; c++) {
                String cell = r == c ? " X " : r < 8 && c < 8 ? "NV18" : r % 8 == c % 8 ? "PIX" : r % 8 / 4 == c % 8 / 4 ? "NODE" : "SYS";
                s.append('\t').append(cell);
            }
            if (r < 8) s.append('\t').append(r < 4 ? "0-31" : "32-63").append('\t').append(r / 4);
            s.append('\n');
        }
        s.append("\nNIC Legend:\n\n");
        for (int i = 0; i < 8; i++) s.append("  NIC").append(i).append(": mlx5_").append(i).append('\n');
        return s.toString();
    }

    /** nccl-tests' all_reduce_perf table of two sizes on 8 GPUs. */
    static final String NCCL_TESTS = """
            # nccl-tests version 2.19.6 nccl-headers=22809 nccl-library=22809
            # Collective test starting: all_reduce_perf
            # nThread 1 nGpus 8 minBytes 1048576 maxBytes 4194304 step: 4(factor) warmup iters: 1 iters: 20 agg iters: 1 validation: 1 graph: 0
            #
            #                                                              out-of-place                       in-place
            #       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
            #        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)
                 1048576        262144     float     sum      -1    71.13   14.74   27.64       0    70.83   14.80   27.76       0
                 4194304       1048576     float     sum      -1    88.04   47.64   89.32       0    86.82   48.31   90.58       0
            # Out of bounds values : 0 OK
            # Avg bus bandwidth    : 58.5
            #
            """;

    @Test
    void topologyJson() {
        List<String> seeds = List.of(TopologyJson.write(TopologyCatalog.build("hgx-h100", new BuildOptions(2, 1, 1.0, 0))),
                TopologyJson.write(TopologyCatalog.build("pcie-8gpu", new BuildOptions(2, 1, 1.0, 0))));
        for (int k = 0; k < TRIES; k++) {
            Mutations m = new Mutations(k);
            String seed = m.pick(seeds);
            for (String input : List.of(m.text(seed), m.tree(seed))) {
                Outcome.check(executor, "topology JSON, seed " + k + ": " + clip(input), "t.json: ", () -> TopologyJson.read(input, "t.json"));
            }
        }
    }

    @Test
    void nvidiaSmiMatrix() {
        List<String> seeds = List.of(SMI_SMALL, smiBoard());
        for (int k = 0; k < TRIES; k++) {
            Mutations m = new Mutations(k);
            String input = m.text(m.pick(seeds));
            Outcome.check(executor, "nvidia-smi matrix, seed " + k + ": " + clip(input), "m.txt", () -> NvidiaSmiTopo.parse(input, "m.txt"));
        }
    }

    @Test
    void scenarioFiles() {
        List<String> seeds = ScenarioCatalog.names().stream().map(ScenarioCatalog::text).toList();
        for (int k = 0; k < TRIES; k++) {
            Mutations m = new Mutations(k);
            String seed = m.pick(seeds);
            for (String input : List.of(m.text(seed), m.tree(seed))) {
                Outcome.check(executor, "scenario, seed " + k + ": " + clip(input), "s.json: ", () -> ScenarioParser.parse(input, "s.json"));
            }
        }
    }

    @Test
    void ncclTestsLogs() {
        for (int k = 0; k < TRIES; k++) {
            String input = new Mutations(k).text(NCCL_TESTS);
            Outcome.check(executor, "nccl-tests log, seed " + k + ": " + clip(input), "all_reduce_perf.log",
                    () -> Measurements.read("all_reduce_perf.log", input, false));
        }
    }

    /** A gradient profile as tools/ddp-measure/ddp_buckets.py writes it: two parameters and one measured run. */
    static final String GRADS = """
            {"world_size": 2, "dtype": "float32", "forward_ms": 1.5, "backward_compute_ms": 3.25,
             "params": [{"name": "0.weight", "bytes": 4194304, "ready_ms": 3.0}, {"name": "0.bias", "bytes": 4096, "ready_ms": 3.2}],
             "runs": [{"bucket_cap_mb": 25, "iteration_ms_median": 5.1, "iteration_ms_p10": 5.0, "iteration_ms_p90": 5.3}]}
            """;

    /** A CudaExecutor timing file: two trials of a graph-replay row and an eager row. */
    static final String KERNEL_TIMINGS = """
            [{"op": "all_reduce", "n": 2, "algo": "Ring", "proto": "LL", "channels": 2, "bytes": 4096, "dtype": "float32",
              "redop": "sum", "root": 0, "graph": true, "trial": 0, "time_us": 9.5},
             {"op": "all_reduce", "n": 2, "algo": "Ring", "proto": "LL", "channels": 2, "bytes": 4096, "dtype": "float32",
              "redop": "sum", "root": 0, "graph": true, "trial": 1, "time_us": 9.7},
             {"op": "all_gather", "n": 4, "algo": "Tree", "proto": "Simple", "channels": 8, "bytes": 1048576, "graph": false,
              "time_us": 40.0}]
            """;

    /** A measure.py calibration fixture: an NCCL-chosen row and a forced one. */
    static final String FIXTURE = """
            {"source": {"gpu": "H200"}, "rows": [
             {"op": "all_reduce", "n": 2, "mode": "default", "nccl_reported_algo": "RING", "nccl_reported_proto": "LL",
              "nccl_reported_channels": 2, "bytes": 8, "dtype": "float", "redop": "sum", "root": 0, "time_us": 9.5, "graph": true},
             {"op": "all_reduce", "n": 2, "mode": "Tree/LL128", "nccl_reported_algo": null, "nccl_reported_proto": null,
              "nccl_reported_channels": null, "bytes": 65536, "time_us": 20.0, "graph": true}]}
            """;

    @Test
    void measurementAndProfileJson() {
        StepProfileJson.parse(GRADS, "g.json");   // the seeds are valid, so mutations start from input that reads
        org.assertj.core.api.Assertions.assertThat(Measurements.kernelTimings(KERNEL_TIMINGS, "k.json")).hasSize(1);
        org.assertj.core.api.Assertions.assertThat(Measurements.calibrationFixture(FIXTURE, "f.json")).hasSize(2);
        for (int k = 0; k < TRIES; k++) {
            Mutations m = new Mutations(k);
            for (String input : List.of(m.text(GRADS), m.tree(GRADS))) {
                Outcome.check(executor, "gradient profile, seed " + k + ": " + clip(input), "g.json: ", () -> StepProfileJson.parse(input,
                        "g.json"));
            }
            for (String input : List.of(m.text(KERNEL_TIMINGS), m.tree(KERNEL_TIMINGS))) {
                Outcome.check(executor, "kernel timings, seed " + k + ": " + clip(input), "k.json", () -> Measurements.kernelTimings(input,
                        "k.json"));
            }
            for (String input : List.of(m.text(FIXTURE), m.tree(FIXTURE))) {
                Outcome.check(executor, "calibration fixture, seed " + k + ": " + clip(input), "f.json", () -> Measurements
                        .calibrationFixture(input, "f.json"));
            }
        }
    }

    /** A sweep study: two nodes, two collectives, a what-if per NIC rail and an NCCL variable, drawn 4 at random. */
    static final String STUDY = """
            {"topology": "hgx-h100", "nodes": [1, 2], "gpus": 8, "nics_per_node": 8, "oversubscription": [1, 2.5],
             "sharp": false, "ops": ["all_reduce", "all_gather"], "dtypes": ["float", "bf16"], "seeds": [0, 1],
             "sim_mode": "folded", "sizes": {"min": "1K", "max": "1M", "factor": 4},
             "what_if": [{}, {"each": "n*.nic3~leaf*", "factor": 0.1}, {"each": "n0.nic*~leaf*", "down": true}],
             "env": {"NCCL_ALGO": ["Ring", "Tree"], "NCCL_PROTO": "Simple"}, "sample": {"count": 4, "seed": 7}}
            """;

    /** One row of a sweep's JSON-lines output, as ccsim writes it. */
    static final String SWEEP_ROW = "{\"point\":3,\"id\":\"0123456789abcdef\",\"topology\":\"hgx-h100\",\"nodes\":2,"
            + "\"op\":\"all_reduce\",\"bytes\":1048576,\"time_us\":41.25,\"busbw_gbps\":1.5E2,\"error\":null}";

    @Test
    void sweepStudiesAndRows() {
        SweepReaders.study(STUDY, "study.json");   // the seeds are valid, so mutations start from a study that reads
        SweepReaders.row(SWEEP_ROW, "--out r.jsonl: line 2");
        for (int k = 0; k < TRIES; k++) {
            Mutations m = new Mutations(k);
            for (String input : List.of(m.text(STUDY), m.tree(STUDY))) {
                Outcome.check(executor, "sweep study, seed " + k + ": " + clip(input), "study.json: ", () -> SweepReaders.study(input,
                        "study.json"));
            }
            for (String input : List.of(m.text(SWEEP_ROW), m.tree(SWEEP_ROW))) {
                Outcome.check(executor, "sweep row, seed " + k + ": " + clip(input), "--out r.jsonl: line 2: ", () -> SweepReaders.row(input,
                        "--out r.jsonl: line 2"));
            }
        }
    }

    /** Values NCCL takes for its variables, to mutate and combine. */
    static final List<String> NCCL_VALUES = List.of("Ring", "Tree", "ring,tree", "^Ring", "allreduce:tree;allgather:ring", "LL",
            "LL128", "Simple", "^LL", "4194304", "0x400000", "020000000", "1", "0", "2", "16", "64", "512", "mlx5_0", "^mlx5_1",
            "=mlx5_0:1", "PIX", "PXB", "SYS", "LOC", "");

    @Test
    void ncclEnvironmentVariables() {
        List<String> names = new java.util.ArrayList<>(NcclEnv.HONOURED);
        names.addAll(List.of(NcclEnv.NCCL_COLLNET_ENABLE, NcclEnv.NCCL_PAT_ENABLE, NcclEnv.NCCL_LL128_ENABLE, NcclEnv.NCCL_CROSS_NIC,
                NcclEnv.NCCL_PXN_DISABLE, NcclEnv.NCCL_IB_HCA, NcclEnv.NCCL_NET_GDR_LEVEL, NcclEnv.NCCL_MIN_NRINGS,
                NcclEnv.NCCL_MAX_NRINGS, SymkModel.NCCL_SYM_KERNEL, SymkModel.NCCL_SYM_CTAS, SymkModel.NCCL_WIN_ENABLE));
        names.remove(NcclEnv.NCCL_TUNER_CONFIG_FILE);   // a file name: the tuner file's reader has tests of its own
        for (int k = 0; k < 4 * TRIES; k++) {
            Mutations m = new Mutations(k);
            Map<String, String> env = new HashMap<>();
            for (int v = 1 + m.below(3); v > 0; v--) {
                String value = m.pick(NCCL_VALUES);
                env.put(m.pick(names), m.below(2) == 0 ? value : m.below(2) == 0 ? m.pick(Mutations.TOKENS) : m.text(value));
            }
            Outcome.check(executor, "NCCL environment, seed " + k + ": " + env, "NCCL_", () -> {
                NcclEnv.parse(env);
                SymkModel.parse(env);
            });
        }
    }

    @Test
    void thePropertyFailsOnWhatIsNotAClearError() {
        Runnable[] unclear = {
            () -> { throw new IllegalStateException("t.json: boom"); },
            () -> { throw new NumberFormatException("t.json: For input string: \"x\""); },
            () -> { throw new IllegalArgumentException("For input string: \"99999999999\""); },
            () -> { throw new IllegalArgumentException("t.json: $: not valid JSON: com.google.gson.stream.MalformedJsonException"); },
            () -> { throw new IllegalArgumentException("t.json: cannot read: java.io.EOFException"); },
            () -> { throw new IllegalArgumentException("t.json: two\nlines"); },
            () -> { throw new IllegalArgumentException((String) null); }};
        for (Runnable r : unclear) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Outcome.check(executor, "case", "t.json", r))
                    .isInstanceOf(AssertionError.class);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Outcome.check(executor, "hang", "t.json", () -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, java.time.Duration.ofMillis(200))).isInstanceOf(AssertionError.class).hasMessageContaining("no result within");
        Outcome.check(executor, "fine", "t.json", () -> { throw new IllegalArgumentException("t.json: $.x: bad; valid: y"); });
        Outcome.check(executor, "fine", "t.json", () -> { });
    }

    /** The start of an input, for a failure message. */
    private static String clip(String s) {
        return s.length() <= 400 ? s : s.substring(0, 400) + "... (" + s.length() + " chars)";
    }
}
