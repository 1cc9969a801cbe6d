package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * NCCL 2.28.9's CollNetDirect (all-reduce, all-gather, reduce-scatter) and CollNetChain model and enable rules
 * (CollNetModel) on 4 × HGX H100 with 8 or 4 NDR NICs each.
 */
class CollNetTunerTest {
    private static final NcclEnv ON = NcclEnv.parse(Map.of("NCCL_COLLNET_ENABLE", "1"));

    private static TuneInput input(boolean sharp, long bytes) {
        return input(sharp, 8, CollectiveOp.ALL_REDUCE, bytes);
    }

    private static TuneInput input(boolean sharp, int nics, CollectiveOp op, long bytes) {
        CommGraph g = CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 4).withSharp(sharp).withNicsPerNode(nics)), 32);
        return g.tuneInput(op, bytes);
    }

    private static Tuner tuner(NcclEnv env) { return new Tuner(CalibrationProfile.builtin("h100"), env); }

    private static Candidate candidate(TuneResult r, Algorithm a) {
        return r.candidates().stream().filter(c -> c.algorithm() == a).findFirst().orElseThrow();
    }

    private static String reason(TuneResult r, Algorithm a) {
        return r.unavailable().stream().filter(u -> u.algorithm() == a && u.protocol().isEmpty()).findFirst()
                .orElseThrow().reason();
    }

    @Test
    void graphsOfEightNdrNicsGiveNcclsNumbers() {
        CollNetGraph g = input(true, 1).collNet();
        assertThat(g.available()).isTrue();
        assertThat(g.heads()).isEqualTo(8);
        assertThat(g.headLocals()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(g.directChannels()).isEqualTo(8);
        assertThat(g.directBwGBs()).isEqualTo(48.0); // search ladder: first speed <= 50 GB/s NIC; no dup at 8 x 48
        assertThat(g.chainChannels()).isEqualTo(8);
        assertThat(g.chainBwGBs()).isEqualTo(48.0);
        TuneResult r = tuner(ON).tune(input(true, 1L << 20));
        Candidate direct = candidate(r, Algorithm.COLLNET_DIRECT);
        Candidate chain = candidate(r, Algorithm.COLLNET_CHAIN);
        // Direct: 8 x 48 / (1 - 0) x 0.85 x 0.5 = 163.2 GB/s; 2 (3.7 + 7 x 0.4) + 31 = 44 us
        assertThat(direct.bandwidthGBs()).isCloseTo(163.2, within(1e-9));
        assertThat(direct.latencyUs()).isCloseTo(44.0, within(1e-9));
        // Chain: 8 x 48 x 0.5 = 192 GB/s; 2 x 7 x 2.8 + 30 = 69.2 us
        assertThat(chain.bandwidthGBs()).isCloseTo(192.0, within(1e-9));
        assertThat(chain.latencyUs()).isCloseTo(69.2, within(1e-9));
        assertThat(direct.costUs()).isCloseTo(44.0 + (1 << 20) / (1000 * 163.2), within(1e-9));
    }

    @Test
    void ncclPicksDirectForMidSizesAndChainForLargeOnes() {
        Tuner t = tuner(ON);
        assertThat(t.tune(input(true, 4L << 20)).winner().algorithm()).isEqualTo(Algorithm.COLLNET_DIRECT);
        // Direct = Chain at 44 + B/163.2e3 = 69.2 + B/192e3, B ≈ 27 MB
        assertThat(t.tune(input(true, 256L << 20)).winner().algorithm()).isEqualTo(Algorithm.COLLNET_CHAIN);
    }

    @Test
    void refusedWithNcclsReasons() {
        TuneResult off = tuner(NcclEnv.empty()).tune(input(true, 1 << 20));
        assertThat(reason(off, Algorithm.COLLNET_DIRECT)).contains("NCCL_COLLNET_ENABLE");
        TuneResult noSharp = tuner(ON).tune(input(false, 1 << 20));
        assertThat(reason(noSharp, Algorithm.COLLNET_CHAIN)).contains("no SHARP-capable network");
        TuneResult prod = tuner(ON).tune(input(true, 1 << 20).withData(DataType.FLOAT32, ReduceOp.PROD));
        assertThat(reason(prod, Algorithm.COLLNET_DIRECT)).contains("cannot reduce prod");
        CommGraph one = CommGraph.of(TopologyCatalog.build("hgx-h100", BuildOptions.of(8, 1)), 8);
        TuneResult single = tuner(ON).tune(one.tuneInput(CollectiveOp.ALL_REDUCE, 1 << 20));
        assertThat(reason(single, Algorithm.COLLNET_DIRECT)).contains("one node");
        assertThat(NcclEnv.parse(Map.of("NCCL_COLLNET_ENABLE", "2")).collNetEnable()).isFalse(); // NCCL sets it to 0
        assertThat(NcclEnv.HONOURED).contains("NCCL_COLLNET_ENABLE");
    }

    @Test
    void allGatherAndReduceScatterFollowNcclsDirectFormula() {
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER}) {
            long bytes = 32L << 20; // NCCL's nBytes: the whole 32-rank buffer
            TuneResult r = tuner(ON).tune(input(true, 8, op, bytes));
            Candidate direct = candidate(r, Algorithm.COLLNET_DIRECT);
            // ppn x min(bwIntra, 0.9 bwInter) = 8 x min(48, 43.2) = 345.6 GB/s, not converted (the whole buffer);
            // latency as all-reduce's: 2 (min(1, 7) x 3.7 + 7 x 0.4) + 31 = 44 us
            assertThat(direct.bandwidthGBs()).as(op.cliName()).isCloseTo(345.6, within(1e-9));
            assertThat(direct.latencyUs()).as(op.cliName()).isCloseTo(44.0, within(1e-9));
            assertThat(direct.costUs()).as(op.cliName()).isCloseTo(44.0 + bytes / (1000 * 345.6), within(1e-9));
            // channels drop while nBytes < nc x 640 threads x 8 heads x 512 = nc x 2.62 MB: 13 need 34.1 MB,
            // 12 need 31.5 MB, so 32 MiB (33.6 MB) keeps 12
            assertThat(direct.channels()).as(op.cliName()).isEqualTo(12);
            assertThat(r.winner().algorithm()).as(op.cliName()).isEqualTo(Algorithm.COLLNET_DIRECT);
            // Ring/Simple: 16 channels x 25 GB/s x 32/31 = 412.9 GB/s beats 345.6 once the latency is paid
            assertThat(tuner(ON).tune(input(true, 8, op, 2L << 30)).winner().algorithm()).as(op.cliName())
                    .isEqualTo(Algorithm.RING);
        }
    }

    @Test
    void allGatherAsksNoReductionOfTheNetworkReduceScatterDoes() {
        TuneInput ag = input(true, 8, CollectiveOp.ALL_GATHER, 1 << 20).withData(DataType.FP8_E4M3, ReduceOp.SUM);
        assertThat(tuner(ON).tune(ag).candidates()).anyMatch(c -> c.algorithm() == Algorithm.COLLNET_DIRECT);
        TuneInput rs = input(true, 8, CollectiveOp.REDUCE_SCATTER, 1 << 20).withData(DataType.FLOAT32, ReduceOp.PROD);
        assertThat(reason(tuner(ON).tune(rs), Algorithm.COLLNET_DIRECT)).contains("cannot reduce prod");
    }

    @Test
    void fourNicsForEightGpusGiveFourHeadsHalfTheBandwidthAndNoAllGather() {
        CollNetGraph g = input(true, 4, CollectiveOp.ALL_REDUCE, 1).collNet();
        assertThat(g.headLocals()).containsExactly(0, 2, 4, 6); // the NICs' local GPUs
        // the search finds 4 channels at 48 GB/s (one per NIC); ncclTopoDupChannels doubles them to 8 at 48 / 2 = 24
        assertThat(g.directChannels()).isEqualTo(8);
        assertThat(g.directBwGBs()).isEqualTo(24.0);
        Candidate direct = candidate(tuner(ON).tune(input(true, 4, CollectiveOp.ALL_REDUCE, 1 << 20)), Algorithm.COLLNET_DIRECT);
        // GPU/NIC factor = ppn / nChannels = 8 / 8 = 1, so 8 x 24 / 1 x 0.85 x 0.5 = 81.6 GB/s (8 NICs: 163.2)
        assertThat(direct.bandwidthGBs()).isCloseTo(81.6, within(1e-9));
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER}) {
            TuneResult r = tuner(ON).tune(input(true, 4, op, 1 << 20));
            assertThat(reason(r, Algorithm.COLLNET_DIRECT)).contains("requires 1:1 GPU:NIC")
                    .contains("8 ranks per node, 4 CollNet heads");
        }
    }

    @Test
    void ncclAlgoCollNetDirectOnAllGatherNeedsCollNetEnabled() {
        NcclEnv only = NcclEnv.parse(Map.of("NCCL_ALGO", "CollNetDirect"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> tuner(only).tune(input(true, 8, CollectiveOp.ALL_GATHER, 1 << 20)))
                .isInstanceOf(TunerException.class).hasMessageContaining("NCCL_COLLNET_ENABLE is not 1");
        NcclEnv on = NcclEnv.parse(Map.of("NCCL_ALGO", "CollNetDirect", "NCCL_COLLNET_ENABLE", "1"));
        assertThat(tuner(on).tune(input(true, 8, CollectiveOp.ALL_GATHER, 1 << 20)).winner().algorithm())
                .isEqualTo(Algorithm.COLLNET_DIRECT);
    }

    @Test
    void directDropsChannelsForSmallSizesAsTopoGetAlgoInfoDoes() {
        TuneInput in = input(true, 1);
        // nBytes < nc x 640 x 8 heads x 512: 16 channels need 41.9 MB; 1 byte goes down to 1 channel
        assertThat(CollNetModel.channels(in, Algorithm.COLLNET_DIRECT, 1, 16)).isEqualTo(1);
        assertThat(CollNetModel.channels(in.withBytes(1L << 30), Algorithm.COLLNET_DIRECT, 1, 16)).isEqualTo(16);
        // Chain: nBytes < nc x 640 x 512 = 327,680 x nc
        assertThat(CollNetModel.channels(in.withBytes(4 * 327_680L), Algorithm.COLLNET_CHAIN, 1, 16)).isEqualTo(4);
    }
}
