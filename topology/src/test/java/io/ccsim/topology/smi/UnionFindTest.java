package io.ccsim.topology.smi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnionFindTest {

    @Test
    void singletonsAreTheirOwnRoot() {
        UnionFind uf = new UnionFind(3);
        assertThat(uf.find(0)).isZero();
        assertThat(uf.find(2)).isEqualTo(2);
    }

    @Test
    void theRootIsTheSmallestMemberWhateverTheOrderOfUnions() {
        UnionFind uf = new UnionFind(6);
        uf.union(5, 4);
        uf.union(4, 2);
        uf.union(3, 5);
        assertThat(uf.find(5)).isEqualTo(2);
        assertThat(uf.find(3)).isEqualTo(2);
        assertThat(uf.find(0)).isZero();
        assertThat(uf.find(1)).isEqualTo(1);
        uf.union(1, 3);
        for (int x : new int[] {1, 2, 3, 4, 5}) {
            assertThat(uf.find(x)).isEqualTo(1);
        }
        uf.union(2, 2);
        assertThat(uf.find(2)).isEqualTo(1);
    }
}
