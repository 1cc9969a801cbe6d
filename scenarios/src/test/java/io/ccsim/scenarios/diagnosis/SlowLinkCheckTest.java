package io.ccsim.scenarios.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.cluster.CollectiveStats;
import io.ccsim.scenarios.format.ScenarioParser;
import io.ccsim.scenarios.job.ScenarioSimulation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the run records for slow links (every slow link crossed, each one's time healed alone) and
 * what the check makes of stats that carry only the bottleneck (readers of logs and counters).
 */
class SlowLinkCheckTest {

    private static Trace trace(String name) {
        try (InputStream in = SlowLinkCheckTest.class.getResourceAsStream(name + ".json")) {
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return ScenarioSimulation.run(ScenarioParser.parse(json, name + ".json"), 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void eachOfTwoEqualCablesHealedAloneLeavesTheCollectiveAsSlow() {
        Trace t = trace("two-faulty-ib-cables");
        assertThat(t.collectives()).isNotEmpty().allSatisfy(c -> {
            assertThat(c.algorithm()).isEqualTo("Ring");
            assertThat(c.slowLinks()).extracting(CollectiveStats.SlowLink::link)
                    .containsExactlyInAnyOrder("n0.nic1~leaf.r1.0", "n1.nic6~leaf.r6.0");
            assertThat(c.bottleneckLink()).isEqualTo(c.slowLinks().get(0).link());
            for (CollectiveStats.SlowLink l : c.slowLinks()) {
                assertThat(l.health()).isEqualTo(0.1);
                assertThat(l.senders()).isNotEmpty().hasSameSizeAs(l.receivers());
                // the other cable still paces the channels crossing it: within 5 % of the actual time, far above healthy
                assertThat((double) l.healedAlonePs()).isBetween(0.95 * c.durationPs(), 1.05 * c.durationPs());
                assertThat(l.healedAlonePs()).isGreaterThan(2 * c.healthyPs());
            }
        });
    }

    @Test
    void statsWithOnlyTheBottleneckStillNameItWithoutGains() {
        Trace t = trace("two-faulty-ib-cables");
        List<CollectiveStats> old = new ArrayList<>();
        for (CollectiveStats c : t.collectives()) {
            old.add(new CollectiveStats(c.label(), c.op(), c.bytes(), c.ranks(), c.startPs(), c.endPs(), c.healthyPs(),
                    c.bottleneckLink(), c.bottleneckHealth(), c.bottleneckSenders(), c.bottleneckReceivers(), c.inputChecksums(),
                    c.outputChecksums(), c.ringHopLinks()));
        }
        Trace bottleneckOnly = new Trace(t.worldSize(), t.events(), t.flight(), t.inits(), t.roots(), t.store(), old, t.faults(),
                t.degradedLinks(), t.neverStarted(), t.restarts(), t.groupMembers(), t.gpuIds(), t.settings(), t.finalStates(),
                t.busy(), t.symmMem(), t.endPs(), t.horizonReached());
        List<Diagnosis> d = new SlowLinkCheck(bottleneckOnly).findings();
        assertThat(d).singleElement().satisfies(x -> {
            assertThat(x.links()).containsExactly(t.collectives().get(0).bottleneckLink());
            // the algorithm is unknown: generic words, and no gain is claimed
            assertThat(x.summary()).contains("bottleneck of the collective").doesNotContain("ring", "fixing");
        });
    }
}
