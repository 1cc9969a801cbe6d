package io.ccsim.topology.smi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NumaAssignmentTest {

    static int[] assign(String text) {
        SmiMatrix m = SmiMatrixParser.parse(new SmiText(text, "f.txt"));
        List<Integer> gpus = new ArrayList<>();
        List<Integer> nics = new ArrayList<>();
        for (int i = 0; i < m.size(); i++) {
            (SmiMatrix.isGpuLabel(m.device(i)) ? gpus : nics).add(i);
        }
        return NumaAssignment.assign(m, gpus, nics);
    }

    @Test
    void numaAffinityNumbersAreTheNodes() {
        assertThat(assign("""
                \tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity
                GPU0\t X \tSYS\tNODE\tSYS\t0-7\t2
                GPU1\tSYS\t X \tSYS\tSYS\t8-15\t3
                NIC0\tNODE\tSYS\t X \tSYS
                NIC1\tSYS\tSYS\tSYS\t X
                """)).containsExactly(2, 3, 2, 4); // NIC1 reaches no GPU: a node after the GPUs'
    }

    @Test
    void withoutNumaAffinityCpuAffinitiesAreNumberedInOrder() {
        assertThat(assign("""
                \tGPU0\tGPU1\tGPU2\tCPU Affinity
                GPU0\t X \tSYS\tSYS\t8-15
                GPU1\tSYS\t X \tSYS\t0-7
                GPU2\tSYS\tSYS\t X \t8-15
                """)).containsExactly(0, 1, 0);
    }

    @Test
    void withoutAffinitiesAllGpusShareNodeZero() {
        assertThat(assign("""
                \tGPU0\tGPU1
                GPU0\t X \tNV1
                GPU1\tNV1\t X
                """)).containsExactly(0, 0);
    }

    @Test
    void aNicReachingNoGpuJoinsANicBelowSys() {
        assertThat(assign("""
                \tGPU0\tNIC0\tNIC1\tNUMA Affinity
                GPU0\t X \tSYS\tSYS\t0
                NIC0\tSYS\t X \tPIX
                NIC1\tSYS\tPIX\t X
                """)).containsExactly(0, 1, 1);
    }

    @Test
    void aNumaAffinityThatIsNoNumberIsAnErrorAtItsColumn() {
        assertThatThrownBy(() -> assign("""
                \tGPU0\tNUMA Affinity
                GPU0\t X \tzero
                """)).hasMessage("f.txt:2:10: NUMA Affinity must be a NUMA node number >= 0 or N/A, got 'zero'");
    }
}
