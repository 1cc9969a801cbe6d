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
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Folding on faulty clusters with links that never bind left out ({@link SlackLinks}): the folded run gives the
 * unfolded end time to the picosecond on random clusters of 16 to 256 GPUs with a degraded network cable, a degraded
 * NVLink or a down-rated NIC, under both routings, ring and tree; and a degraded cable no longer spreads to every
 * worker of a rail-aligned ring through links that cannot bind.
 */
class FaultFoldingTest {

    /** The kinds of fault every trial cycles through: a host's cable to its leaf, an NVLink, a NIC's PCIe link. */
    private static String faultyLink(Topology t, int kind, SplittableRandom rnd) {
        int hosts = t.gpus().size() / 8;
        int h = rnd.nextInt(hosts);
        int g = rnd.nextInt(8);
        String prefix = switch (kind) {
            case 0 -> "n" + h + ".nic" + g + "~leaf.";
            case 1 -> "n" + h + ".gpu" + g + "~n" + h + ".nvs";
            default -> "n" + h + ".nic" + g + "~n" + h + ".pcie";
        };
        for (Link l : t.links()) {
            if (l.id().startsWith(prefix)) return l.id();
        }
        throw new IllegalStateException("no link " + prefix + "* in " + t.name());
    }

    @Test
    void randomFaultyClustersGiveTheUnfoldedTimeToThePicosecond() {
        SplittableRandom rnd = new SplittableRandom(2026_11_26_38L);
        for (int trial = 0; trial < 12; trial++) {
            int nodes = trial == 0 ? 32 : 2 + rnd.nextInt(31); // 16 .. 256 GPUs; one run at 256
            Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, nodes));
            if ((trial & 1) == 1) t = t.withRouting(Routing.DESTINATION);
            Algorithm a = (trial & 2) == 0 ? Algorithm.RING : Algorithm.TREE;
            int kind = trial % 3;
            String link = faultyLink(t, kind, rnd);
            t = t.withLinkHealth(link, LinkHealth.degraded(0.05 + 0.5 * rnd.nextDouble()));
            if (rnd.nextBoolean()) { // a second fault of another kind
                t = t.withLinkHealth(faultyLink(t, (kind + 1) % 3, rnd), LinkHealth.degraded(0.1 + 0.8 * rnd.nextDouble()));
            }
            long bytes = (1L << (16 + rnd.nextInt(6))) * (rnd.nextBoolean() ? 1 : 3);
            Protocol p = Protocol.values()[rnd.nextInt(3)];
            String what = String.format("%d hosts %s, %s degraded, %s/%s %d B", nodes, t.routing(), link, a, p, bytes);
            RankFoldingTest.Run folded = RankFoldingTest.run(t, CollectiveOp.ALL_REDUCE, bytes, a, p, SimExecution.Folding.RANKS);
            RankFoldingTest.Run all = RankFoldingTest.run(t, CollectiveOp.ALL_REDUCE, bytes, a, p, SimExecution.Folding.NONE);
            assertThat(folded.endPs()).as(what).isEqualTo(all.endPs());
        }
    }

    /**
     * 256 GPUs, host 5's NIC 3 (its cable and its PCIe link) at a tenth, ring all-reduce with LL128: the channels that
     * cross the NIC are set apart, but the NVLink, PCIe and leaf links their flows share with the other channels cannot
     * bind (16 channels x 19.6 GB/s fit in a GPU's 386.6 GB/s NVLink x 0.94 duplex efficiency), so the other channels
     * still fold across hosts; without leaving those links out only the replica channels fold. (With Simple, 16 x 28.3
     * GB/s do not fit and the NVLink is kept.) The fault slows the run, so the equality with the unfolded time is a
     * real check.
     */
    @Test
    void aDegradedCableNoLongerSetsEveryRingWorkerApart() {
        Topology healthy = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 32));
        Topology t = healthy;
        for (Link l : healthy.links()) {
            if (l.id().startsWith("n5.nic3~")) t = t.withLinkHealth(l.id(), LinkHealth.degraded(0.1));
        }
        long bytes = 1L << 24;
        RankFoldingTest.Run ranks = RankFoldingTest.run(t, CollectiveOp.ALL_REDUCE, bytes, Algorithm.RING, Protocol.LL128,
                SimExecution.Folding.RANKS);
        RankFoldingTest.Run channels = RankFoldingTest.run(t, CollectiveOp.ALL_REDUCE, bytes, Algorithm.RING,
                Protocol.LL128, SimExecution.Folding.CHANNELS);
        RankFoldingTest.Run all = RankFoldingTest.run(t, CollectiveOp.ALL_REDUCE, bytes, Algorithm.RING, Protocol.LL128,
                SimExecution.Folding.NONE);
        long healthyEnd = RankFoldingTest.run(healthy, CollectiveOp.ALL_REDUCE, bytes, Algorithm.RING, Protocol.LL128,
                SimExecution.Folding.RANKS).endPs();
        assertThat(all.endPs()).as("the fault slows the ring").isGreaterThan(healthyEnd);
        assertThat(ranks.endPs()).isEqualTo(all.endPs());
        assertThat(channels.endPs()).isEqualTo(all.endPs());
        // at most the channels crossing NIC 3 stay unfolded (256 workers each), the others fold across hosts
        assertThat(ranks.simulated()).as("workers simulated, against %d folding channels only", channels.simulated())
                .isLessThan(channels.simulated() / 2);
    }
}
