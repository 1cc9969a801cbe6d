package io.ccsim.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The interim ring engine's timing and data against hand-written equations. */
class RingEngineTest {
    private final Simulator sim = new Simulator(3);
    private final SimHost host = new SimHost(sim);
    private final Fabric fabric = new Fabric(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 1)));
    private final InterimRingEngine engine = new InterimRingEngine(host, fabric, Settings.defaults().ibAckTimeoutPs(), Settings.defaults().ibGiveUpPs());

    private CollectiveStats run(long bytes, int channels, int n) {
        int[] gpus = new int[n];
        for (int i = 0; i < n; i++) gpus[i] = i;
        List<CollectiveStats> out = new ArrayList<>();
        CollectiveEngine.Execution x = engine.start(new CollectiveEngine.Spec(CollectiveOp.ALL_REDUCE, bytes / 2,
                DataType.BFLOAT16, "t#1", 99, channels), gpus, gpus, new CollectiveEngine.Listener() {
                    @Override public void onRankDone(int r, long t) {}
                    @Override public void onAllDone(CollectiveStats s) { out.add(s); }
                    @Override public void onNetworkError(int s, String d) { throw new AssertionError(d); }
                });
        for (int r = n - 1; r >= 0; r--) x.launch(r);
        sim.run();
        return out.get(0);
    }

    @Test
    void nvlinkRingAllReduceTimeIsBusBytesOverPerChannelPortShare() {
        int n = 8, ch = 16;
        long bytes = 256L << 20;
        CollectiveStats s = run(bytes, ch, n);
        // every GPU's NVLink port group (18 NVLink4 links) carries ch sends out and ch receives in:
        // each channel gets capacity / ch; time = 2(n-1)/n x (bytes/ch) / (capacity/ch) + 2(n-1) x hop latency
        double port = fabric.topology().group("n0.gpu0.nvl").nominalCapacityBytesPerSec();
        double expectS = 2.0 * (n - 1) / n * bytes / port;
        long hopLatency = fabric.topology().link("n0.gpu0~n0.nvs0").latencyPs() * 2;
        long expect = (long) Math.ceil(expectS * Units.PS_PER_S) + 2L * (n - 1) * hopLatency;
        assertThat((double) s.durationPs()).isCloseTo(expect, org.assertj.core.data.Offset.offset(expect * 1e-6));
        assertThat(s.healthyPs()).isEqualTo(s.durationPs());
    }

    @Test
    void dataIsReducedExactlyAndABitFlipInTheAllGatherPhaseCorruptsARunOfRanks() {
        CollectiveStats ok = run(64L << 20, 4, 8);
        long sum = 0;
        for (long c : ok.inputChecksums()) sum += c;
        for (long c : ok.outputChecksums()) assertThat(c).isEqualTo(sum);

        Simulator sim2 = new Simulator(3);
        SimHost host2 = new SimHost(sim2);
        InterimRingEngine e2 = new InterimRingEngine(host2, fabric, Settings.defaults().ibAckTimeoutPs(), Settings.defaults().ibGiveUpPs());
        int[] gpus = {0, 1, 2, 3, 4, 5, 6, 7};
        List<CollectiveStats> out = new ArrayList<>();
        CollectiveEngine.Execution x = e2.start(new CollectiveEngine.Spec(CollectiveOp.ALL_REDUCE, 32L << 20,
                DataType.BFLOAT16, "t#1", 99, 4), gpus, gpus, new CollectiveEngine.Listener() {
                    @Override public void onRankDone(int r, long t) {}
                    @Override public void onAllDone(CollectiveStats s) { out.add(s); }
                    @Override public void onNetworkError(int s, String d) {}
                });
        for (int r = 0; r < 8; r++) x.launch(r);
        // 90 % into the collective: the all-gather phase (second half)
        host2.after(ok.durationPs() * 9 / 10, () -> e2.bitFlip(fabric.groupIndexOfLink("n0.gpu5~n0.nvs2")));
        sim2.run();
        CollectiveStats bad = out.get(0);
        List<Integer> wrong = new ArrayList<>();
        for (int i = 0; i < 8; i++) if (bad.outputChecksums()[i] != sum) wrong.add(i);
        assertThat(wrong).isNotEmpty().hasSizeLessThan(8);
        // a contiguous run in ring order starting right after a right rank
        int first = wrong.get(0);
        for (int i = 0; i < wrong.size(); i++) assertThat(wrong).contains((first + i) % 8);
    }

    @Test
    void aDegradedLinkSlowsItsChannelAndIsReportedAsBottleneck() {
        fabric.setFactor("n0.gpu4~n0.nvs0", 0.25);
        CollectiveStats s = run(256L << 20, 16, 8);
        // a striped port is paced by its slowest lane: the whole gpu4 port runs at 1/4
        assertThat((double) s.durationPs() / s.healthyPs()).isBetween(3.0, 4.0);
        assertThat(s.bottleneckLink()).isEqualTo("n0.gpu4~n0.nvs0");
        assertThat(s.bottleneckHealth()).isCloseTo(0.25, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(s.bottleneckSenders()).containsExactlyInAnyOrder(3, 4);
    }

    @Test
    void anIbOutageStallsTheRingUntilTheNextRetransmissionOrFailsAfterTheRetries() {
        Fabric two = new Fabric(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2)));
        Settings st = Settings.defaults();
        int[] gpus = new int[16];
        for (int i = 0; i < 16; i++) gpus[i] = i;
        long[] result = new long[3];
        for (long outage : new long[] {0, Units.s(2), Units.s(40)}) {
            Simulator s2 = new Simulator(1);
            SimHost h2 = new SimHost(s2);
            InterimRingEngine e = new InterimRingEngine(h2, two, st.ibAckTimeoutPs(), st.ibGiveUpPs());
            List<Object> out = new ArrayList<>();
            CollectiveEngine.Execution x = e.start(new CollectiveEngine.Spec(CollectiveOp.ALL_REDUCE, 1L << 29, DataType.BFLOAT16,
                    "t#1", 1, 16), gpus, gpus, new CollectiveEngine.Listener() {
                        @Override public void onRankDone(int r, long t) {}
                        @Override public void onAllDone(CollectiveStats cs) { out.add(cs); }
                        @Override public void onNetworkError(int sender, String d) { out.add(h2.now()); }
                    });
            for (int r = 0; r < 16; r++) x.launch(r);
            if (outage > 0) {
                h2.after(Units.ms(1), () -> { two.setDown("n1.nic2~leaf.r2.0", true); e.healthChanged(); });
                h2.after(Units.ms(1) + outage, () -> { two.setDown("n1.nic2~leaf.r2.0", false); e.healthChanged(); });
            }
            s2.run();
            Object o = out.get(0);
            result[outage == 0 ? 0 : outage == Units.s(2) ? 1 : 2] = o instanceof CollectiveStats cs ? cs.durationPs() : -(Long) o;
        }
        // a 2 s outage: the ring stands still from 1 ms until the first retransmission, one ACK timeout later
        assertThat((double) result[1]).isCloseTo(result[0] + st.ibAckTimeoutPs(), org.assertj.core.data.Offset.offset(1e3));
        // a 40 s outage outlasts 1 + NCCL_IB_RETRY_CNT timeouts: the sender's transport fails then
        assertThat(-result[2]).isEqualTo(Units.ms(1) + st.ibGiveUpPs());
    }
}
