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
        Topology t = TopologyCatalog.build("hgx-h200", BuildOptions.of(0, 40));
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
}
