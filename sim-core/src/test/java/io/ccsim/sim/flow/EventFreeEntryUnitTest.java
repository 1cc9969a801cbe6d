package io.ccsim.sim.flow;

import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import static io.ccsim.sim.flow.FlowNetwork.hop;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registration table and the decisions of event-free entry on their own, without a solver (the comparisons with
 * the solver are in {@link EventFreeEntryTest}).
 */
class EventFreeEntryUnitTest {
    private static final double UNIT = EventFreeEntry.REG_UNIT;
    private final Simulator sim = new Simulator(1);
    private final LinkTable links = new LinkTable();
    private final PathResolver paths = new PathResolver(links);
    private final FlowNetwork owner = new FlowNetwork(sim); // the flows' network: not used by the entry itself
    private long nextId;

    private EventFreeEntry entry(int checkInterval) {
        EventFreeEntry e = new EventFreeEntry(owner, sim, links, true, checkInterval);
        for (int l = 0; l < links.count(); l++) e.refreshLimits(l);
        return e;
    }

    /** A flow as the network's startRecycled makes it (uncapped: +Infinity). */
    private Flow recycled(FlowNetwork.Path p, long bytes) {
        Flow f = new Flow(owner, nextId++, p.route, bytes, Double.POSITIVE_INFINITY, null, sim.now(), p.cons, p.weights);
        f.pooled = true;
        return f;
    }

    @Test
    void usageIsCountedInSixteenthsOfBytesPerSecondRoundedUp() {
        assertThat(EventFreeEntry.regUnits(1, 1e9)).isEqualTo((long) (1e9 / UNIT)).isEqualTo(16_000_000_000L);
        assertThat(EventFreeEntry.regUnits(3, 0.05)).isEqualTo((long) Math.ceil(3 * 0.05 / UNIT)).isEqualTo(3);
        assertThat(EventFreeEntry.regUnits(1, 1e300)).as("saturates below overflow").isEqualTo(1L << 62);
    }

    @Test
    void aLimitIsTheLeastCapacityWithinARelativeTolerance() {
        int fd = links.add("nvl", 1e9, Sharing.FULL_DUPLEX);
        int sh = links.add("pcie", 3e9, Sharing.SHARED);
        links.setDuplexEfficiency(fd, 0.5);
        EventFreeEntry e = entry(16);
        // C x e for a duplex-limited direction, C otherwise; floor(least (1 + 1e-9) / unit)
        assertThat(e.limitUnits(hop(fd, false))).isEqualTo((long) Math.floor(1e9 * 0.5 * (1 + 1e-9) / UNIT));
        assertThat(e.limitUnits(hop(fd, true))).isEqualTo(e.limitUnits(hop(fd, false)));
        assertThat(e.limitUnits(sh << 1)).isEqualTo((long) Math.floor(3e9 * (1 + 1e-9) / UNIT));
    }

    @Test
    void aFlowThatFitsEntersWithoutAnEventAndOneThatOverfillsHandsItBack() {
        int l = links.add("l", 1e9, Sharing.FULL_DUPLEX);
        FlowNetwork.Path p = paths.resolve(new int[] {hop(l, false)}, 1, true);
        EventFreeEntry e = entry(16);
        int id = hop(l, false);
        Flow a = recycled(p, 1_000_000);
        assertThat(e.registering()).isTrue();
        assertThat(e.tryEnter(a, p, 1_000)).isTrue();
        // alone at C: 1e6 B at 1e9 B/s take 1 ms = 1e9 ps after its 1,000 ps of latency
        assertThat(a.phase).isEqualTo(Flow.FAST);
        assertThat(a.rate).isEqualTo(1e9);
        assertThat(a.completionTime).isEqualTo(1_000 + 1_000_000_000L);
        assertThat(sim.isPending(a.eventHandle)).isTrue();
        assertThat(e.registeredUnits(id)).isEqualTo(EventFreeEntry.regUnits(1, 1e9));
        // a second flow would take C too: 2 C > C, so it is timed by the solver and hands the first one over (still
        // in its latency phase: it gets its latency event back)
        Flow b = recycled(p, 500);
        assertThat(e.tryEnter(b, p, 2_000)).isFalse();
        assertThat(a.phase).isEqualTo(Flow.LATENCY);
        assertThat(a.completionTime).isEqualTo(Long.MAX_VALUE);
        assertThat(e.entries()).isEqualTo(1);
        assertThat(e.handedOver()).isEqualTo(1);
        assertThat(e.registeredUnits(id)).as("both stay registered at their most").isEqualTo(2 * EventFreeEntry.regUnits(1, 1e9));
        e.unregister(b);
        e.unregister(a);
        e.unregister(a); // no longer registered: nothing
        assertThat(e.registeredUnits(id)).isZero();
        assertThat(e.registering()).isTrue();
    }

    @Test
    void aFlowWhoseWindowMissesTheOthersEntersThoughTheSumDoesNotFit() {
        int l = links.add("l", 1e9, Sharing.FULL_DUPLEX);
        FlowNetwork.Path p = paths.resolve(new int[] {hop(l, false)}, 1, true);
        EventFreeEntry e = entry(16);
        int id = hop(l, false);
        // a: 1e6 B at C in [1,000, 1e9 + 1,000) ps; b: the same after 2e9 ps of latency, when a is done; c: after 5e8 ps,
        // while a runs
        Flow a = recycled(p, 1_000_000);
        Flow b = recycled(p, 1_000_000);
        Flow c = recycled(p, 1_000_000);
        assertThat(e.tryEnter(a, p, 1_000)).isTrue();
        assertThat(e.tryEnter(b, p, 2_000_000_000L)).isTrue();
        assertThat(e.registeredUnits(id)).as("2 C registered: the sum alone would not let b in")
                .isGreaterThan(e.limitUnits(id));
        assertThat(e.windowEntries()).isEqualTo(1);
        assertThat(b.completionTime).isEqualTo(2_000_000_000L + 1_000_000_000L);
        // c overlaps a: timed by the solver, and a, on the constraint it overfills, is handed over; so is b (on the
        // same constraint), though its window misses c's start only if c ends in time, which the solver decides
        assertThat(e.tryEnter(c, p, 500_000_000L)).isFalse();
        assertThat(a.phase).isEqualTo(Flow.LATENCY);
        assertThat(b.phase).isEqualTo(Flow.LATENCY);
        assertThat(e.handedOver()).isEqualTo(2);
    }

    @Test
    void aFlowHandedOverMayRunLongerSoFlowsRelyingOnItsWindowAreHandedOverToo() {
        int l1 = links.add("l1", 1e9, Sharing.FULL_DUPLEX);
        int l2 = links.add("l2", 1e9, Sharing.FULL_DUPLEX);
        FlowNetwork.Path both = paths.resolve(new int[] {hop(l1, false), hop(l2, false)}, 1, true);
        FlowNetwork.Path second = paths.resolve(new int[] {hop(l2, false)}, 1, true);
        FlowNetwork.Path first = paths.resolve(new int[] {hop(l1, false)}, 1, true);
        EventFreeEntry e = entry(16);
        // a on l1 and l2 in [1,000, 1e9 + 1,000); b on l2 from 1.2e9, after a's window; c on l1 from 5e8, overlapping a
        Flow a = recycled(both, 1_000_000);
        Flow b = recycled(second, 1_000_000);
        assertThat(e.tryEnter(a, both, 1_000)).isTrue();
        assertThat(e.tryEnter(b, second, 1_200_000_000L)).isTrue();
        assertThat(e.tryEnter(recycled(first, 1_000_000), first, 500_000_000L)).isFalse();
        // c overfills l1 while a runs: a is handed over; timed by the solver it may still run at 1.2e9 (it does: it
        // shares l1 with c from 5e8), so b, which relied on a's window ending first, is handed over too
        assertThat(a.phase).isEqualTo(Flow.LATENCY);
        assertThat(b.phase).isEqualTo(Flow.LATENCY);
        assertThat(e.handedOver()).isEqualTo(2);
    }

    @Test
    void itGivesUpWhereFewerThanASixteenthOfACheckIntervalsStartsFit() {
        int l = links.add("l", 1e15, Sharing.FULL_DUPLEX);
        FlowNetwork.Path p = paths.resolve(new int[] {hop(l, false)}, 1, true);
        EventFreeEntry e = entry(16);
        for (int i = 0; i < 16; i++) {
            Flow f = new Flow(owner, nextId++, p.route, 1000, 1e9, null, 0, p.cons, p.weights); // not recycled
            assertThat(e.tryEnter(f, p, 0)).isFalse();
            assertThat(e.registering()).as("start %d", i).isTrue();
        }
        // the 17th start closes the first interval of 16 with no entry: fewer than 16 / 16
        assertThat(e.tryEnter(recycled(p, 1000), p, 0)).isFalse();
        assertThat(e.registering()).isFalse();
    }

    @Test
    void aCheckIntervalLastsSixteenStartsPerActiveFlow() {
        int l = links.add("l", 1e15, Sharing.FULL_DUPLEX);
        FlowNetwork.Path p = paths.resolve(new int[] {hop(l, false)}, 1, true);
        // two flows active in the network the entry belongs to: an interval lasts max(16, 2 x 16) starts
        FlowNetwork.Path busy = owner.path(new int[] {hop(owner.addLink("o", 1e9, Sharing.SHARED), false)}, 1);
        owner.start(busy, 1_000_000, 0, 0, null);
        owner.start(busy, 1_000_000, 0, 0, null);
        EventFreeEntry e = entry(16);
        for (int i = 0; i < 32; i++) {
            Flow f = new Flow(owner, nextId++, p.route, 1000, 1e9, null, 0, p.cons, p.weights); // not recycled
            assertThat(e.tryEnter(f, p, 0)).isFalse();
            assertThat(e.registering()).as("start %d", i).isTrue();
        }
        // the 33rd start closes the first interval of 32 with no entry
        assertThat(e.tryEnter(recycled(p, 1000), p, 0)).isFalse();
        assertThat(e.registering()).isFalse();
    }

    @Test
    void aCapacityChangeWithFlowsActiveHandsEveryFlowOverForGood() {
        int l = links.add("l", 1e9, Sharing.FULL_DUPLEX);
        FlowNetwork.Path p = paths.resolve(new int[] {hop(l, false)}, 1, true);
        EventFreeEntry e = entry(16);
        e.capacitiesChanging(0); // before any flow: nothing at stake
        assertThat(e.registering()).isTrue();
        Flow a = recycled(p, 1000);
        assertThat(e.tryEnter(a, p, 5_000)).isTrue();
        e.capacitiesChanging(1);
        assertThat(a.phase).isEqualTo(Flow.LATENCY);
        assertThat(e.handedOver()).isEqualTo(1);
        assertThat(e.registering()).isFalse();
    }
}
