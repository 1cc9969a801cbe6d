package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.sim.Sharing;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The bidirectional router against a plain full Dijkstra on random graphs with many ties. */
class RouterPropertyTest {

    static Topology randomGraph(long seed, int n, int extraLinks) {
        Random rnd = new Random(seed);
        Topology.Builder b = Topology.builder("random-" + seed, seed);
        for (int i = 0; i < n; i++) {
            b.node(new Node("v" + i, NodeKind.NET_SWITCH, -1, i));
        }
        int id = 0;
        long[] lat = {1000, 1000, 2000, 3000};
        for (int i = 1; i < n; i++) { // a random spanning tree keeps it connected
            int j = rnd.nextInt(i);
            b.link(new Link("l" + id++, "v" + j, "v" + i, LinkKind.INFINIBAND, 1e9, lat[rnd.nextInt(4)],
                    Sharing.FULL_DUPLEX, 1, 0, null));
        }
        for (int k = 0; k < extraLinks; k++) {
            int i = rnd.nextInt(n);
            int j = rnd.nextInt(n);
            if (i != j) {
                b.link(new Link("l" + id++, "v" + i, "v" + j, LinkKind.INFINIBAND, 1e9, lat[rnd.nextInt(4)],
                        Sharing.FULL_DUPLEX, 1, 0, null));
            }
        }
        return b.build();
    }

    /** (hops, latency) of the best path from src to every node, by a textbook Dijkstra on the pair. */
    static long[][] dijkstra(Topology t, int src) {
        int n = t.nodes().size();
        long[] hops = new long[n];
        long[] lat = new long[n];
        Arrays.fill(hops, Long.MAX_VALUE);
        hops[src] = 0;
        lat[src] = 0;
        PriorityQueue<long[]> q = new PriorityQueue<>((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0])
                : Long.compare(x[1], y[1]));
        q.add(new long[] {0, 0, src});
        boolean[] done = new boolean[n];
        while (!q.isEmpty()) {
            long[] e = q.poll();
            int v = (int) e[2];
            if (done[v]) {
                continue;
            }
            done[v] = true;
            for (Link l : t.neighbours(t.nodes().get(v).id())) {
                int w = t.nodeIndex(l.other(t.nodes().get(v).id()));
                long h = e[0] + 1;
                long d = e[1] + l.latencyPs();
                if (h < hops[w] || (h == hops[w] && d < lat[w])) {
                    hops[w] = h;
                    lat[w] = d;
                    q.add(new long[] {h, d, w});
                }
            }
        }
        return new long[][] {hops, lat};
    }

    static void assertValidPath(Topology t, String src, String dst, Route r) {
        String cur = src;
        long latency = 0;
        for (int i = 0; i < r.length(); i++) {
            Link l = t.link(r.linkIds().get(i));
            assertThat(l.a().equals(cur) || l.b().equals(cur)).as("link %s continues at %s", l.id(), cur).isTrue();
            assertThat(r.groupAt(i)).isEqualTo(t.groupOf(l.id()).index());
            assertThat(r.reverseAt(i)).isEqualTo(!l.a().equals(cur));
            latency += l.latencyPs();
            cur = l.other(cur);
        }
        assertThat(cur).isEqualTo(dst);
        assertThat(r.latencyPs()).isEqualTo(latency);
    }

    @Test
    void routesAreShortestAndContiguous() {
        for (long seed = 0; seed < 30; seed++) {
            Topology t = randomGraph(seed, 40, 60);
            Random rnd = new Random(seed);
            for (int k = 0; k < 40; k++) {
                int s = rnd.nextInt(40);
                int d = rnd.nextInt(40);
                long[][] best = dijkstra(t, s);
                for (long flow = 0; flow < 3; flow++) {
                    Route r = t.route(s, d, flow);
                    String src = t.nodes().get(s).id();
                    String dst = t.nodes().get(d).id();
                    assertValidPath(t, src, dst, r);
                    assertThat((long) r.length()).as("hops %s->%s seed %d", src, dst, seed).isEqualTo(best[0][d]);
                    assertThat(r.latencyPs()).isEqualTo(best[1][d]);
                }
            }
        }
    }

    /**
     * Every pair, both routings, on sparse graphs: a destination one hop from the source can be found by the forward
     * search alone, which then stops before the backward one settles the destination (a leaf next to a hub).
     */
    @Test
    void everyPairIsRoutedOnSparseGraphs() {
        for (long seed = 0; seed < 12; seed++) {
            Topology g = randomGraph(seed, 24, 4);
            for (Routing routing : Routing.values()) {
                Topology t = g.withRouting(routing);
                for (int s = 0; s < 24; s++) {
                    long[][] best = dijkstra(t, s);
                    for (int d = 0; d < 24; d++) {
                        Route r = t.route(s, d, s + d);
                        String src = t.nodes().get(s).id();
                        String dst = t.nodes().get(d).id();
                        assertValidPath(t, src, dst, r);
                        assertThat((long) r.length()).as("hops %s->%s seed %d %s", src, dst, seed, routing)
                                .isEqualTo(best[0][d]);
                        assertThat(r.latencyPs()).isEqualTo(best[1][d]);
                    }
                }
            }
        }
    }

    /** Two GPUs joined by one NVLink, the second also on a CPU: the route from the first took the internal error. */
    @Test
    void leafNextToHub() {
        Topology.Builder b = Topology.builder("leaf-gpu", 0);
        b.node(new Node("g0", NodeKind.GPU, 0, 0));
        b.node(new Node("g1", NodeKind.GPU, 0, 1));
        b.node(new Node("cpu", NodeKind.CPU, 0, 0));
        b.link(new Link("g0~g1", "g0", "g1", LinkKind.NVLINK, 4e11, 100_000, Sharing.FULL_DUPLEX, 12, 0, null));
        b.link(new Link("g1~cpu", "g1", "cpu", LinkKind.PCIE, 2.6e10, 250_000, Sharing.FULL_DUPLEX, 16, 4, null));
        Topology t = b.build();
        assertThat(t.route("g0", "g1", 0).linkIds()).containsExactly("g0~g1");
        assertThat(t.route("g0", "cpu", 0).linkIds()).containsExactly("g0~g1", "g1~cpu");
        assertThat(t.route("g1", "g0", 0).linkIds()).containsExactly("g0~g1");
    }

    /**
     * A pair whose only shortest path runs through one common neighbour is routed without a search: the route must be
     * the one the search finds (hops, latency, link ids), on random graphs and catalog clusters, either routing.
     */
    @Test
    void theOneNeighbourShortcutIsTheSearchedRoute() {
        List<Topology> graphs = new java.util.ArrayList<>();
        for (long seed = 0; seed < 20; seed++) graphs.add(randomGraph(seed, 24, (int) (seed % 5)));
        graphs.add(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 40)));
        graphs.add(TopologyCatalog.build("pcie-8gpu", BuildOptions.of(0, 1)));
        graphs.add(TopologyCatalog.build("gb200-nvl72", BuildOptions.of(0, 1)));
        int shortcuts = 0;
        for (Topology g : graphs) {
            for (Routing routing : Routing.values()) {
                Topology t = g.withRouting(routing);
                Router searcher = new Router(t.nodes().size(), routing);
                int n = t.nodes().size();
                Random rnd = new Random(n);
                for (int k = 0; k < Math.min(20_000, n * n); k++) {
                    int s = n * n <= 20_000 ? k / n : rnd.nextInt(n);
                    int d = n * n <= 20_000 ? k % n : rnd.nextInt(n);
                    Route cut = Router.shortcut(t, s, d);
                    if (cut == null) continue;
                    shortcuts++;
                    Route full = searcher.searched(t, s, d, k);
                    assertThat(cut.hops()).as("%s %s -> %s", t.name(), s, d).containsExactly(full.hops());
                    assertThat(cut.latencyPs()).isEqualTo(full.latencyPs());
                    assertThat(cut.linkIds()).isEqualTo(full.linkIds());
                    assertThat(t.route(s, d, k + 1).linkIds()).isEqualTo(full.linkIds());
                }
            }
        }
        assertThat(shortcuts).isGreaterThan(1_000);
    }

    @Test
    void catalogRoutesAreContiguous() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 40));
        List<Node> g = t.gpus();
        Random rnd = new Random(5);
        for (int k = 0; k < 200; k++) {
            String a = g.get(rnd.nextInt(g.size())).id();
            String b = g.get(rnd.nextInt(g.size())).id();
            assertValidPath(t, a, b, t.route(a, b, k));
        }
    }

    @Test
    void concurrentQueriesAgreeWithSequentialOnes() throws Exception {
        Topology shared = TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 40));
        Topology fresh = TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 40));
        List<Node> g = shared.gpus();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Route>> futures = new java.util.ArrayList<>();
            for (int k = 0; k < 400; k++) {
                int i = k % g.size();
                int j = (k * 37 + 11) % g.size();
                long flow = k % 5;
                futures.add(pool.submit(() -> shared.route(g.get(i).id(), g.get(j).id(), flow)));
            }
            for (int k = 0; k < 400; k++) {
                int i = k % g.size();
                int j = (k * 37 + 11) % g.size();
                assertThat(futures.get(k).get()).isEqualTo(fresh.route(g.get(i).id(), g.get(j).id(), k % 5));
            }
        } finally {
            pool.shutdown();
        }
    }
}
