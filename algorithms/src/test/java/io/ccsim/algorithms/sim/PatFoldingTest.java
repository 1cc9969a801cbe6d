package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Routing;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/**
 * PAT on clusters of one GPU per host (32 hosts per leaf): rank r talks to r ± 2^d, and beyond one leaf the peers at
 * distances 32, 64, ... are all alike to r (the same position in another leaf), so a representative reaches its own
 * class on one connection per distance ({@link QuotientConnections}). Folded, the run gives the unfolded time to the
 * picosecond, healthy or with a degraded cable, under both routings; routed by destination a healthy cluster of whole
 * leaves folds to one leaf's workers.
 */
class PatFoldingTest {
    private static final CollectiveOp[] OPS = {CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER};

    private static Topology cluster(int hosts, Routing routing) {
        return TopologyCatalog.build("hgx-h100", BuildOptions.of(1, hosts)).withRouting(routing);
    }

    private static RankFoldingTest.Run run(Topology t, CollectiveOp op, long bytes, SimExecution.Folding fold) {
        return RankFoldingTest.run(t, op, bytes, Algorithm.PAT, Protocol.SIMPLE, fold);
    }

    /**
     * 64, 128 and 256 hosts routed by destination: shifting every rank by one leaf (32 hosts) maps the plan and the
     * fabric onto themselves, so each class holds one position of every leaf: 32 units per channel simulated, the
     * others by symmetry (hosts / 32 per class at least).
     */
    @Test
    void healthyLeavesRoutedByDestinationFoldToOneLeaf() {
        for (int hosts : new int[] {64, 128, 256}) {
            Topology t = cluster(hosts, Routing.DESTINATION);
            for (CollectiveOp op : OPS) {
                long bytes = (long) hosts << 16;
                RankFoldingTest.Run folded = run(t, op, bytes, SimExecution.Folding.RANKS);
                RankFoldingTest.Run all = run(t, op, bytes, SimExecution.Folding.NONE);
                String what = String.format("%d hosts %s", hosts, op);
                assertThat(folded.endPs()).as(what).isEqualTo(all.endPs());
                assertThat(folded.total()).as(what).isEqualTo(all.total());
                assertThat(folded.simulated() * (hosts / 32)).as(what + ": classes span the leaves")
                        .isLessThanOrEqualTo(folded.total());
            }
        }
    }

    /** 16 hosts (one leaf) and 48 (a leaf and a half) under both routings: folded equals unfolded to the picosecond. */
    @Test
    void partialLeavesAndEcmpGiveTheUnfoldedTime() {
        for (Routing routing : new Routing[] {Routing.ECMP, Routing.DESTINATION}) {
            for (int hosts : new int[] {16, 48, 128}) {
                Topology t = cluster(hosts, routing);
                for (CollectiveOp op : OPS) {
                    long bytes = (long) hosts << 16;
                    RankFoldingTest.Run folded = run(t, op, bytes, SimExecution.Folding.RANKS);
                    RankFoldingTest.Run all = run(t, op, bytes, SimExecution.Folding.NONE);
                    String what = String.format("%d hosts %s %s", hosts, routing, op);
                    assertThat(folded.endPs()).as(what).isEqualTo(all.endPs());
                    if (hosts == 16) assertThat(folded.simulated()).as(what + ": one leaf folds").isLessThan(folded.total());
                }
            }
        }
    }

    /**
     * 64 and 128 hosts with host 5's cable to its leaf at a tenth, both routings: the slow cable sets its host's
     * class apart (the time moves), and the folded run still gives the unfolded time to the picosecond.
     */
    @Test
    void aDegradedCableGivesTheUnfoldedTime() {
        for (Routing routing : new Routing[] {Routing.ECMP, Routing.DESTINATION}) {
            for (int hosts : new int[] {64, 128}) {
                Topology healthy = cluster(hosts, routing);
                Topology t = healthy;
                int degraded = 0;
                for (Link l : healthy.links()) {
                    if (!l.id().startsWith("n5.nic0~leaf.")) continue;
                    t = t.withLinkHealth(l.id(), LinkHealth.degraded(0.1));
                    degraded++;
                }
                assertThat(degraded).as("n5's cable").isEqualTo(1);
                for (CollectiveOp op : OPS) {
                    long bytes = (long) hosts << 14;
                    RankFoldingTest.Run folded = run(t, op, bytes, SimExecution.Folding.RANKS);
                    RankFoldingTest.Run all = run(t, op, bytes, SimExecution.Folding.NONE);
                    String what = String.format("%d hosts %s %s, n5's cable at 1/10", hosts, routing, op);
                    assertThat(folded.endPs()).as(what).isEqualTo(all.endPs());
                    assertThat(folded.endPs()).as(what + ": slower than healthy")
                            .isGreaterThan(run(healthy, op, bytes, SimExecution.Folding.RANKS).endPs());
                }
            }
        }
    }
}
