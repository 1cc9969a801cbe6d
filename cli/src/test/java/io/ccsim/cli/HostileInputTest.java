package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input that is nonsense, hostile or merely unusual, one row each: what the user types (files written into a
 * temporary folder, {@code @/} in arguments and expected lines standing for it), the exit code and the one line on
 * stderr, or, where the input is legitimate, what it means.
 */
class HostileInputTest {

    @TempDir
    Path dir;

    /** A two-GPU board: two H100 joined by one NVLink (the GPUs' model and memory as the catalog writes them). */
    static final String TOPOLOGY = """
            {"name": "two", "nodes": [
              {"id": "g0", "kind": "gpu", "host": 0, "local": 0, "attrs": {"model": "H100", "memory_bytes": "85520809984"}},
              {"id": "g1", "kind": "gpu", "host": 0, "local": 1, "attrs": {"model": "H100", "memory_bytes": "85520809984"}}],
             "links": [{"id": "l0", "a": "g0", "b": "g1", "kind": "nvlink", "bandwidth_gbps": 25, "latency_ns": 300}]}
            """;

    /** Two ranks of an HGX H100 board, two iterations of a compute step and a 1 MiB all-reduce. */
    static final String SCENARIO = """
            {"name": "s", "topology": {"name": "hgx-h100", "nodes": 1, "gpus_per_node": 2},
             "job": {"world_size": 2, "program": [{"repeat": {"times": 2, "steps": [
               {"compute": "1ms"}, {"collective": {"op": "all_reduce", "bytes": "1MiB"}}]}}]}}
            """;

    /** {@code nvidia-smi topo -m} of two GPUs bonded by 4 NVLinks and one NIC. */
    static final String SMI = """
            \tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity
            GPU0\t X \tNV4\tPIX\t0-7\t0
            GPU1\tNV4\t X \tPIX\t0-7\t0
            NIC0\tPIX\tPIX\t X

            NIC Legend:

              NIC0: mlx5_0
            """;

    record Case(String what, int code, String line, Map<String, String> env, String... args) { }

    static Case refused(String what, String line, String... args) {
        return new Case(what, 1, line, Map.of(), args);
    }

    static Case refusedWith(Map<String, String> env, String what, String line, String... args) {
        return new Case(what, 1, line, env, args);
    }

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    private void files() throws Exception {
        file("tiny.json", TOPOLOGY.replace("\"bandwidth_gbps\": 25", "\"bandwidth_gbps\": 1e-300"));
        file("nogpu.json", TOPOLOGY.replace("\"kind\": \"gpu\"", "\"kind\": \"cpu\""));
        file("empty-topo.json", "{\"name\": \"e\", \"nodes\": [], \"links\": []}");
        file("isolated.json", TOPOLOGY.replace("\"links\"", "\"links\"").replace("}}],\n \"links\"",
                "}},\n  {\"id\": \"g2\", \"kind\": \"gpu\", \"host\": 0, \"local\": 2}],\n \"links\""));
        file("mem-abc.json", TOPOLOGY.replaceFirst("85520809984", "abc"));
        file("mem-neg.json", TOPOLOGY.replaceFirst("85520809984", "-1"));
        file("unknown.json", TOPOLOGY.replace("\"name\": \"two\",", "\"name\": \"two\", \"colour\": \"red\","));
        file("dup.json", TOPOLOGY.replace("\"name\": \"two\",", "\"name\": \"two\", \"name\": \"three\","));
        file("empty.json", "");
        file("ansi.json", TOPOLOGY.replace("\"name\": \"two\"", "\"name\": \"two\\u001b[31mRED\\u0007\""));
        Files.write(dir.resolve("latin1.json"), TOPOLOGY.replace("\"two\"", "\"tw\u00e9\"").getBytes(StandardCharsets.ISO_8859_1));
        file("bom.json", "\uFEFF" + TOPOLOGY);
        file("smi.txt", SMI);
        file("smi-bom.txt", "\uFEFF" + SMI);
        file("smi-nv1000.txt", SMI.replace("NV4", "NV1000"));
        file("smi-big.txt", SMI.replace("NV4", "NV99999999999"));
        file("malformed.json", SCENARIO.substring(0, SCENARIO.length() / 2));
        file("deep.json", "{\"name\": " + "[".repeat(255) + "]".repeat(255) + "}");
        file("comment.json", "// a comment\n" + SCENARIO);
        file("s-dup.json", SCENARIO.replace("\"name\": \"s\",", "\"name\": \"s\", \"name\": \"t\","));
        file("huge.json", SCENARIO.replace("\"1MiB\"", "\"100TiB\""));
        file("times.json", SCENARIO.replace("\"times\": 2", "\"times\": 1000000"));
        file("nccl-foo.json", SCENARIO.replace("\"world_size\": 2,", "\"world_size\": 2, \"env\": {\"NCCL_FOO\": \"1\"},"));
        file("gpu-mem-0.json", SCENARIO.replace("\"world_size\": 2,", "\"world_size\": 2, \"gpu_memory\": \"0\","));
        file("pressure.json", SCENARIO.replace("]}}]}}", "]}}]},\n \"faults\": [{\"type\": \"memory_pressure\", \"rank\": 0,"
                + " \"bytes\": \"1000TiB\", \"at\": \"0s\"}]}"));
        file("late-fault.json", SCENARIO.replace("]}}]}}", "]}}]},\n \"faults\": [{\"type\": \"rank_crash\", \"rank\": 0,"
                + " \"at_iteration\": 1000000000}]}"));
        file("no-group.json", SCENARIO.replace("\"bytes\": \"1MiB\"", "\"bytes\": \"1MiB\", \"group\": \"nope\""));
        file("destroyed.json", SCENARIO.replace("{\"repeat\"", "{\"new_group\": {\"name\": \"g\", \"ranks\": [0, 1], \"eager\": true}},"
                + " {\"destroy\": \"g\"}, {\"repeat\"").replace("\"bytes\": \"1MiB\"", "\"bytes\": \"1MiB\", \"group\": \"g\""));
        file("grads-dup.json", "{\"forward_ms\": 1, \"backward_compute_ms\": 2, \"params\": [{\"bytes\": 4, \"ready_ms\": 1}],"
                + " \"forward_ms\": 3}");
        file("grads-bad.json", "{\"forward_ms\": 1, \"params\": [");
        file("fixture-dup.json", "{\"source\": {}, \"rows\": [], \"rows\": []}");
        file("fixture-bad.json", "{\"source\": {}, \"rows\": [}");
        file("timing-dup.json", "[{\"op\": \"all_reduce\", \"graph\": true, \"graph\": false}]");
        file("timing-bad.json", "[{\"op\": \"all_reduce\",}]");
        file("study.json", "{\"topology\": \"hgx-h100\", \"gpus\": 2, \"ops\": \"all_reduce\", \"sizes\": [\"1M\"]}");
        file("study-dup.json", "{\"topology\": \"hgx-h100\", \"gpus\": 2, \"ops\": \"all_reduce\", \"sizes\": [\"1M\"],"
                + " \"gpus\": 4}");
        file("study-bad.json", "{\"topology\": \"hgx-h100\" /* two GPUs */, \"ops\": \"all_reduce\", \"sizes\": [\"1M\"]}");
        file("rows-dup.jsonl", "{\"point\": 0, \"id\": \"0123456789abcdef\", \"id\": \"fedcba9876543210\", \"error\": null}\n");
        io.ccsim.algorithms.profile.CalibrationProfile.builtin("h100").write(dir.resolve("base.json"));
        Files.write(dir.resolve("rows-latin1.jsonl"), "{\"point\": 0, \"id\": \"\u00e9\"}\n".getBytes(StandardCharsets.ISO_8859_1));
        file("rows-bad.jsonl", "{\"point\": 0, \"id\": \"0123456789abcdef\"\n{\"point\": 1}\n");
    }

    static List<Case> refusals() {
        List<Case> c = new ArrayList<>();
        c.add(refused("a link of 1e-300 GB/s", "ccsim: error: @/tiny.json: $.links[0].bandwidth_gbps: bandwidth 1E-300 GB/s per"
                + " direction is out of range; valid: 0.000001 (1 kB/s) to 1000000 GB/s", "perf", "--topology", "@/tiny.json",
                "--op", "all_reduce"));
        c.add(refused("a what-if of 1e-300 of a link's rate", "ccsim: error: --degrade n1.nic3~leaf.r3.0=1e-300: invalid factor"
                + " 1.0E-300; valid: [1e-6, 1], the fraction of the link's rate left (0.1 = one tenth)", "perf", "--topology",
                "hgx-h100", "--nodes", "2", "--op", "all_reduce", "--degrade", "n1.nic3~leaf.r3.0=1e-300"));
        c.add(refused("no GPU", "ccsim: error: @/nogpu.json: $.nodes: no node of kind gpu among 2 nodes; valid: a topology with"
                + " at least one GPU", "topology", "@/nogpu.json"));
        c.add(refused("no node at all", "ccsim: error: @/empty-topo.json: $.nodes: no node of kind gpu among 0 nodes; valid: a"
                + " topology with at least one GPU", "topology", "@/empty-topo.json"));
        c.add(refused("an isolated GPU", "ccsim: error: @/isolated.json: $.nodes[2]: GPU 'g2' is not connected to GPU 'g0' by any"
                + " path of links; valid: every GPU reachable from every other", "topology", "@/isolated.json"));
        c.add(refused("memory_bytes \"abc\"", "ccsim: error: @/mem-abc.json: $.nodes[0].attrs.memory_bytes: 'abc' is not a memory"
                + " size; valid: a whole number of bytes as a string, 1 to 1125899906842624 (1 PiB), e.g. \"85520809984\" for 79.65"
                + " GiB", "topology", "@/mem-abc.json"));
        c.add(refused("memory_bytes \"-1\"", "ccsim: error: @/mem-neg.json: $.nodes[0].attrs.memory_bytes: '-1' is not a memory"
                + " size; valid: a whole number of bytes as a string, 1 to 1125899906842624 (1 PiB), e.g. \"85520809984\" for 79.65"
                + " GiB", "topology", "@/mem-neg.json"));
        c.add(refused("an unknown field", "ccsim: error: @/unknown.json: $.colour: unknown field 'colour'; valid fields: [name,"
                + " seed, nodes, links, groups]", "topology", "@/unknown.json"));
        c.add(refused("a duplicate key", "ccsim: error: @/dup.json: $.name: key 'name' appears twice in one object, at line 1"
                + " column 17; valid: each key once", "topology", "@/dup.json"));
        c.add(refused("an empty file", "ccsim: error: @/empty.json: $: the document is empty; valid: a topology object {\"name\":"
                + " ..., \"nodes\": [...], \"links\": [...]}", "topology", "@/empty.json"));
        c.add(refused("a file that is not UTF-8", "ccsim: error: @/latin1.json: line 1 (byte 12): not UTF-8 text (byte 0xE9);"
                + " valid: a UTF-8 text file (convert with iconv -t UTF-8)", "topology", "@/latin1.json"));
        c.add(refused("a file that does not exist", "ccsim: error: cannot read nvidia-smi matrix @/none.txt: no such file",
                "topology", "--from-nvidia-smi", "@/none.txt"));
        c.add(refused("NV1000", "ccsim: error: @/smi-nv1000.txt:2:10: 'NV1000': a GPU has at most 18 NVLinks; valid: NV1 to"
                + " NV18", "topology", "--from-nvidia-smi", "@/smi-nv1000.txt"));
        c.add(refused("an NVLink count past an int", "ccsim: error: @/smi-big.txt:2:10: 'NV99999999999': a GPU has at most 18"
                + " NVLinks; valid: NV1 to NV18", "topology", "--from-nvidia-smi", "@/smi-big.txt"));
        c.add(refused("an imported topology without a GPU model", "ccsim: error: topology @/smi.txt names no GPU model"
                + " (nvidia-smi topo -m does not print it); valid: --profile h100|h200|l40s|b200, or import it with 'ccsim topology"
                + " --from-nvidia-smi FILE --gpu-model MODEL --format json'", "perf", "--topology", "@/smi.json", "--op",
                "all_reduce", "-b", "1M", "-e", "1M"));
        c.add(refused("a profile that is neither a file nor a built-in name", "ccsim: error: --profile X: no such file; valid: a"
                + " profile JSON file or a built-in name, h100, h200, l40s, b200", "perf", "--topology", "hgx-h100", "--gpus", "2",
                "--op", "all_reduce", "--profile", "X"));
        c.add(refused("sizes with no whole element", "ccsim: error: -b 3 -e 3: no size holds one float element (nccl-tests skips"
                + " such sizes), so there is nothing to simulate; valid: -e >= 4 for all_reduce of float on 2 ranks", "perf",
                "--topology", "hgx-h100", "--gpus", "2", "--op", "all_reduce", "-b", "3", "-e", "3"));
        c.add(refused("sizes with no whole element per rank", "ccsim: error: -b 3 -e 31: no size holds one float element per rank"
                + " (nccl-tests skips such sizes), so there is nothing to simulate; valid: -e >= 32 for all_gather of float on 2"
                + " ranks", "tune", "--topology", "hgx-h100", "--gpus", "2", "--op", "all_gather", "-b", "3", "-e", "31"));
        c.add(refused("a 1 TiB buffer on 80 GB GPUs", "ccsim: error: -e 1024G: its send and receive buffers (2 x the size) do not"
                + " fit the 79.6 GiB of GPU n0.gpu0, of which nccl-tests keeps 5.0 GiB for the rest; valid: -e <= 40076050432 (37.3"
                + " GiB)", "perf", "--topology", "hgx-h100", "--gpus", "2", "--op", "all_reduce", "-b", "1T", "-e", "1T"));
        c.add(refused("--oversubscription on one node", "ccsim: error: --oversubscription 2: one node has no fat-tree to"
                + " oversubscribe; valid: --nodes >= 2, or 1 (the default) on one node", "perf", "--topology", "hgx-h100",
                "--oversubscription", "2", "--op", "all_reduce"));
        c.add(refused("a chart in a folder that does not exist", "ccsim: error: --chart @/no/dir/x.png: folder @/no/dir does not"
                + " exist; create it first (ccsim creates no folders)", "validate", "--topology", "hgx-h100",
                "--measured", "@/tiny.json", "--chart", "@/no/dir/x.png"));
        c.add(refusedWith(Map.of("NCCL_BUFFSIZE", "100"), "NCCL_BUFFSIZE=100", "ccsim: error: NCCL_BUFFSIZE=\"100\": the Simple"
                + " protocol's buffer is split into NCCL_STEPS=8 slots of 16-byte aligned size; valid: a multiple of 128 bytes from"
                + " 128 to 2147483648 (2 GiB), e.g. 4194304 (the default, 4 MiB)", "perf", "--topology", "hgx-h100", "--gpus", "2",
                "--op", "all_reduce"));
        c.add(refusedWith(Map.of("NCCL_ALGO", "allreduce:"), "NCCL_ALGO='allreduce:'", "ccsim: error: NCCL_ALGO=\"allreduce:\":"
                + " function prefix \"allreduce\" has no list after ':'; valid: allreduce:<list>, e.g. allreduce:tree", "perf",
                "--topology", "hgx-h100", "--gpus", "2", "--op", "all_reduce"));
        c.add(refusedWith(Map.of("NCCL_MAX_NCHANNELS", "abc"), "an integer variable's example", "ccsim: error:"
                + " NCCL_MAX_NCHANNELS=\"abc\": not an integer (unexpected 'a' in base 10); valid: a decimal integer (16), 0x"
                + " hexadecimal (0x10), 0-prefixed octal (020)", "perf", "--topology", "hgx-h100", "--gpus", "2", "--op",
                "all_reduce"));
        c.add(refused("malformed scenario JSON", "ccsim: error: @/malformed.json: $: malformed JSON at line 2 column 39: the"
                + " document ends early", "scenario", "run", "@/malformed.json"));
        c.add(refused("255-deep scenario JSON", "ccsim: error: @/deep.json: $: arrays and objects nested deeper than 64 levels, at"
                + " line 1 column 74; valid: at most 64", "scenario", "run", "@/deep.json"));
        c.add(refused("a // comment", "ccsim: error: @/comment.json: $: malformed JSON at line 1 column 2: syntax that strict JSON"
                + " (RFC 8259) does not allow (comments, single quotes, unquoted names, trailing commas, NaN, a second document)",
                "scenario", "run", "@/comment.json"));
        c.add(refused("a duplicate scenario key", "ccsim: error: @/s-dup.json: $.name: key 'name' appears twice in one object, at"
                + " line 1 column 15; valid: each key once", "scenario", "run", "@/s-dup.json"));
        c.add(refused("a 100 TiB all-reduce on 80 GB GPUs", "ccsim: error: @/huge.json: $.job.program[0].repeat.steps[1].collective:"
                + " a tensor of 100.00 TiB does not fit a GPU of 79.65 GiB; valid: at most the GPU's memory", "scenario", "run",
                "@/huge.json"));
        c.add(refused("times: 1000000", "ccsim: error: @/times.json: $.job.program: the job makes 2,000,000 collective calls"
                + " (1,000,000 per rank x 2 ranks, every repeat unrolled), more than the limit of 1,000,000; valid: fewer repeat"
                + " times (a few iterations show a pattern), or raise the limit with --max-calls 2000000", "scenario", "run",
                "@/times.json"));
        c.add(refused("NCCL_FOO in a scenario's env", "ccsim: error: @/nccl-foo.json: $.job.env.NCCL_FOO: unknown field"
                + " 'NCCL_FOO'; valid fields: [TORCH_SYMMMEM, NVFUSER_ENABLE]", "scenario", "run", "@/nccl-foo.json"));
        c.add(refused("gpu_memory \"0\"", "ccsim: error: @/gpu-mem-0.json: $.job.gpu_memory: a GPU of 0 bytes holds nothing;"
                + " valid: a size >= 1 B such as \"80GiB\", or omit it for the memory of the topology's GPU", "scenario", "run",
                "@/gpu-mem-0.json"));
        c.add(refused("1,000 TiB of memory pressure", "ccsim: error: @/pressure.json: $.faults[0].bytes: 1000.00 TiB is more than"
                + " the 79.65 GiB of rank 0's GPU; valid: at most the GPU's memory", "scenario", "run", "@/pressure.json"));
        c.add(refused("a fault at iteration 1e9 of 2", "ccsim: error: @/late-fault.json: $.faults[0].at_iteration: iteration"
                + " 1000000000 never starts: the job runs at most 2 training iterations (its repeat's times); valid: 0..1",
                "scenario", "run", "@/late-fault.json"));
        c.add(refused("a duplicate key in a gradient profile", "ccsim: error: @/grads-dup.json: $.forward_ms: key 'forward_ms' appears"
                + " twice in one object, at line 1 column 86; valid: each key once", "ddp", "--grads", "@/grads-dup.json", "--topology", "hgx-h100",
                "--gpus", "2"));
        c.add(refused("a malformed gradient profile", "ccsim: error: @/grads-bad.json: $: malformed JSON at line 1 column 30: the"
                + " document ends early", "ddp", "--grads", "@/grads-bad.json", "--topology", "hgx-h100",
                "--gpus", "2"));
        c.add(refused("a duplicate key in a calibration fixture", "ccsim: error: @/fixture-dup.json: $.rows: key 'rows' appears twice"
                + " in one object, at line 1 column 28; valid: each key once", "fit", "nccl", "--out", "@/p.json", "@/fixture-dup.json"));
        c.add(refused("a malformed calibration fixture", "ccsim: error: @/fixture-bad.json: $: malformed JSON at line 1 column 25:"
                + " expected value", "fit", "nccl", "--out", "@/p.json", "@/fixture-bad.json"));
        c.add(refused("a duplicate key in kernel timings", "ccsim: error: @/timing-dup.json: $[0].graph: key 'graph' appears"
                + " twice in one object, at line 1 column 38; valid: each key once", "fit", "kernels", "--base", "@/base.json", "--out", "@/p.json", "--date",
                "2026-01-01", "@/timing-dup.json"));
        c.add(refused("malformed kernel timings", "ccsim: error: @/timing-bad.json: $: malformed JSON at line 1 column 23:"
                + " expected name", "fit", "kernels", "--base", "@/base.json", "--out", "@/p.json", "--date",
                "2026-01-01", "@/timing-bad.json"));
        c.add(refused("a duplicate key in a study", "ccsim: error: @/study-dup.json: $.gpus: key 'gpus' appears twice in one object,"
                + " at line 1 column 75; valid: each key once", "sweep", "@/study-dup.json"));
        c.add(refused("a comment in a study", "ccsim: error: @/study-bad.json: $: malformed JSON at line 1 column 26: syntax that strict"
                + " JSON (RFC 8259) does not allow (comments, single quotes, unquoted names, trailing commas, NaN, a second document)", "sweep", "@/study-bad.json"));
        c.add(refused("a duplicate key in a sweep's rows", "ccsim: error: --out @/rows-dup.jsonl: line 1: $.id: key 'id' appears twice"
                + " in one object, at line 1 column 40; valid: each key once; --out takes the rows of an interrupted run of the same"
                + " study, or a new file", "sweep", "@/study.json", "--out", "@/rows-dup.jsonl"));
        c.add(refused("a malformed line in a sweep's rows", "ccsim: error: --out @/rows-bad.jsonl: line 1: $: malformed JSON at line 1 column"
                + " 38: the document ends early; --out takes the rows of an interrupted run of the same study, or a new file", "sweep", "@/study.json", "--out", "@/rows-bad.jsonl"));
        c.add(refused("sweep rows that are not UTF-8", "ccsim: error: @/rows-latin1.jsonl: line 1 (byte 20): not UTF-8 text (byte"
                + " 0xE9); valid: a UTF-8 text file (convert with iconv -t UTF-8)", "sweep", "@/study.json", "--out",
                "@/rows-latin1.jsonl"));
        return c;
    }

    @Test
    void everyRefusalIsOneLineAndExitOne() throws Exception {
        files();
        Files.writeString(dir.resolve("smi.json"), CliTest.run("topology", "--from-nvidia-smi", dir.resolve("smi.txt").toString(),
                "--format", "json").out());
        List<String> wrong = new ArrayList<>();
        for (Case c : refusals()) {
            String[] args = new String[c.args().length];
            for (int i = 0; i < args.length; i++) args[i] = c.args()[i].replace("@/", dir + "/");
            CliTest.Result r = CliTest.run(c.env(), args);
            String expected = c.line().replace("@/", dir + "/");
            if (r.code() != c.code() || !r.err().equals(expected + "\n") || !r.out().isEmpty()) {
                wrong.add(c.what() + ": exit " + r.code() + ", stderr " + r.err() + " stdout " + r.out().lines().limit(2).toList());
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void theHeapLimitIsNamedUpFront() {
        CliTest.Result topo = CliTest.run("topology", "hgx-h100", "--nodes", "100000");
        assertThat(topo.code()).isEqualTo(1);
        assertThat(topo.err()).startsWith("ccsim: error: --nodes 100000: the topology needs about").contains("valid here: --nodes <=")
                .contains("-Xmx").hasLineCount(1);
        CliTest.Result perf = CliTest.run("perf", "--topology", "hgx-h100", "--nodes", "100000", "--op", "all_reduce", "--sim-mode",
                "folded", "-b", "1G", "-e", "1G");
        assertThat(perf.code()).isEqualTo(1);
        assertThat(perf.err()).contains("--sim-mode extrapolated").hasLineCount(1);
    }

    @Test
    void legitimateOddInputHasItsDocumentedMeaning() throws Exception {
        files();
        // a byte order mark is skipped, as Windows editors write one
        CliTest.Result bom = CliTest.run("topology", dir.resolve("bom.json").toString());
        assertThat(bom.code()).as(bom.err()).isZero();
        assertThat(CliTest.run("topology", "--from-nvidia-smi", dir.resolve("smi-bom.txt").toString()).code()).isZero();
        // control characters from a file are shown escaped, never sent to the terminal
        CliTest.Result ansi = CliTest.run("topology", dir.resolve("ansi.json").toString());
        assertThat(ansi.code()).isZero();
        assertThat(ansi.out()).contains("topology two\\x1B[31mRED\\x07 (1 host)").doesNotContain("\u001b").doesNotContain("\u0007");
        // a built-in profile by name, and an imported topology given its GPU model, simulate
        assertThat(CliTest.run("perf", "--topology", "hgx-h100", "--gpus", "2", "--op", "all_reduce", "-b", "1M", "-e", "1M",
                "--profile", "h200").code()).isZero();
        Files.writeString(dir.resolve("smi-h100.json"), CliTest.run("topology", "--from-nvidia-smi", dir.resolve("smi.txt").toString(),
                "--gpu-model", "h100", "--format", "json").out());
        CliTest.Result imported = CliTest.run("perf", "--topology", dir.resolve("smi-h100.json").toString(), "--op", "all_reduce",
                "-b", "1M", "-e", "1M");
        assertThat(imported.code()).as(imported.err()).isZero();
        assertThat(imported.out()).contains("profile H100 (built-in");
        // a program error is the run's outcome, and the diagnosis names it
        for (String f : List.of("no-group.json", "destroyed.json")) {
            CliTest.Result r = CliTest.run("scenario", "run", dir.resolve(f).toString());
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("outcome: error").contains("[PROGRAM_ERROR] ranks 0, 1").doesNotContain("nothing abnormal");
        }
    }

    @Test
    void aSpentBudgetStopsTheRunWithExitThreeAndNamesTheLimit() throws Exception {
        files();
        CliTest.Result r = CliTest.run("scenario", "run", dir.resolve("times.json").toString(), "--max-calls", "2000000",
                "--max-events", "20000");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).matches("ccsim: scenario .*times.json stopped at the limit of 20,000 simulated events \\(raise it with"
                + " --max-events N\\) after \\d+\\.\\d{3} s of simulated job time; no diagnosis, the run did not finish\n");
    }
}
