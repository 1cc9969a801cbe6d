package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** nccl-tests' rank numbering (src/common.cu run at v2.19.6) on mpirun's even placement. */
class RankPlacementTest {
    @Test
    void oneProcessOfEightGpusIsOneNode() {
        RankPlacement p = RankPlacement.of(1, 8, null, null, 8, "hgx-h200");
        assertThat(p.ranks()).isEqualTo(8);
        assertThat(p.nodes()).isEqualTo(1);
        assertThat(p.device(5)).isEqualTo(5);
    }

    @Test
    void sixteenSingleGpuProcessesFillTwoBoards() {
        // mpirun -np 16 -N 8 all_reduce_perf -g 1
        RankPlacement p = RankPlacement.of(1, 1, 16, null, 8, "hgx-h100");
        assertThat(p.nodes()).isEqualTo(2);
        assertThat(p.process(11)).isEqualTo(11);
        assertThat(p.node(11)).isEqualTo(1);
        assertThat(p.device(11)).isEqualTo(3);
    }

    @Test
    void threadsAndGpusNumberRanksWithinAProcess() {
        // 2 processes per node, 2 threads x 2 GPUs each: process 1 drives devices 4..7, rank (1*2 + 1)*2 + 1 = 7 is
        // its thread 1's second GPU, device 1*2*2 + 1*2 + 1 = 7
        RankPlacement p = RankPlacement.of(2, 2, 4, 2, 8, "hgx-h100");
        assertThat(p.ranks()).isEqualTo(16);
        assertThat(p.ranksPerNode()).isEqualTo(8);
        assertThat(p.process(7)).isEqualTo(1);
        assertThat(p.device(7)).isEqualTo(7);
        assertThat(p.node(8)).isEqualTo(1);
        assertThat(p.process(8)).isEqualTo(2);
        assertThat(p.device(8)).isZero();
    }

    @Test
    void nodesDefaultToTheFewestThatDivideTheProcesses() {
        assertThat(RankPlacement.of(1, 8, null, 2, 8, "b").processes()).as("one process per node").isEqualTo(2);
        // 3 processes of 4 GPUs: 2 nodes would hold them but 3 processes do not spread over 2
        assertThat(RankPlacement.of(1, 4, 3, null, 8, "b").nodes()).isEqualTo(3);
    }

    @Test
    void whatDoesNotFitIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> RankPlacement.of(1, 16, null, null, 8, "hgx-h200"))
                .hasMessageContaining("one process drives 16 GPUs, but a hgx-h200 node has 8");
        assertThatThrownBy(() -> RankPlacement.of(1, 1, 3, 2, 8, "b")).hasMessageStartingWith("--np 3 on --nodes 2");
        assertThatThrownBy(() -> RankPlacement.of(1, 8, 4, 2, 8, "b")).hasMessageContaining("more than the 8 GPUs");
        assertThatThrownBy(() -> RankPlacement.of(1, 1, 0, null, 8, "b")).hasMessageStartingWith("--np: invalid 0");
    }
}
