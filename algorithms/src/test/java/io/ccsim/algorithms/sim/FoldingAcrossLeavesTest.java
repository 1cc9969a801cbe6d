package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.plan.UnsupportedAlgorithmException;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Routing;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Folding beyond one leaf: with destination routing (d-mod-k) every rail crosses the spines alike, so NCCL's double
 * binary tree folds across channels on several leaves as it does on one, with the unfolded time to the picosecond; and
 * on random healthy and faulty clusters of 16 to 256 GPUs, either routing, the folded run (with the flow network's
 * region solves) gives the unfolded end time bit for bit.
 */
class FoldingAcrossLeavesTest {

    /**
     * 64 hosts, two full leaves per rail: rotating GPUs and rails maps channel c onto c + 1, and the mirror (host h to
     * 63 - h, position p to 31 - p, spine p to 31 - p) maps tree 0 onto tree 1, so every class spans the 16 channels.
     * 40 hosts (32 + 8): the mirror does not keep the leaves, only the rotation folds (8 channels per class).
     */
    @Test
    void theTreeFoldsAcrossChannelsOnTwoLeavesWithDestinationRouting() {
        for (int[] hostsAndFold : new int[][] {{64, 16}, {40, 8}}) {
            Topology ecmp = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, hostsAndFold[0])).withRouting(Routing.ECMP);
            Topology dmodk = ecmp.withRouting(Routing.DESTINATION);
            RankFoldingTest.Run folded = RankFoldingTest.run(dmodk, CollectiveOp.ALL_REDUCE, 1L << 20, Algorithm.TREE,
                    Protocol.SIMPLE, SimExecution.Folding.RANKS);
            RankFoldingTest.Run all = RankFoldingTest.run(dmodk, CollectiveOp.ALL_REDUCE, 1L << 20, Algorithm.TREE,
                    Protocol.SIMPLE, SimExecution.Folding.NONE);
            assertThat(folded.endPs()).as("%d hosts", hostsAndFold[0]).isEqualTo(all.endPs());
            assertThat(folded.simulated() * hostsAndFold[1]).as("%d hosts: classes across channels", hostsAndFold[0])
                    .isEqualTo(folded.total());
            // the same cluster with ECMP: collisions on spine cables set rails apart, and it folds less
            RankFoldingTest.Run hashed = RankFoldingTest.run(ecmp, CollectiveOp.ALL_REDUCE, 1L << 20, Algorithm.TREE,
                    Protocol.SIMPLE, SimExecution.Folding.RANKS);
            assertThat(hashed.simulated()).as("%d hosts, ECMP", hostsAndFold[0]).isGreaterThan(folded.simulated());
        }
    }

    /**
     * 64 hosts, two leaves per rail: the rail ring crosses a spine at each leaf's edge, which set the hosts at the
     * edges apart while the spine and leaf links took part in the refinement. With LL128 those links, like the NVLink
     * and PCIe links, cannot bind (16 channels x 19.6 GB/s), so they are left out ({@link SlackLinks}) and every host
     * is alike: each class spans all 64 hosts, under either routing, with the unfolded time to the picosecond.
     */
    @Test
    void aRailRingOnTwoLeavesFoldsEveryHostIntoOne() {
        Topology ecmp = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 64));
        for (Topology t : new Topology[] {ecmp, ecmp.withRouting(Routing.DESTINATION)}) {
            RankFoldingTest.Run folded = RankFoldingTest.run(t, CollectiveOp.ALL_REDUCE, 4L << 20, Algorithm.RING,
                    Protocol.LL128, SimExecution.Folding.RANKS);
            RankFoldingTest.Run all = RankFoldingTest.run(t, CollectiveOp.ALL_REDUCE, 4L << 20, Algorithm.RING,
                    Protocol.LL128, SimExecution.Folding.NONE);
            assertThat(folded.endPs()).as("%s", t.routing()).isEqualTo(all.endPs());
            assertThat(folded.simulated() * 64).as("%s: classes across the 64 hosts", t.routing())
                    .isLessThanOrEqualTo(folded.total());
        }
    }

    @Test
    void randomClustersOf16To256GpusGiveTheUnfoldedTimeBitForBit() {
        SplittableRandom rnd = new SplittableRandom(2026_11_26_37L);
        int runs = 0;
        for (int trial = 0; trial < 7; trial++) {
            int nodes = trial == 0 ? 32 : 2 + rnd.nextInt(31); // 16 .. 256 GPUs; one run at 256
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            t = t.withRouting(rnd.nextBoolean() ? Routing.DESTINATION : Routing.ECMP);
            List<Link> links = t.links();
            int faults = rnd.nextInt(3);
            for (int f = 0; f < faults; f++) {
                Link l = links.get(rnd.nextInt(links.size()));
                t = t.withLinkHealth(l.id(), LinkHealth.degraded(0.1 + 0.5 * rnd.nextDouble()));
            }
            long bytes = (1L << (16 + rnd.nextInt(6))) * (rnd.nextBoolean() ? 1 : 3);
            Algorithm a = rnd.nextBoolean() ? Algorithm.RING : Algorithm.TREE;
            Protocol p = Protocol.values()[rnd.nextInt(3)];
            String what = String.format("%d hosts %s, %d faults, %s/%s %d B", nodes, t.routing(), faults, a, p, bytes);
            RankFoldingTest.Run folded;
            try {
                folded = RankFoldingTest.run(t, CollectiveOp.ALL_REDUCE, bytes, a, p, SimExecution.Folding.RANKS);
            } catch (UnsupportedAlgorithmException e) {
                continue;
            }
            RankFoldingTest.Run all = RankFoldingTest.run(t, CollectiveOp.ALL_REDUCE, bytes, a, p, SimExecution.Folding.NONE);
            assertThat(folded.endPs()).as(what).isEqualTo(all.endPs());
            runs++;
        }
        assertThat(runs).isGreaterThanOrEqualTo(5);
    }
}
