package io.ccsim.algorithms.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.profile.CalibrationProfile;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The blocks of both fits: their order, and which rows each block is fitted on. */
class FitBlocksTest {
    static final CalibrationProfile H200 = CalibrationProfile.builtin("h200");

    static MeasuredRow forced(CollectiveOp op, Algorithm a, Protocol p) {
        return new MeasuredRow("r", op, 4, 1 << 20, DataType.FLOAT32, Optional.of(ReduceOp.SUM), 0, Optional.of(a), Optional.of(p), 0,
                Optional.empty(), Optional.empty(), OptionalInt.empty(), 10.0);
    }

    static MeasuredRow ncclChose(CollectiveOp op, Optional<Algorithm> a, Optional<Protocol> p) {
        return new MeasuredRow("r", op, 4, 1 << 20, DataType.FLOAT32, Optional.of(ReduceOp.SUM), 0, Optional.empty(), Optional.empty(), 0,
                a, p, OptionalInt.empty(), 10.0);
    }

    /** The names of the blocks of {@code blocks} that fit {@code row}. */
    static List<String> blocksOf(List<FitBlock> blocks, MeasuredRow row) {
        return blocks.stream().filter(b -> b.rows().test(row)).map(FitBlock::name).toList();
    }

    @Test
    void ncclBlocksComeInOrderAndEachRowFitsItsFamilyAndTheSharedBlock() {
        List<FitBlock> b = FitBlocks.nccl(H200, Map.of());
        List<String> names = b.stream().map(FitBlock::name).toList();
        // the built-in h200 has stream costs for LL only: its cta block first, the shared block last
        assertThat(names.get(0)).isEqualTo("cta LL");
        assertThat(names).doesNotContain("cta LL128", "cta Simple", "links", "launch");
        assertThat(names.get(names.size() - 1)).isEqualTo("shared");
        assertThat(names).containsSubsequence("ring LL", "chain LL", "tree LL", "p2p LL");
        assertThat(blocksOf(b, forced(CollectiveOp.ALL_REDUCE, Algorithm.TREE, Protocol.LL))).containsExactly("cta LL", "tree LL", "shared");
        assertThat(blocksOf(b, forced(CollectiveOp.BROADCAST, Algorithm.RING, Protocol.SIMPLE))).containsExactly("chain Simple", "shared");
        // a default row fits the family of what NCCL logged; a p2p row (NCCL logs none) the protocols the tuner picks
        assertThat(blocksOf(b, ncclChose(CollectiveOp.ALL_GATHER, Optional.of(Algorithm.RING), Optional.of(Protocol.LL128))))
                .containsExactly("ring LL128", "shared");
        assertThat(blocksOf(b, ncclChose(CollectiveOp.SEND_RECV, Optional.empty(), Optional.empty())))
                .containsExactly("p2p LL", "p2p Simple", "shared");
    }

    @Test
    void kernelBlocksStartWithTheLaunchLatenciesAndEndWithTheLinks() {
        List<FitBlock> b = FitBlocks.kernel(H200);
        MeasuredRow small = MeasuredRow.fixedPlan("r", CollectiveOp.REDUCE, 2, Algorithm.RING, Protocol.LL128, 16, 4096, 10.0);
        MeasuredRow large = MeasuredRow.fixedPlan("r", CollectiveOp.REDUCE, 2, Algorithm.RING, Protocol.LL128, 16, 4 << 20, 10.0);
        assertThat(blocksOf(b, small)).containsExactly("launch", "cta LL128", "chain LL128", "links");
        assertThat(blocksOf(b, large)).containsExactly("cta LL128", "chain LL128", "links");
        // every family's launch latency, one per (family, protocol), in the first block
        assertThat(b.get(0).params()).allMatch(p -> p.name().endsWith(".launch_latency_us")).hasSize(4 * 3);
    }
}
