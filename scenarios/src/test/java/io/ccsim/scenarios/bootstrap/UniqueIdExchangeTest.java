package io.ccsim.scenarios.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.format.Units;
import io.ccsim.scenarios.store.PrefixStore;
import io.ccsim.scenarios.store.Store;
import io.ccsim.scenarios.store.TcpStore;
import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** ProcessGroupNCCL's unique-id exchange: one root under the counter's key, or one per block of ranks. */
class UniqueIdExchangeTest {
    private final Simulator sim = new Simulator(1);
    private final SimHost host = new SimHost(sim);
    private final TcpStore server = new TcpStore(host, 0, r -> Units.PS_PER_US);
    private final Store store = new PrefixStore("default_pg", server);
    private static final List<Integer> MEMBERS = List.of(0, 1, 2, 3);

    /** Runs the exchange on every member; returns the ids each got. */
    private Map<Integer, List<String>> exchange(Settings s, int initSeq, List<UniqueIdExchange> out) {
        Map<Integer, List<String>> got = new TreeMap<>();
        for (int r : MEMBERS) {
            UniqueIdExchange x = new UniqueIdExchange(store, r, r, MEMBERS, initSeq, s);
            out.add(x);
            x.run((idx, n, block) -> "root" + idx + "of" + n + block, a -> a, ids -> got.put(r, ids),
                    e -> got.put(r, List.of("error: " + e)));
        }
        sim.run();
        return got;
    }

    private static Settings ranksPerRoot(int k, boolean scoped) {
        Settings d = Settings.defaults();
        return new Settings(d.collectiveTimeoutPs(), d.storeTimeoutPs(), d.heartbeatTimeoutPs(), d.blockingWait(),
                d.asyncErrorHandling(), k, scoped, d.retryCount(), d.storeLatencyPs(), d.bootstrapLatencyPs(), d.channels(),
                d.ibTimeout(), d.ibRetryCount(), d.maxRestarts(), d.restartDelayPs(), d.horizonPs(), d.ncclEnv());
    }

    @Test
    void aSmallGroupReadsGroupRankZerosIdUnderTheCounter() {
        List<UniqueIdExchange> xs = new ArrayList<>();
        Map<Integer, List<String>> got = exchange(Settings.defaults(), 2, xs);
        assertThat(got.values()).containsOnly(List.of("root0of1[0, 1, 2, 3]"));
        assertThat(xs).allSatisfy(x -> {
            assertThat(x.scalable()).isFalse();
            assertThat(x.fullKeys()).containsExactly("default_pg/2");
            assertThat(x.myRoot()).isZero();
        });
    }

    @Test
    void aGroupLargerThanRanksPerRootHasOneRootPerBlockAndEveryoneReadsAll() {
        List<UniqueIdExchange> xs = new ArrayList<>();
        Map<Integer, List<String>> got = exchange(ranksPerRoot(2, false), 5, xs);
        assertThat(got.values()).containsOnly(List.of("root0of2[0, 1]", "root1of2[2, 3]"));
        assertThat(xs.get(3).scalable()).isTrue();
        assertThat(xs.get(3).myRoot()).isEqualTo(1);
        assertThat(xs.get(0).fullKeys()).containsExactly("default_pg/UniqueNCCLID:0", "default_pg/UniqueNCCLID:1");
        // scoped keys carry the init counter (pytorch PR #178493)
        assertThat(new UniqueIdExchange(store, 0, 0, MEMBERS, 5, ranksPerRoot(2, true)).fullKeys())
                .containsExactly("default_pg/5:UniqueNCCLID:0", "default_pg/5:UniqueNCCLID:1");
    }
}
