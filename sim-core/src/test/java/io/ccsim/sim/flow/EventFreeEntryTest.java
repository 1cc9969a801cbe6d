package io.ccsim.sim.flow;

import io.ccsim.sim.RandomStream;
import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.ccsim.sim.flow.FlowNetwork.hop;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A recycled flow whose constraints can never be exceeded while it runs enters its bandwidth phase without an event
 * (its completion is its only event); a flow whose use could exceed them hands the flows relying on them back to the
 * solver. Either way every completion must come at the time, and in the order, that the solver alone gives.
 */
class EventFreeEntryTest {

    /** Neither completions nor link traffic tracked (event-free entry needs both off), event-free entry on or off. */
    private static FlowNetwork.Options untracked(boolean eventFree) {
        return FlowNetwork.Options.DEFAULT.withTrackNextCompletion(false).withTrackLinkTraffic(false)
                .withEventFreeEntry(eventFree);
    }

    /** One link of 1 GB/s; returns "time:name" per completion and the simulator's dispatched event count. */
    private static List<String> twoFlowsOnOneLink(boolean eventFree, long[] events) {
        Simulator sim = new Simulator(1);
        FlowNetwork net = new FlowNetwork(sim, untracked(eventFree));
        FlowNetwork.Path p = net.path(new int[] {hop(net.addLink("l", 1e9, Sharing.FULL_DUPLEX), false)}, 1);
        List<String> out = new ArrayList<>();
        // A: 1,000,000 B from t = 0; B: 500,000 B from 0.25 ms, when A has delivered 250,000 B alone
        net.startRecycled(p, 1_000_000, 0, 0, f -> out.add(sim.now() + ":A"));
        sim.schedule(250_000_000L, () -> net.startRecycled(p, 500_000, 0, 0, f -> out.add(sim.now() + ":B")));
        sim.run();
        events[0] = sim.dispatchedCount();
        return out;
    }

    @Test
    void aFlowThatWouldOverfillALinkHandsTheRunningOneToTheSolver() {
        long[] fast = {0};
        long[] solver = {0};
        // both at 0.5 GB/s from 0.25 ms: B's 500,000 B take 1 ms (ends 1.25 ms); A then has 250,000 B left alone at
        // 1 GB/s (ends 1.5 ms)
        assertThat(twoFlowsOnOneLink(true, fast)).containsExactly("1250000000:B", "1500000000:A")
                .isEqualTo(twoFlowsOnOneLink(false, solver));
    }

    /**
     * One recycled flow on one direction of a 4 GB/s full-duplex link with duplex efficiency 0.5 (2 GB/s with the
     * opposite direction busy); returns its completion time and the simulator's dispatched event count.
     */
    private static long[] oneFlowOnADuplexLink(boolean eventFree, int multiplicity, long bytes, long latency, double cap) {
        Simulator sim = new Simulator(1);
        FlowNetwork net = new FlowNetwork(sim, untracked(eventFree));
        int l = net.addLink("l", 4e9, Sharing.FULL_DUPLEX);
        net.setDuplexEfficiency(l, 0.5);
        FlowNetwork.Path p = net.path(new int[] {hop(l, false)}, multiplicity);
        long[] end = {-1};
        net.startRecycled(p, bytes, latency, cap, f -> end[0] = sim.now());
        sim.run();
        return new long[] {end[0], sim.dispatchedCount()};
    }

    @Test
    void aFlowAloneHasOneEvent() {
        // capped at 1 GB/s per replica, 2 replicas: 2 GB/s fits even the direction's 4 x 0.5 GB/s with the opposite
        // busy; 3,000 B after 700 ps of latency take 3 us
        assertThat(oneFlowOnADuplexLink(true, 2, 3_000, 700, 1e9)).containsExactly(700 + 3_000_000, 1);
        assertThat(oneFlowOnADuplexLink(false, 2, 3_000, 700, 1e9)).containsExactly(700 + 3_000_000, 2);
    }

    @Test
    void aFlowWhoseRateDependsOnTheOppositeDirectionIsTimedByTheSolver() {
        // uncapped: 4 GB/s alone, 2 GB/s once the opposite direction is busy, so it needs the solver (2 events)
        assertThat(oneFlowOnADuplexLink(true, 1, 4_000, 100, 0)).containsExactly(100 + 1_000_000, 2);
    }

    @Test
    void registeredSumsBeyondTheirExactRangeTurnTheMechanismOff() {
        List<List<String>> runs = new ArrayList<>();
        for (boolean eventFree : new boolean[] {true, false}) {
            Simulator sim = new Simulator(1);
            FlowNetwork net = new FlowNetwork(sim, untracked(eventFree));
            // 1e17 B/s: each flow alone may use it all (1.6e18 sixteenths of B/s), so the third registration would pass
            // 2^62 and the sixth would wrap a long around
            FlowNetwork.Path p = net.path(new int[] {hop(net.addLink("huge", 1e17, Sharing.SHARED), false)}, 1);
            List<String> out = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                final int k = i;
                net.startRecycled(p, 100_000_000_000L, 1_000 * (i + 1), 0, f -> out.add(sim.now() + ":" + k));
            }
            sim.run();
            if (eventFree) {
                // the second does not fit (the first is handed over), the third turns the mechanism off
                assertThat(net.eventFreeEntries()).isEqualTo(1);
                assertThat(net.handedOver()).isEqualTo(1);
            }
            runs.add(out);
        }
        assertThat(runs.get(0)).isEqualTo(runs.get(1)).hasSize(8);
    }

    @Test
    void aFlowRelyingOnTheWindowOfOneHandedOverIsHandedOverToo() {
        List<List<String>> runs = new ArrayList<>();
        List<long[]> counts = new ArrayList<>();
        for (boolean eventFree : new boolean[] {true, false}) {
            Simulator sim = new Simulator(1);
            FlowNetwork net = new FlowNetwork(sim, untracked(eventFree));
            int l1 = net.addLink("l1", 1e9, Sharing.FULL_DUPLEX);
            int l2 = net.addLink("l2", 1e9, Sharing.FULL_DUPLEX);
            List<String> out = new ArrayList<>();
            // A on l1 and l2 from 1,000 ps; B on l2 from 1.2e9 ps, after A's window alone; C on l1 from 5e8 ps
            net.startRecycled(net.path(new int[] {hop(l1, false), hop(l2, false)}, 1), 1_000_000, 1_000, 0,
                    f -> out.add(sim.now() + ":A"));
            net.startRecycled(net.path(new int[] {hop(l2, false)}, 1), 1_000_000, 1_200_000_000L, 0,
                    f -> out.add(sim.now() + ":B"));
            net.startRecycled(net.path(new int[] {hop(l1, false)}, 1), 1_000_000, 500_000_000L, 0,
                    f -> out.add(sim.now() + ":C"));
            sim.run();
            runs.add(out);
            counts.add(new long[] {net.windowEntries(), net.handedOver()});
        }
        // A alone until 5e8 (499,999 B), then half of l1 beside C: its last 500,001 B end at 1,500,002,000; B shares l2
        // with A from 1.2e9 (150,001 B at 0.5 GB/s), then alone: 2,350,001,000; C alone after A: 2,000,001,000. Left
        // event-free, B would end at 2.2e9.
        assertThat(runs.get(0)).containsExactly("1500002000:A", "2000001000:C", "2350001000:B")
                .isEqualTo(runs.get(1));
        // B entered by its window; C handed A over, and A's opened window B
        assertThat(counts.get(0)).containsExactly(1, 2);
    }

    /**
     * The random workloads' ranges: {@code minChains + [0, extraChains)} chains, latencies in [0, maxLatency) ps (a
     * third of them 0), bytes in [1, maxBytes] (a sixth of the flows 0).
     */
    private record Shape(int minChains, int extraChains, int maxLatency, int maxBytes) {
        /** latencies about as long as the transfers, up to 11 chains */
        static final Shape MIXED = new Shape(2, 10, 5_000_000, 50_000);
        /** latencies up to 40 us against transfers of 20 KB at 1 to 8 GB/s (2.5 to 20 us), 8 to 31 chains */
        static final Shape LONG_LATENCY = new Shape(8, 24, 40_000_000, 20_000);
    }

    /**
     * Chains of flows (each completion starts the chain's next) on random networks: every sharing kind, duplex
     * efficiencies, multiplicities, caps, latencies, fresh and recycled flows, more chains than links (contention),
     * and in some seeds capacity changes mid-run. Returns "time:chain" per completion.
     */
    private static List<String> chains(long seed, boolean eventFree, long[] events, Shape shape) {
        return chains(seed, eventFree, events, new long[3], shape);
    }

    /**
     * counts[0] += flows entered without an event, counts[1] += those handed to the solver later, counts[2] += those
     * entered by their windows
     */
    private static List<String> chains(long seed, boolean eventFree, long[] events, long[] counts, Shape shape) {
        Simulator sim = new Simulator(seed);
        RandomStream r = sim.random("net");
        FlowNetwork.Options options = untracked(eventFree);
        if (seed % 3 == 2) {
            options = options.withEntryCheckInterval(16); // gives up mid-run where none of 16 starts entered without an event
        }
        FlowNetwork net = new FlowNetwork(sim, options);
        int links = 1 + r.nextInt(4);
        for (int i = 0; i < links; i++) {
            Sharing sharing = Sharing.values()[r.nextInt(3)];
            net.addLink("l" + i, 1e9 * (1 + r.nextInt(8)), sharing);
            if (sharing == Sharing.FULL_DUPLEX && r.nextBoolean()) net.setDuplexEfficiency(i, 0.5 + 0.1 * r.nextInt(5));
        }
        FlowNetwork.Path[] paths = new FlowNetwork.Path[2 + r.nextInt(6)];
        for (int p = 0; p < paths.length; p++) {
            int[] route = new int[r.nextInt(4)];
            for (int h = 0; h < route.length; h++) route[h] = hop(r.nextInt(links), r.nextBoolean());
            paths[p] = net.path(route, 1 + r.nextInt(3));
        }
        List<String> out = FlowChains.start(sim, r, shape.minChains + r.nextInt(shape.extraChains), 30,
                (cr, next) -> startOne(net, paths, cr, next, shape));
        if (seed % 4 == 0) {
            sim.schedule(3_000_000, () -> net.setCapacity(0, net.capacity(0) / 2));
            sim.schedule(30_000_000, () -> net.setCapacity(0, net.capacity(0) * 3));
        } else if (seed % 4 == 1 && net.sharing(0) == Sharing.FULL_DUPLEX) {
            sim.schedule(5_000_000, () -> net.setDuplexEfficiency(0, 0.6));
        }
        sim.run();
        assertThat(net.activeFlowCount()).isZero();
        events[0] += sim.dispatchedCount();
        counts[0] += net.eventFreeEntries();
        counts[1] += net.handedOver();
        counts[2] += net.windowEntries();
        return out;
    }

    private static void startOne(FlowNetwork net, FlowNetwork.Path[] paths, RandomStream r, FlowListener l, Shape shape) {
        FlowNetwork.Path p = paths[r.nextInt(paths.length)];
        long bytes = r.nextInt(6) == 0 ? 0 : 1 + r.nextInt(shape.maxBytes);
        long latency = r.nextInt(3) == 0 ? 0 : r.nextInt(shape.maxLatency);
        double cap = r.nextBoolean() ? 0 : 1e8 * (1 + r.nextInt(40));
        if (r.nextInt(5) == 0) {
            net.start(p, bytes, latency, cap, l); // never entered without an event, but registered
        } else {
            net.startRecycled(p, bytes, latency, cap, l);
        }
    }

    /** The lines sorted within each instant (lines are "time:chain", in time order). */
    private static List<String> byInstant(List<String> lines) {
        List<String> out = new ArrayList<>(lines);
        out.sort(java.util.Comparator.comparingLong((String s) -> Long.parseLong(s.substring(0, s.indexOf(':'))))
                .thenComparing(s -> s));
        return out;
    }

    /** Runs seeds 0 .. seeds - 1 of {@code shape} both ways; returns {entered, handed over, by windows, events saved}. */
    private static long[] compareRandom(Shape shape, int seeds) {
        long[] fast = {0};
        long[] solver = {0};
        long[] counts = {0, 0, 0};
        for (long seed = 0; seed < seeds; seed++) {
            List<String> a = chains(seed, true, fast, counts, shape);
            List<String> b = chains(seed, false, solver, shape);
            // the same completions at the same times; within one instant the order may differ (a flow entered without
            // an event has its completion queued at its start, one timed by the solver at its entry or at a solve)
            assertThat(byInstant(a)).as("seed %d", seed).isEqualTo(byInstant(b)).isNotEmpty();
        }
        return new long[] {counts[0], counts[1], counts[2], solver[0] - fast[0]};
    }

    @Test
    void randomWorkloadsCompleteExactlyAsWithTheSolverAlone() {
        long[] c = compareRandom(Shape.MIXED, 400);
        // both ways ran: flows entered without an event (one event fewer each, unless handed over while still in
        // their latency phase), and flows handed back to the solver
        assertThat(c[0]).isGreaterThan(1000);
        assertThat(c[1]).isGreaterThan(100);
        assertThat(c[3]).isPositive();
    }

    @Test
    void randomWorkloadsWithLongLatenciesCompleteExactlyAsWithTheSolverAlone() {
        long[] c = compareRandom(Shape.LONG_LATENCY, 200);
        // flows entered by their windows where the sums did not fit, and were handed over (some through the
        // windows of others handed over); with up to 31 chains some constraints run out of window slots
        assertThat(c[2]).isGreaterThan(200);
        assertThat(c[1]).isGreaterThan(100);
        assertThat(c[3]).isPositive();
    }
}
