package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RouterCacheTest {

    @Test
    void routesWithoutEcmpChoiceAreCachedOnceForAllFlowKeys() {
        Topology t = TopologyCatalog.build("hgx-h200");
        Route first = t.route("n0.gpu0", "n0.gpu5", 0);
        for (long flow = 1; flow < 100; flow++) {
            assertThat(t.route("n0.gpu0", "n0.gpu5", flow)).isSameAs(first);
        }
        assertThat(t.structure().router.cachedRoutes()).isEqualTo(1);
    }

    @Test
    void ecmpRoutesAreCachedPerFlowKey() {
        Topology t = TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 40)).withRouting(Routing.ECMP);
        for (long flow = 0; flow < 10; flow++) {
            t.route("n0.gpu0", "n39.gpu0", flow);
        }
        assertThat(t.structure().router.cachedRoutes()).isEqualTo(10);
    }

    @Test
    void uniqueRoutesDoNotDependOnWhichFlowKeyAskedFirst() {
        Topology a = TopologyCatalog.build("hgx-h200");
        Topology b = TopologyCatalog.build("hgx-h200");
        Route ra = a.route("n0.gpu2", "n0.gpu6", 0);
        Route rb = b.route("n0.gpu2", "n0.gpu6", 12345);
        assertThat(rb).isEqualTo(ra);
    }

    /**
     * Routes asked from several threads at once are the routes one thread gets: a concurrent computation must not
     * make another's ECMP route the one route of its pair (which changed simulated times of parallel perf sizes).
     */
    @Test
    void concurrentCallersGetTheRoutesOneCallerGets() throws Exception {
        Topology ref = TopologyCatalog.build("hgx-h100", BuildOptions.of(1, 64));
        Topology shared = TopologyCatalog.build("hgx-h100", BuildOptions.of(1, 64));
        int gpus = ref.gpus().size();
        java.util.List<java.util.concurrent.Callable<Boolean>> jobs = new java.util.ArrayList<>();
        for (int th = 0; th < 4; th++) {
            final int seed = th;
            jobs.add(() -> {
                java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
                for (int i = 0; i < 3000; i++) {
                    int a = rnd.nextInt(gpus);
                    int b = rnd.nextInt(gpus);
                    long flow = rnd.nextInt(4);
                    String src = shared.gpus().get(a).id();
                    String dst = shared.gpus().get(b).id();
                    if (!shared.route(src, dst, flow).equals(ref.route(src, dst, flow))) return false;
                }
                return true;
            });
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            for (java.util.concurrent.Future<Boolean> f : pool.invokeAll(jobs)) assertThat(f.get()).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }
}
