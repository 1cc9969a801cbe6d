package io.ccsim.algorithms.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an extrapolation plans for a target it never builds, and what it refuses. */
class ExtrapolatorTest {
    private static final Map<Integer, Topology> BUILT = new HashMap<>();

    private static Topology hgx(int nodes) {
        return BUILT.computeIfAbsent(nodes, n -> TopologyCatalog.build("hgx-h100", BuildOptions.of(0, n)));
    }

    private static Extrapolator to(int nodes, Map<String, String> env) {
        return new Extrapolator(ExtrapolatorTest::hgx, nodes, "hgx-h100-" + nodes + "n", 32, CalibrationProfile.builtin("h100"),
                NcclEnv.parse(env), 0);
    }

    /**
     * 12,500 HGX nodes, 1 GiB all-reduce: NCCL's choice there is Tree/Simple on 16 channels (as on 128 built nodes);
     * the tree's samples are 12,500 >> 9 and >> 8 nodes (24 within a leaf, 48 across), at the same count. Forced to Ring on 100 nodes (800 ranks),
     * the samples are 32 and 64 nodes, each at the target's ceil(268,435,456 / (800 × 16)) = 20,972 floats per step.
     */
    @Test
    void theTargetsChoiceAndItsSamples() {
        Extrapolator.SizePlan tree = to(12_500, Map.of()).plan(CollectiveOp.ALL_REDUCE, 1L << 30, DataType.FLOAT32, ReduceOp.SUM, 0);
        assertThat(tree.choice()).isEqualTo("NVLSTree/Simple x16");
        assertThat(tree.law()).isEqualTo(ScalingLaw.TREE);
        assertThat(tree.count()).isEqualTo(1L << 28);
        assertThat(tree.samples()).containsExactly(new Extrapolator.Sample(24, 1L << 28, 0), new Extrapolator.Sample(48, 1L << 28, 0));
        Extrapolator.SizePlan ring = to(100, Map.of("NCCL_ALGO", "Ring")).plan(CollectiveOp.ALL_REDUCE, 1L << 30,
                DataType.FLOAT32, ReduceOp.SUM, 0);
        assertThat(ring.algo()).isEqualTo(Algorithm.RING);
        assertThat(ring.samples()).containsExactly(new Extrapolator.Sample(32, 20_972L * 256 * 16, 0),
                new Extrapolator.Sample(64, 20_972L * 512 * 16, 0));
    }

    /**
     * All-to-all (NCCL's placement) on 64 HGX nodes from samples of 16 and 32 at the target's 8 KiB per peer (LL, one
     * channel a peer everywhere): the law's time equals the folded simulation's to 0.01 %; a target whose samples would
     * give a peer more channels than it does is refused.
     */
    @Test
    void anAllToAllFollowsItsPeersLaw() {
        Extrapolator x = to(64, Map.of());
        long bytes = 8192L * 512;
        Extrapolator.SizePlan p = x.plan(CollectiveOp.ALL_TO_ALL, bytes, DataType.FLOAT32, ReduceOp.SUM, 0);
        assertThat(p.law()).isEqualTo(ScalingLaw.PEERS);
        assertThat(p.samples()).containsExactly(new Extrapolator.Sample(16, 2048, 0), new Extrapolator.Sample(32, 2048, 0));
        double law = x.run(CollectiveOp.ALL_TO_ALL, bytes, DataType.FLOAT32, ReduceOp.SUM, 0).row().timeUs();
        double folded = x.runnerAt(64).run(CollectiveOp.ALL_TO_ALL, bytes, DataType.FLOAT32, ReduceOp.SUM, 0).timeUs();
        assertThat(Math.abs(law - folded) / folded).as("law %.3f, folded %.3f", law, folded).isLessThan(1e-4);
        // 8 nodes (64 ranks: one channel a peer) would take samples of 2 and 4 nodes (16 and 32 ranks: two)
        assertThatThrownBy(() -> to(8, Map.of()).plan(CollectiveOp.ALL_TO_ALL, 8192L * 64, DataType.FLOAT32, ReduceOp.SUM, 0))
                .isInstanceOf(NotExtrapolatedException.class)
                .hasMessageContaining("a sample of 2 nodes gives each peer 2 channels where the target gives 1");
    }

    /** A ring is extrapolated up to 4 leaf groups (128 nodes of 32 per leaf), not beyond: long rings slow down. */
    @Test
    void aRingBeyondFourLeafGroupsIsRefused() {
        assertThat(to(128, Map.of("NCCL_ALGO", "Ring")).plan(CollectiveOp.ALL_GATHER, 1L << 30, DataType.FLOAT32,
                ReduceOp.SUM, 0).law()).isEqualTo(ScalingLaw.RING);
        assertThatThrownBy(() -> to(129, Map.of("NCCL_ALGO", "Ring")).plan(CollectiveOp.ALL_GATHER, 1L << 30, DataType.FLOAT32,
                ReduceOp.SUM, 0)).isInstanceOf(NotExtrapolatedException.class)
                .hasMessageContaining("a ring, which is extrapolated up to 4 leaf groups (128 nodes here)");
    }

    /**
     * A chain (ring broadcast) of 1 GiB over 16 channels is a train of 1,024 units of 64 KiB: extrapolated by CHAIN on
     * 256 nodes (2,048 ranks, two trains; samples of 32 and 64 units, 2 and 4 MiB a channel), by TRAIN on 100 (800
     * ranks, no more than the train; samples of 2, 4 and 8 nodes at the target's train, whose half is too short for a
     * sample train), refused on 200 (1,600 ranks, between one train and two) with the node counts where it is.
     */
    @Test
    void aChainIsATrainOrTwoTrainsLong() {
        Map<String, String> simple = Map.of("NCCL_PROTO", "Simple"); // NCCL's own choice there is LL128
        Extrapolator.SizePlan p = to(256, simple).plan(CollectiveOp.BROADCAST, 1L << 30, DataType.FLOAT32, ReduceOp.SUM, 0);
        assertThat(p.law()).isEqualTo(ScalingLaw.CHAIN);
        assertThat(p.units()).isEqualTo(1_024);
        assertThat(p.samples()).extracting(Extrapolator.Sample::nodes).containsExactly(16, 32, 64, 128, 32, 64, 128);
        assertThat(p.samples()).extracting(Extrapolator.Sample::units).containsExactly(32L, 32L, 32L, 32L, 64L, 64L, 64L);
        assertThat(p.samples().get(0).count()).isEqualTo((1L << 30) / 4 / 32);
        Extrapolator.SizePlan train = to(100, simple).plan(CollectiveOp.BROADCAST, 1L << 30, DataType.FLOAT32, ReduceOp.SUM, 0);
        assertThat(train.law()).isEqualTo(ScalingLaw.TRAIN);
        assertThat(train.samples()).containsExactly(new Extrapolator.Sample(2, 1L << 28, 0, 1_024),
                new Extrapolator.Sample(4, 1L << 28, 0, 1_024), new Extrapolator.Sample(8, 1L << 28, 0, 1_024));
        assertThatThrownBy(() -> to(200, simple).plan(CollectiveOp.BROADCAST, 1L << 30, DataType.FLOAT32, ReduceOp.SUM, 0))
                .isInstanceOf(NotExtrapolatedException.class).hasMessageContaining("a chain of 1600 ranks longer than its"
                        + " train (1024 forwarding units per channel) but shorter than two of them")
                .hasMessageContaining("up to 128 nodes and from 256 nodes on");
        // 64 MiB (64 units) on 200 nodes is 25 trains long, but samples of 32 and 64 units need 16 to 128 nodes, up to
        // half the target: not extrapolated (shorter trains missed such targets by 2 to 4 %)
        assertThatThrownBy(() -> to(200, simple).plan(CollectiveOp.BROADCAST, 64L << 20, DataType.FLOAT32, ReduceOp.SUM, 0))
                .isInstanceOf(NotExtrapolatedException.class).hasMessageContaining("a chain whose samples (trains of up"
                        + " to 64 units, 4 or more trains long, on up to half the target) need 256 nodes or more");
    }

    /**
     * NCCL's choice for a 1 GiB broadcast on 12,500 HGX nodes is Ring/LL on 2 channels: a train of 131,072 units of
     * 4 KiB on a chain of 100,000 ranks. Its samples run 8 and 16 MiB (1,024 and 2,048 units: the shortest halving of
     * 1,024 units or more, and its double) on 2, 4 and 8 nodes.
     */
    @Test
    void aTrainLongerThanItsChainSamplesShorterTrains() {
        Extrapolator.SizePlan p = to(12_500, Map.of()).plan(CollectiveOp.BROADCAST, 1L << 30, DataType.FLOAT32, ReduceOp.SUM, 0);
        assertThat(p.choice()).isEqualTo("Ring/LL x2");
        assertThat(p.law()).isEqualTo(ScalingLaw.TRAIN);
        assertThat(p.units()).isEqualTo(131_072);
        // 256 MiB there is Ring/LL x1, 65,536 units on 100,000 ranks: between one train and two, on CHAIN's line
        Extrapolator.SizePlan gap = to(12_500, Map.of()).plan(CollectiveOp.BROADCAST, 1L << 28, DataType.FLOAT32,
                ReduceOp.SUM, 0);
        assertThat(gap.choice()).isEqualTo("Ring/LL x1");
        assertThat(gap.law()).isEqualTo(ScalingLaw.CHAIN);
        assertThat(gap.units()).isEqualTo(65_536);
        assertThat(p.samples()).containsExactly(new Extrapolator.Sample(2, 1L << 21, 0, 1_024),
                new Extrapolator.Sample(4, 1L << 21, 0, 1_024), new Extrapolator.Sample(8, 1L << 21, 0, 1_024),
                new Extrapolator.Sample(2, 1L << 22, 0, 2_048), new Extrapolator.Sample(4, 1L << 22, 0, 2_048),
                new Extrapolator.Sample(8, 1L << 22, 0, 2_048));
    }

    /** A root outside the target's ranks is refused before anything else. */
    @Test
    void aRootOutsideTheTargetIsRefused() {
        assertThatThrownBy(() -> to(100, Map.of()).plan(CollectiveOp.BROADCAST, 1L << 20, DataType.FLOAT32, ReduceOp.SUM, 800))
                .hasMessage("root 800 is not a rank of the 800-rank target; valid: 0..799");
    }

    @Test
    void choicesWithoutALawAreRefusedNamingThem() {
        assertThatThrownBy(() -> to(100, Map.of()).plan(CollectiveOp.SEND_RECV, 1L << 30, DataType.FLOAT32, ReduceOp.SUM, 0))
                .isInstanceOf(NotExtrapolatedException.class)
                .hasMessageStartingWith("sendrecv of 1073741824 B on 100 nodes runs P2P/Simple x1 (NCCL's choice there),"
                        + " which is not extrapolated: send/recv");
        Extrapolator onePerNode = new Extrapolator(n -> TopologyCatalog.build("hgx-h100", BuildOptions.of(1, n)), 1000, "t", 32,
                CalibrationProfile.builtin("h100"), NcclEnv.parse(Map.of("NCCL_ALGO", "PAT")), 0);
        assertThatThrownBy(() -> onePerNode.plan(CollectiveOp.ALL_GATHER, 1L << 20, DataType.FLOAT32, ReduceOp.SUM, 0))
                .isInstanceOf(NotExtrapolatedException.class).hasMessageContaining("PAT/Simple").hasMessageContaining("PAT's time");
    }

    /**
     * Every candidate NCCL's tuner offers at the target, not only its pick, is planned with its own law: at 12,500 HGX
     * nodes and 1 MiB the trees by TREE, the rings refused (beyond 4 leaf groups) naming the candidate as such.
     */
    @Test
    void everyCandidateOfTheTunerIsPlannedOrRefused() {
        Extrapolator x = to(12_500, Map.of());
        io.ccsim.algorithms.tuner.TuneResult tr = x.tune(CollectiveOp.ALL_REDUCE, 1L << 20, DataType.FLOAT32, ReduceOp.SUM);
        assertThat(tr.input().nRanks()).isEqualTo(100_000);
        assertThat(tr.candidates()).extracting(c -> c.algorithm()).contains(Algorithm.TREE, Algorithm.RING, Algorithm.NVLS_TREE);
        for (io.ccsim.algorithms.tuner.Candidate c : tr.candidates()) {
            if (c.algorithm() == Algorithm.RING) {
                assertThatThrownBy(() -> x.plan(CollectiveOp.ALL_REDUCE, 1L << 20, DataType.FLOAT32, ReduceOp.SUM, 0, c))
                        .isInstanceOf(NotExtrapolatedException.class)
                        .hasMessageStartingWith("all_reduce of 1048576 B on 12500 nodes runs Ring/" + c.protocol().ncclName()
                                + " x" + c.channels() + " (a candidate there), a ring, which is extrapolated up to 4 leaf");
            } else {
                Extrapolator.SizePlan p = x.plan(CollectiveOp.ALL_REDUCE, 1L << 20, DataType.FLOAT32, ReduceOp.SUM, 0, c);
                assertThat(List.<Object>of(p.algo(), p.proto(), p.channels(), p.law()))
                        .isEqualTo(List.<Object>of(c.algorithm(), c.protocol(), c.channels(), ScalingLaw.TREE));
            }
        }
        // NCCL's pick planned as a candidate is the plan of NCCL's choice
        assertThat(x.plan(CollectiveOp.ALL_REDUCE, 1L << 20, DataType.FLOAT32, ReduceOp.SUM, 0, tr.winner()))
                .isEqualTo(x.plan(CollectiveOp.ALL_REDUCE, 1L << 20, DataType.FLOAT32, ReduceOp.SUM, 0));
    }

    @Test
    void aRunnerOfOtherNodesIsRefused() {
        Extrapolator x = to(100, Map.of());
        Extrapolator.SizePlan p = x.plan(CollectiveOp.ALL_REDUCE, 1L << 20, DataType.FLOAT32, ReduceOp.SUM, 0);
        assertThatThrownBy(() -> x.simulate(p, p.samples().get(0), x.runnerAt(2)))
                .hasMessage("the runner spans 2 nodes, the sample " + p.samples().get(0).nodes());
    }
}
