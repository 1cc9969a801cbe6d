package io.ccsim.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.cli.Main;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import io.ccsim.topology.json.TopologyJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topologies a user could write, run: catalog boards and clusters whose JSON is changed the way hand-edited files are
 * (a link removed or added between any two nodes, a rate or latency changed, a node removed, a GPU left with one link
 * to another GPU), then simulated by {@code ccsim perf} with a random collective, NCCL_ALGO and NCCL_PROTO. Every run
 * prints its table (exit 0) or one line that says what is wrong (exit 1, or 3 for a budget), never an internal error
 * or a Java exception's name, and ends within {@link #LIMIT}. Where parsing is {@link ParserFuzzTest}'s concern,
 * this is the rest of the pipeline's: the graph search, routing, NCCL's graphs, the plans and the simulation, on
 * graphs no catalog builds, and on catalog clusters with links taken down or degraded ({@code --down},
 * {@code --degrade}). Try k uses seed k ({@code -Dccsim.fuzz.runs=N} for a longer hunt).
 */
class TopologyRunFuzzTest {
    /** Tries: 60 (about 20 s in CI), or the system property {@code ccsim.fuzz.runs}. */
    static final int RUNS = Integer.getInteger("ccsim.fuzz.runs", 60);
    /** The most one run may take (they take 0.05-2 s; a loaded CI machine ten times that). */
    static final Duration LIMIT = Duration.ofSeconds(60);

    private static final Pattern JAVA_NAME = Pattern.compile("\\b(java|javax|com\\.google|sun)\\.[a-z]|\\b[A-Z]\\w*(Exception|Error)\\b");
    private static final List<String> OPS = List.of("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
            "alltoall", "sendrecv");
    private static final List<String> ALGOS = List.of("Ring", "Tree", "NVLS", "NVLSTree", "CollNetDirect", "PAT", "Ring,Tree");
    private static final List<String> PROTOS = List.of("LL", "LL128", "Simple");
    private static final List<String> KINDS = List.of("nvlink", "pcie", "smp", "infiniband");
    private static final List<String> SHARING = List.of("full_duplex", "shared", "fat_pipe");

    static ExecutorService executor;

    @BeforeAll
    static void start() {
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fuzz-run");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterAll
    static void stop() {
        executor.shutdownNow();
    }

    @Test
    void editedTopologiesRunOrSayWhyNot(@TempDir Path dir) throws Exception {
        List<String> seeds = List.of(
                TopologyJson.write(TopologyCatalog.build("hgx-h100", new BuildOptions(4, 1, 1.0, 0))),
                TopologyJson.write(TopologyCatalog.build("hgx-h100", new BuildOptions(0, 2, 1.0, 0))),
                TopologyJson.write(TopologyCatalog.build("pcie-8gpu", new BuildOptions(4, 1, 1.0, 0))),
                TopologyJson.write(TopologyCatalog.build("gb200-nvl72", new BuildOptions(8, 1, 1.0, 0))));
        for (int k = 0; k < RUNS; k++) {
            Mutations m = new Mutations(k);
            JsonObject t = JsonParser.parseString(m.pick(seeds)).getAsJsonObject();
            for (int e = 1 + m.below(3); e > 0; e--) edit(t, m);
            Path file = dir.resolve("t" + k + ".json");
            Files.writeString(file, t.toString());
            Map<String, String> env = new HashMap<>();
            if (m.below(3) == 0) env.put("NCCL_ALGO", m.pick(ALGOS));
            if (m.below(4) == 0) env.put("NCCL_PROTO", m.pick(PROTOS));
            String[] args = {"perf", "--topology", file.toString(), "--op", m.pick(OPS), "-b", "1K", "-e", "64M", "-f", "256",
                    "--jobs", "1"};
            check("seed " + k + " " + env + " " + String.join(" ", args), args, env);
        }
    }

    /**
     * What-if flags on a catalog cluster: 1 to 3 random links of 4 HGX H100 nodes (or a glob of one's end) taken
     * down or degraded, a random collective and NCCL_ALGO; the same outcome asked of every run.
     */
    @Test
    void downAndDegradedLinksRunOrSayWhyNot() throws Exception {
        List<String> ids = TopologyCatalog.build("hgx-h100", new BuildOptions(0, 4, 1.0, 0)).links().stream()
                .map(io.ccsim.topology.Link::id).toList();
        for (int k = 0; k < RUNS / 2; k++) {
            Mutations m = new Mutations(10_000 + k);
            List<String> args = new ArrayList<>(List.of("perf", "--topology", "hgx-h100", "--nodes", "4", "--op", m.pick(OPS),
                    "-b", "1K", "-e", "64M", "-f", "256", "--jobs", "1"));
            for (int f = 1 + m.below(3); f > 0; f--) {
                String link = m.pick(ids);
                if (m.below(5) == 0) link = link.substring(0, link.indexOf('~')) + "~*";
                if (m.below(2) == 0) args.addAll(List.of("--down", link));
                else args.addAll(List.of("--degrade", link + "=" + m.pick(List.of("1e-6", "0.001", "0.1", "0.5", "1"))));
            }
            Map<String, String> env = new HashMap<>();
            if (m.below(3) == 0) env.put("NCCL_ALGO", m.pick(ALGOS));
            check("seed " + (10_000 + k) + " " + env + " " + String.join(" ", args), args.toArray(new String[0]), env);
        }
    }

    /** Runs one command line and asserts its outcome (see the class comment). */
    private static void check(String what, String[] args, Map<String, String> env) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Future<Integer> f = executor.submit(() -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), env));
        int code;
        try {
            code = f.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            f.cancel(true);
            throw new AssertionError(what + ": no result within " + LIMIT.toSeconds() + " s");
        }
        List<String> lines = err.toString().lines().toList();
        assertThat(code).as("%s: exit code; stderr %s", what, lines).isIn(0, 1, 3);
        if (code == 0) {
            assertThat(out.toString()).as(what).containsPattern("(?m)^# Avg bus bandwidth");
        } else {
            assertThat(lines).as(what).hasSize(1);
            assertThat(lines.get(0)).as(what).startsWith("ccsim: ").doesNotContain("internal error");
            assertThat(JAVA_NAME.matcher(lines.get(0)).find()).as("%s: %s", what, lines.get(0)).isFalse();
        }
    }

    /** One edit of topology document {@code t}, as a hand edit would make it. */
    private static void edit(JsonObject t, Mutations m) {
        JsonArray nodes = t.getAsJsonArray("nodes");
        JsonArray links = t.getAsJsonArray("links");
        switch (m.below(6)) {
            case 0 -> { if (links.size() > 2) removeLinks(t, Set.of(id(links.get(m.below(links.size()))))); }
            case 1 -> {
                String a = id(nodes.get(m.below(nodes.size())));
                String b = id(nodes.get(m.below(nodes.size())));
                if (a.equals(b)) return;
                String kind = m.pick(KINDS);
                links.add(link("x" + m.below(1_000_000) + "." + a + "~" + b, a, b, kind,
                        m.pick(List.of(1, 10, 25, 100, 400, 900)), m.pick(List.of(50.0, 500.0, 5000.0)), m.pick(SHARING),
                        m.pick(List.of(1, 4, 16))));
            }
            case 2 -> {
                if (links.isEmpty()) return;
                JsonObject l = links.get(m.below(links.size())).getAsJsonObject();
                l.addProperty("bandwidth_gbps", l.get("bandwidth_gbps").getAsDouble() * m.pick(List.of(0.001, 0.1, 0.5, 3.0)));
            }
            case 3 -> {
                if (links.isEmpty()) return;
                links.get(m.below(links.size())).getAsJsonObject().addProperty("latency_ns", m.pick(List.of(0.0, 1.0, 1e5)));
            }
            case 4 -> {
                if (nodes.size() <= 3) return;
                String v = id(nodes.remove(m.below(nodes.size())));
                removeLinks(t, endingAt(links, v));
            }
            default -> leaveOneLink(t, m);
        }
    }

    /** A GPU keeps one link, to another GPU (added if it had none): a leaf next to a node with other links. */
    private static void leaveOneLink(JsonObject t, Mutations m) {
        JsonArray nodes = t.getAsJsonArray("nodes");
        JsonArray links = t.getAsJsonArray("links");
        List<String> gpus = new ArrayList<>();
        for (JsonElement n : nodes) if (n.getAsJsonObject().get("kind").getAsString().equals("gpu")) gpus.add(id(n));
        if (gpus.size() < 2) return;
        String g = m.pick(gpus);
        String other = m.pick(gpus);
        if (g.equals(other)) return;
        removeLinks(t, endingAt(links, g));
        links.add(link(g + "~" + other, g, other, "nvlink", 400, 100.0, "full_duplex", 12));
    }

    /** A link of a topology document (a PCIe link is of generation 4). */
    private static JsonObject link(String id, String a, String b, String kind, double gbps, double latencyNs, String sharing,
                                   int lanes) {
        JsonObject l = new JsonObject();
        l.addProperty("id", id);
        l.addProperty("a", a);
        l.addProperty("b", b);
        l.addProperty("kind", kind);
        l.addProperty("bandwidth_gbps", gbps);
        l.addProperty("latency_ns", latencyNs);
        l.addProperty("sharing", sharing);
        l.addProperty("lanes", lanes);
        l.addProperty("pcie_gen", kind.equals("pcie") ? 4 : 0);
        return l;
    }

    private static Set<String> endingAt(JsonArray links, String node) {
        Set<String> ids = new HashSet<>();
        for (JsonElement l : links) {
            JsonObject o = l.getAsJsonObject();
            if (o.get("a").getAsString().equals(node) || o.get("b").getAsString().equals(node)) ids.add(id(l));
        }
        return ids;
    }

    /** Removes the links {@code ids} and their places in link groups (a group left empty goes too). */
    private static void removeLinks(JsonObject t, Set<String> ids) {
        JsonArray links = t.getAsJsonArray("links");
        for (int i = links.size() - 1; i >= 0; i--) if (ids.contains(id(links.get(i)))) links.remove(i);
        JsonArray groups = t.getAsJsonArray("groups");
        if (groups == null) return;
        for (int i = groups.size() - 1; i >= 0; i--) {
            JsonArray members = groups.get(i).getAsJsonObject().getAsJsonArray("members");
            for (int j = members.size() - 1; j >= 0; j--) if (ids.contains(members.get(j).getAsString())) members.remove(j);
            if (members.isEmpty()) groups.remove(i);
        }
    }

    private static String id(JsonElement e) {
        return e.getAsJsonObject().get("id").getAsString();
    }
}
