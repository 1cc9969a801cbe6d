package io.ccsim.scenarios.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.format.Step;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Route;
import io.ccsim.topology.TopologyCatalog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Symmetric-memory all-reduces on the flow network. On one HGX H100 board every GPU's NVLink port group
 * is one full-duplex constraint of capacity C each way, C x e while the other direction is busy too (the
 * profile's duplex efficiency e). With all ranks loading from all peers at once every GPU sends and
 * receives, and its ingress carries n-1 equal flows: each gets C e / (n-1), and a phase moving b bytes
 * per flow takes (n-1) b / (C e).
 */
class SymmetricAllReduceTest {
    private static final Settings ST = Settings.defaults();

    private final Simulator sim = new Simulator(5);
    private final SimHost host = new SimHost(sim);
    private final Cluster cluster = new Cluster(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 1)));
    private final SimCollectiveEngine engine = new SimCollectiveEngine(host, cluster, SimCollectiveEngine.profileFor(cluster.topology()),
            ST.nccl(), ST.ibAckTimeoutPs(), ST.ibGiveUpPs(), 7);
    private final List<Long> done = new ArrayList<>();

    private CollectiveEngine.Execution start(Step.SymmAlgo algo, long bytes, int n) {
        int[] gpus = new int[n];
        for (int i = 0; i < n; i++) gpus[i] = i;
        return engine.startSymmetric(algo, bytes, gpus, done::add);
    }

    /** C e: the ingress capacity of GPU 0's NVLink port group while it also sends, bytes/s. */
    private double portCapacity() {
        int n0 = cluster.topology().nodeIndex(cluster.gpuId(0));
        int n1 = cluster.topology().nodeIndex(cluster.gpuId(1));
        Route r = engine.routes.route(n1, n0, 0, false);
        int g = r.groupAt(r.length() - 1);
        return engine.flowCapacity(g) * engine.network().duplexEfficiency(g);
    }

    private static long phasePs(long bytesPerFlow, int n, double capacity) {
        return (long) Math.ceil((n - 1) * bytesPerFlow * 1e12 / capacity);
    }

    @Test
    void oneShotLoadsTheWholeBufferFromEveryPeerThenPaysItsBaseLatency() {
        long bytes = 8L << 20;
        CollectiveEngine.Execution x = start(Step.SymmAlgo.ONE_SHOT, bytes, 8);
        for (int r = 0; r < 8; r++) x.launch(r);
        sim.run();
        long expected = phasePs(bytes, 8, portCapacity()) + SymmetricAllReduce.ONE_SHOT_BASE_PS;
        assertThat(done).hasSize(1);
        assertThat((double) done.get(0)).isCloseTo(expected, org.assertj.core.data.Offset.offset(2.0));
        assertThat(x.isRankDone(3)).isTrue();
    }

    @Test
    void twoShotMovesASliceInThenOutThenPaysItsBaseLatency() {
        long bytes = 8L << 20;
        CollectiveEngine.Execution x = start(Step.SymmAlgo.TWO_SHOT, bytes, 8);
        for (int r = 0; r < 8; r++) x.launch(r);
        sim.run();
        long slice = bytes / 8;
        long expected = 2 * phasePs(slice, 8, portCapacity()) + SymmetricAllReduce.TWO_SHOT_BASE_PS;
        assertThat((double) done.get(0)).isCloseTo(expected, org.assertj.core.data.Offset.offset(4.0));
        // at 8 MiB two-shot moves 2 x 7/8 of the buffer per GPU instead of 7 buffers: faster than one-shot's data alone
        assertThat(done.get(0)).isLessThan(phasePs(bytes, 8, portCapacity()));
    }

    @Test
    void nothingMovesUntilEveryRankLaunched() {
        CollectiveEngine.Execution x = start(Step.SymmAlgo.ONE_SHOT, 1 << 20, 4);
        for (int r = 0; r < 3; r++) x.launch(r);
        sim.run();
        assertThat(done).isEmpty();
        assertThat(engine.network().activeFlowCount()).isZero();
        host.after(1_000_000, () -> x.launch(3));
        sim.run();
        assertThat(done).hasSize(1);
        assertThat(done.get(0)).isGreaterThan(1_000_000L + SymmetricAllReduce.ONE_SHOT_BASE_PS);
    }

    @Test
    void anAbortedAllReduceReportsNothing() {
        CollectiveEngine.Execution x = start(Step.SymmAlgo.TWO_SHOT, 1 << 20, 2);
        x.launch(0);
        x.launch(1);
        x.abort();
        sim.run();
        assertThat(done).isEmpty();
    }

    @Test
    void twoShotSlicesAreRoundedUpToTheAlignmentTimesTheRanks() {
        // 1000 B over 8 ranks: rounded up to 16 x 8 = 128 B units, 1024 / 8 = 128 B each
        assertThat(SymmetricAllReduce.sliceBytes(1000, 8)).isEqualTo(128);
        assertThat(SymmetricAllReduce.sliceBytes(1 << 20, 8)).isEqualTo((1 << 20) / 8);
    }

    @Test
    void onlyGpusOfOneNvlinkDomainMapEachOther() {
        Cluster two = new Cluster(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2)));
        Simulator s = new Simulator(1);
        SimCollectiveEngine e = new SimCollectiveEngine(new SimHost(s), two, SimCollectiveEngine.profileFor(two.topology()), ST.nccl(),
                ST.ibAckTimeoutPs(), ST.ibGiveUpPs(), 7);
        assertThat(e.p2pReachable(0, 7)).isTrue();
        assertThat(e.p2pReachable(0, 8)).as("GPU 8 is on the second host").isFalse();
    }
}
