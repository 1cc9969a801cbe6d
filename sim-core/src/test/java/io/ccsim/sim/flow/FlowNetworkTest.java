package io.ccsim.sim.flow;

import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import io.ccsim.sim.Time;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.ccsim.sim.flow.FlowNetwork.hop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class FlowNetworkTest {
    private static final double C = 1e11; // 100 GB/s
    private static final long PS = Time.PS_PER_S;

    private final Simulator sim = new Simulator(1);
    private final FlowNetwork net = new FlowNetwork(sim);
    private final List<Flow> completed = new ArrayList<>();
    private final FlowListener record = completed::add;

    private Flow start(long bytes, int... route) {
        return startOn(net, bytes, route);
    }

    private Flow startOn(FlowNetwork n, long bytes, int... route) {
        return n.start(route, bytes, 0, 0, record);
    }

    @Test
    void oneFlowAloneCompletesExactly() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        Flow f = start(1_000_000_000L, hop(l, false));
        assertThat(f.rate()).isEqualTo(C);
        sim.run();
        // 1e9 B / 1e11 B/s = 0.01 s
        assertThat(f.endTime()).isEqualTo((long) (1e9 / C * PS)).isEqualTo(10_000_000_000L);
        assertThat(f.isDone()).isTrue();
        assertThat(completed).containsExactly(f);
    }

    @Test
    void uniformComponentsGetTheSameRatesAsTheGeneralSolver() {
        // many flows over the same two constraints (a ring hop: sender's port, receiver's port), mixed
        // multiplicities, mixed caps that bind for small counts and not for large ones, a capacity change
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
        for (int trial = 0; trial < 50; trial++) {
            long[] ends = new long[2];
            double downCap = 4.78e11 * (0.5 + rnd.nextDouble());
            for (int mode = 0; mode < 2; mode++) {
                Simulator s = new Simulator(1);
                FlowNetwork n = new FlowNetwork(s, FlowNetwork.Options.DEFAULT.withUniformFastPath(mode == 0));
                int up = n.addLink("up", 4.78e11, Sharing.FULL_DUPLEX);
                int down = n.addLink("down", downCap, Sharing.FULL_DUPLEX);
                FlowNetwork.Path p1 = n.path(new int[] {hop(up, false), hop(down, true)}, 1);
                FlowNetwork.Path p3 = n.path(new int[] {hop(up, false), hop(down, true)}, 3);
                java.util.SplittableRandom r = new java.util.SplittableRandom(trial);
                int flows = 1 + r.nextInt(12);
                List<Flow> fs = new ArrayList<>();
                for (int i = 0; i < flows; i++) {
                    long at = r.nextLong(2_000_000);
                    long bytes = 1 + r.nextLong(50_000_000);
                    boolean rep = r.nextBoolean();
                    double cap = r.nextBoolean() ? 5.2e10 : 1.3e10 + r.nextDouble() * 6e10; // mixed caps
                    s.scheduleAt(at, () -> fs.add(n.start(rep ? p3 : p1, bytes, 0, cap, null)));
                }
                s.scheduleAt(1_000_000, () -> n.setCapacity(up, 2.0e11));
                s.run();
                long last = 0;
                for (Flow f : fs) last = Math.max(last, f.endTime());
                ends[mode] = last;
            }
            assertThat(ends[0]).as("trial " + trial).isEqualTo(ends[1]);
        }
    }

    @Test
    void pathsWithTheSameWeightsShareOneArrayAndKeepTheirOwnConstraints() {
        int a = net.addLink("a", C, Sharing.FULL_DUPLEX);
        int b = net.addLink("b", C, Sharing.FULL_DUPLEX);
        FlowNetwork.Path ab = net.path(new int[] {hop(a, true), hop(b, true)}, 2);
        FlowNetwork.Path ba = net.path(new int[] {hop(b, false), hop(a, false)}, 2);
        FlowNetwork.Path aa = net.path(new int[] {hop(a, true), hop(a, true)}, 2); // one constraint crossed twice
        assertThat(ab.weights).containsExactly(2, 2).isSameAs(ba.weights);
        assertThat(aa.weights).containsExactly(4);
        assertThat(ab.cons).isNotSameAs(ba.cons);
        assertThat(ab.cons[0]).isNotSameAs(ba.cons[1]); // a forward vs a reverse
        // flows on the shared weights still count their own constraints: both directions of a carry C each
        Flow f = net.start(ab, (long) 1e9, 0, 0, null);
        Flow g = net.start(ba, (long) 1e9, 0, 0, null);
        sim.run();
        assertThat(f.endTime()).isEqualTo(g.endTime()).isEqualTo((long) (1e9 / (C / 2) * PS));
    }

    @Test
    void aFlowWithMultiplicityCountsAsThatManyFlows() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        // one flow standing for 3 replicas + 1 plain flow: max-min gives each of the 4 flows C/4
        Flow rep = net.start(new int[] {hop(l, false)}, 1_000_000_000L, 0, 0, 3, null);
        Flow one = net.start(new int[] {hop(l, false)}, 1_000_000_000L, 0, 0, null);
        assertThat(rep.rate()).isEqualTo(C / 4);
        assertThat(one.rate()).isEqualTo(C / 4);
        assertThat(net.linkRate(l, false)).isEqualTo(C);
        assertThat(rep.multiplicity()).isEqualTo(3);
        // both end together: 1e9 B at C/4 = 2.5e10 B/s -> 0.04 s = 40,000,000,000 ps
        sim.run();
        assertThat(rep.endTime()).isEqualTo(40_000_000_000L);
        assertThat(one.endTime()).isEqualTo(40_000_000_000L);
        // the link carried the 3 replicas and the plain flow
        assertThat(net.linkBytes(l, false)).isCloseTo(4e9, within(1.0));
        assertThatThrownBy(() -> net.start(new int[] {hop(l, false)}, 1, 0, 0, 0, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiplicity");
    }

    @Test
    void twoFlowsOnOneLinkShareHalfEach() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        long b1 = 1_000_000_000L;
        long b2 = 3_000_000_000L;
        Flow f1 = start(b1, hop(l, false));
        Flow f2 = start(b2, hop(l, false));
        assertThat(f1.rate()).isEqualTo(C / 2);
        assertThat(f2.rate()).isEqualTo(C / 2);
        sim.run();
        // f1: b1 at C/2 -> t1 = 2 b1 / C ; then f2 has b2 - b1 left at C -> t2 = t1 + (b2 - b1)/C
        long t1 = (long) (2 * b1 / C * PS);
        long t2 = t1 + (long) ((b2 - b1) / C * PS);
        assertThat(f1.endTime()).isEqualTo(t1).isEqualTo(20_000_000_000L);
        assertThat(f2.endTime()).isEqualTo(t2).isEqualTo(40_000_000_000L);
        assertThat(completed).containsExactly(f1, f2);
        assertThat(net.linkBytes(l, false)).isEqualTo((double) (b1 + b2));
        assertThat(net.linkBytes(l, true)).isZero();
        assertThat(net.solveCount()).isEqualTo(2); // one for both starts (coalesced), one after f1
    }

    @Test
    void parkingLotLongFlowGetsHalf() {
        int k = 5;
        int[] links = new int[k];
        int[] longRoute = new int[k];
        for (int i = 0; i < k; i++) {
            links[i] = net.addLink("l" + i, C, Sharing.FULL_DUPLEX);
            longRoute[i] = hop(links[i], false);
        }
        Flow lng = start(1L << 40, longRoute);
        Flow[] shorts = new Flow[k];
        for (int i = 0; i < k; i++) {
            shorts[i] = start(1L << 40, hop(links[i], false));
        }
        assertThat(lng.rate()).isEqualTo(C / 2);
        for (Flow s : shorts) {
            assertThat(s.rate()).isEqualTo(C / 2);
        }
        for (int i = 0; i < k; i++) {
            assertThat(net.linkRate(links[i], false)).isEqualTo(C);
        }
    }

    @Test
    void parkingLotWithUnequalCapacities() {
        // link0: C, link1: C/4. long flow crosses both; one short flow on each.
        int l0 = net.addLink("l0", C, Sharing.FULL_DUPLEX);
        int l1 = net.addLink("l1", C / 4, Sharing.FULL_DUPLEX);
        Flow lng = start(1L << 40, hop(l0, false), hop(l1, false));
        Flow s0 = start(1L << 40, hop(l0, false));
        Flow s1 = start(1L << 40, hop(l1, false));
        // link1 is the bottleneck: long and s1 get (C/4)/2; s0 gets the rest of link0
        assertThat(lng.rate()).isEqualTo(C / 4 / 2);
        assertThat(s1.rate()).isEqualTo(C / 4 / 2);
        assertThat(s0.rate()).isEqualTo(C - C / 4 / 2);
    }

    @Test
    void flowCappedByItsOwnRateLeavesTheRestToOthers() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        double cap = C / 10;
        Flow capped = net.start(new int[]{hop(l, false)}, 1L << 40, 0, cap, null);
        Flow other = start(1L << 40, hop(l, false));
        assertThat(capped.rate()).isEqualTo(cap);
        assertThat(other.rate()).isEqualTo(C - cap);
        // a cap above the fair share does not bind
        Flow loose = net.start(new int[]{hop(l, false)}, 1L << 40, 0, C, null);
        assertThat(loose.rate()).isEqualTo((C - cap) / 2);
        assertThat(other.rate()).isEqualTo((C - cap) / 2);
        // rate cap <= 0 or +Inf: none
        int l2 = net.addLink("l2", C, Sharing.FULL_DUPLEX);
        Flow neg = net.start(new int[]{hop(l2, false)}, 1L << 40, 0, -1, null);
        Flow inf = net.start(new int[]{hop(l2, false)}, 1L << 40, 0, Double.POSITIVE_INFINITY, null);
        assertThat(neg.rate()).isEqualTo(C / 2);
        assertThat(inf.rate()).isEqualTo(C / 2);
    }

    @Test
    void localCopyIsLimitedOnlyByItsCap() {
        double cap = 2e12;
        Flow f = net.start(new int[0], 4_000_000_000L, 0, cap, record);
        assertThat(f.rate()).isEqualTo(cap);
        sim.run();
        assertThat(f.endTime()).isEqualTo((long) (4e9 / cap * PS)).isEqualTo(2_000_000_000L);
        Flow g = net.start(new int[0], 100, 0, 0, record);
        sim.run();
        assertThat(g.endTime()).isEqualTo(f.endTime()); // uncapped: instantaneous
    }

    @Test
    void capacityChangeMidFlowGivesExactEndTime() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        long bytes = 1_000_000_000L;
        Flow f = start(bytes, hop(l, false));
        long tChange = 5 * Time.PS_PER_MS;
        double c2 = C / 2;
        sim.scheduleAt(tChange, () -> net.setCapacity(l, c2));
        sim.run();
        // before: C * tChange bytes; after: the rest at c2
        double before = C * tChange / PS;
        long expected = tChange + (long) ((bytes - before) / c2 * PS);
        assertThat(f.endTime()).isEqualTo(expected).isEqualTo(15_000_000_000L);
        assertThat(net.capacity(l)).isEqualTo(c2);
        assertThat(net.linkBytes(l, false)).isEqualTo((double) bytes);
    }

    @Test
    void linkDownStallsAndRestoreResumes() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        long bytes = 1_000_000_000L;
        Flow f = start(bytes, hop(l, false));
        long tDown = 2 * Time.PS_PER_MS;
        long tUp = 100 * Time.PS_PER_MS;
        sim.scheduleAt(tDown, () -> net.setCapacity(l, 0));
        sim.runUntil(tDown + 1);
        assertThat(f.rate()).isZero();
        assertThat(net.nextCompletionTime()).isEqualTo(Long.MAX_VALUE);
        assertThat(f.bytesDone()).isEqualTo(C * tDown / PS);
        sim.runUntil(tUp - 1);
        assertThat(f.bytesDone()).isEqualTo(C * tDown / PS);
        assertThat(f.isDone()).isFalse();
        sim.scheduleAt(tUp, () -> net.setCapacity(l, C));
        sim.run();
        // stalled between tDown and tUp: end = tUp + (bytes - C tDown)/C
        assertThat(f.endTime()).isEqualTo(tUp + (long) ((bytes - C * tDown / PS) / C * PS));
        assertThat(f.endTime()).isEqualTo(108_000_000_000L);
    }

    @Test
    void fullDuplexSharedAndFatPipeWithOppositeFlows() {
        int fd = net.addLink("fd", C, Sharing.FULL_DUPLEX);
        int sh = net.addLink("sh", C, Sharing.SHARED);
        int fp = net.addLink("fp", C, Sharing.FAT_PIPE);
        Flow fdA = start(1L << 40, hop(fd, false));
        Flow fdB = start(1L << 40, hop(fd, true));
        Flow shA = start(1L << 40, hop(sh, false));
        Flow shB = start(1L << 40, hop(sh, true));
        Flow fpA = start(1L << 40, hop(fp, false));
        Flow fpB = start(1L << 40, hop(fp, true));
        Flow fpC = start(1L << 40, hop(fp, false)); // same direction: still C each
        assertThat(fdA.rate()).isEqualTo(C);
        assertThat(fdB.rate()).isEqualTo(C);
        assertThat(shA.rate()).isEqualTo(C / 2);
        assertThat(shB.rate()).isEqualTo(C / 2);
        assertThat(fpA.rate()).isEqualTo(C);
        assertThat(fpB.rate()).isEqualTo(C);
        assertThat(fpC.rate()).isEqualTo(C);
        assertThat(net.linkRate(fp, false)).isEqualTo(2 * C);
        assertThat(net.linkRate(sh, true)).isEqualTo(C / 2);
        // fat-pipe capacity change re-bounds its flows
        net.setCapacity(fp, C / 4);
        assertThat(fpA.rate()).isEqualTo(C / 4);
        assertThat(fpC.rate()).isEqualTo(C / 4);
    }

    @Test
    void flowCrossingASharedLinkBothWaysUsesItTwice() {
        int sh = net.addLink("sh", C, Sharing.SHARED);
        Flow f = start(1L << 40, hop(sh, false), hop(sh, true));
        assertThat(f.rate()).isEqualTo(C / 2);
    }

    @Test
    void latencyPhaseThenBandwidthPhase() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        long lat = Time.us(3);
        long bytes = 1_000_000L;
        Flow f = net.start(new int[]{hop(l, false)}, bytes, lat, 0, record);
        Flow other = start(1L << 40, hop(l, false));
        assertThat(f.rate()).isZero();
        assertThat(other.rate()).isEqualTo(C);
        sim.runUntil(lat - 1);
        assertThat(f.bytesDone()).isZero();
        assertThat(other.rate()).isEqualTo(C);
        sim.runUntil(lat);
        assertThat(f.rate()).isEqualTo(C / 2);
        sim.runUntil(() -> f.isDone());
        assertThat(f.endTime()).isEqualTo(lat + (long) (bytes / (C / 2) * PS)).isEqualTo(23_000_000L);
        assertThat(other.rate()).isEqualTo(C);
        // zero bytes: completes right after the latency
        Flow z = net.start(new int[]{hop(l, false)}, 0, lat, 0, record);
        assertThat(net.nextCompletionTime()).isEqualTo(sim.now() + lat);
        long t0 = sim.now();
        sim.runUntil(() -> z.isDone());
        assertThat(z.endTime()).isEqualTo(t0 + lat);
        assertThat(z.bytesDone()).isZero();
    }

    @Test
    void bytesDoneAndLinkBytesAreConsistent() {
        int a = net.addLink("a", C, Sharing.FULL_DUPLEX);
        int b = net.addLink("b", C / 2, Sharing.FULL_DUPLEX);
        Flow f1 = start(2_000_000_000L, hop(a, false), hop(b, false));
        Flow f2 = start(1_000_000_000L, hop(a, false));
        Flow f3 = start(500_000_000L, hop(b, false));
        long t = 3 * Time.PS_PER_MS;
        sim.runUntil(t);
        // b: f1, f3 at C/4 each; a: f2 gets C - C/4
        assertThat(f1.rate()).isEqualTo(C / 4);
        assertThat(f3.rate()).isEqualTo(C / 4);
        assertThat(f2.rate()).isEqualTo(C - C / 4);
        assertThat(f1.bytesDone()).isEqualTo(C / 4 * t / PS);
        assertThat(net.linkBytes(a, false)).isEqualTo(f1.bytesDone() + f2.bytesDone());
        assertThat(net.linkBytes(b, false)).isEqualTo(f1.bytesDone() + f3.bytesDone());
        sim.run();
        assertThat(net.linkBytes(a, false)).isCloseTo(2e9 + 1e9, within(1e-3));
        assertThat(net.linkBytes(b, false)).isCloseTo(2e9 + 5e8, within(1e-3));
        assertThat(net.linkRate(a, false)).isZero();
        assertThat(net.activeFlowCount()).isZero();
        assertThat(net.nextCompletionTime()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void nextCompletionTimeTracksTheEarliestFlow() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        int m = net.addLink("m", C, Sharing.FULL_DUPLEX);
        start(1_000_000_000L, hop(l, false));
        start(100_000_000L, hop(m, false));
        assertThat(net.nextCompletionTime()).isEqualTo((long) (1e8 / C * PS));
        sim.step();
        sim.runUntil(() -> completed.size() == 1);
        assertThat(net.nextCompletionTime()).isEqualTo((long) (1e9 / C * PS));
    }

    @Test
    void cancelRemovesWithoutCallbackAndReSolves() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        Flow f1 = start(1L << 40, hop(l, false));
        Flow f2 = start(1_000_000_000L, hop(l, false));
        sim.runUntil(Time.ms(1));
        assertThat(f2.rate()).isEqualTo(C / 2);
        double doneAtCancel = f1.bytesDone();
        net.cancel(f1);
        net.cancel(f1); // no effect
        assertThat(f1.isCancelled()).isTrue();
        assertThat(f2.rate()).isEqualTo(C);
        sim.run();
        assertThat(completed).containsExactly(f2);
        assertThat(f1.bytesDone()).isEqualTo(doneAtCancel);
        // f2: C/2 for 1 ms, then the rest at C
        long t1 = Time.ms(1);
        assertThat(f2.endTime()).isEqualTo(t1 + (long) ((1e9 - C / 2 * t1 / PS) / C * PS));
        Flow lat = net.start(new int[]{hop(l, false)}, 10, 100, 0, record);
        net.cancel(lat);
        sim.run();
        assertThat(completed).containsExactly(f2);
        FlowNetwork other = new FlowNetwork(sim);
        assertThatThrownBy(() -> other.cancel(f2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another FlowNetwork");
    }

    @Test
    void componentLocality() {
        // island A: one link, two flows. island B: 200 links chained by 400 flows. Whole components are solved.
        FlowNetwork net = new FlowNetwork(sim, FlowNetwork.Options.DEFAULT.withRegionSolve(false));
        int a = net.addLink("a", C, Sharing.FULL_DUPLEX);
        int nB = 200;
        int[] b = new int[nB];
        for (int i = 0; i < nB; i++) {
            b[i] = net.addLink("b" + i, C, Sharing.FULL_DUPLEX);
        }
        for (int i = 0; i < nB; i++) {
            startOn(net, 1L << 40, hop(b[i], false));
            startOn(net, 1L << 40, hop(b[i], false), hop(b[(i + 1) % nB], false));
        }
        Flow a1 = startOn(net, 1L << 40, hop(a, false));
        net.nextCompletionTime(); // solve everything once
        long work0 = net.solverWork();
        Flow a2 = startOn(net, 1L << 40, hop(a, false));
        assertThat(a2.rate()).isEqualTo(C / 2);
        // the solve touched island A only: 2 flows + 1 constraint
        assertThat(net.solverWork() - work0).isEqualTo(2 + 1);
        long work1 = net.solverWork();
        net.setCapacity(a, C / 2);
        assertThat(a1.rate()).isEqualTo(C / 4);
        assertThat(net.solverWork() - work1).isEqualTo(2 + 1); // the reverse direction carries nothing: not seeded
        long work2 = net.solverWork();
        net.setCapacity(b[0], C / 2);
        net.linkRate(b[0], false);
        assertThat(net.solverWork() - work2).isEqualTo(2 * nB + nB); // all of island B (forward constraints), no more
    }

    @Test
    void manyFlowsStartingAtOneInstantAreSolvedOnce() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        sim.schedule(10, () -> {
            for (int i = 0; i < 100; i++) {
                start(1_000_000L * (i + 1), hop(l, false));
            }
        });
        sim.runUntil(10);
        assertThat(net.solveCount()).isEqualTo(1);
        sim.run();
        assertThat(completed).hasSize(100);
        // flow i (1-based) ends at 10 + sum over j<=i of (100 - j + 1) * 1e6 / C
        long t = 10;
        for (int i = 1; i <= 100; i++) {
            t += (101 - i) * (1_000_000L * PS / (long) C); // (101-i) flows share C, each needs 1e6 more bytes
            assertThat(completed.get(i - 1).endTime()).isEqualTo(t);
        }
    }

    @Test
    void deterministicAcrossRuns() {
        assertThat(randomWorkload(5)).isEqualTo(randomWorkload(5));
        assertThat(randomWorkload(5)).isNotEqualTo(randomWorkload(6));
    }

    private static List<Long> randomWorkload(long seed) {
        Simulator s = new Simulator(seed);
        FlowNetwork n = new FlowNetwork(s);
        var r = s.random("flows");
        int links = 20;
        for (int i = 0; i < links; i++) {
            n.addLink("l" + i, 1e9 + r.nextInt(1000) * 1e7, Sharing.values()[r.nextInt(3)]);
        }
        List<Long> ends = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int len = r.nextInt(4);
            int[] route = new int[len];
            for (int k = 0; k < len; k++) {
                route[k] = hop(r.nextInt(links), r.nextBoolean());
            }
            long when = r.nextInt(1_000_000) * 1000L;
            long bytes = r.nextInt(10_000_000);
            long lat = r.nextInt(5) * 1000L;
            double cap = r.nextBoolean() ? 0 : 5e8;
            s.scheduleAt(when, () -> n.start(route, bytes, lat, cap, f -> ends.add(f.id() * 31 + f.endTime())));
        }
        s.run();
        assertThat(ends).hasSize(300);
        return ends;
    }

    @Test
    void rejectsBadInput() {
        int l = net.addLink("l", C, Sharing.FULL_DUPLEX);
        assertThatThrownBy(() -> net.addLink("x", -1, Sharing.SHARED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x'").hasMessageContaining(">= 0");
        assertThatThrownBy(() -> net.addLink("x", Double.NaN, Sharing.SHARED))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> net.addLink("x", Double.POSITIVE_INFINITY, Sharing.SHARED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
        assertThatThrownBy(() -> net.setCapacity(l, -5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("link 0 'l'");
        assertThatThrownBy(() -> net.setCapacity(3, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("valid is 0..0");
        assertThatThrownBy(() -> start(10, hop(7, false)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("route[0]");
        assertThatThrownBy(() -> start(-1, hop(l, false)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bytes");
        assertThatThrownBy(() -> net.start(new int[]{hop(l, false)}, 1, -1, 0, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("latency");
        assertThatThrownBy(() -> net.start(new int[]{hop(l, false)}, 1, 0, Double.NaN, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThatThrownBy(() -> hop(-1, false)).isInstanceOf(IllegalArgumentException.class);
        assertThat(hop(3, true)).isEqualTo(7);
        assertThat(net.linkCount()).isEqualTo(1);
    }

    @Test
    void completionDelayRounding() {
        assertThat(FlowNetwork.completionDelayPs(1e9, 1e11)).isEqualTo(10_000_000_000L);
        assertThat(FlowNetwork.completionDelayPs(1, 3e11)).isEqualTo(4); // 3.33 ps -> ceil
        assertThat(FlowNetwork.completionDelayPs(0, 1)).isZero();
        assertThat(FlowNetwork.completionDelayPs(5, 0)).isEqualTo(-1);
        assertThat(FlowNetwork.completionDelayPs(1e18, 1e-3)).isEqualTo(Long.MAX_VALUE);
    }

    // ---- duplex efficiency: a direction's capacity is C, or C e while the opposite direction is busy

    private static double[] duplexRates(double e, boolean fast, double fwdCap, boolean withRev) {
        Simulator s = new Simulator(1);
        FlowNetwork n = new FlowNetwork(s, FlowNetwork.Options.DEFAULT.withUniformFastPath(fast));
        int l = n.addLink("nvl", C, Sharing.FULL_DUPLEX);
        n.setDuplexEfficiency(l, e);
        Flow f = n.start(new int[] {hop(l, false)}, 1L << 40, 0, fwdCap, null);
        Flow r = withRev ? n.start(new int[] {hop(l, true)}, 1L << 40, 0, 0, null) : null;
        return new double[] {f.rate(), r == null ? 0 : r.rate()};
    }

    @Test
    void oneFlowEachWayGetsTheDirectionCapacityTimesTheEfficiency() {
        for (boolean fast : new boolean[] {true, false}) {
            for (double e : new double[] {0.74, 0.4, 1.0}) {
                double[] r = duplexRates(e, fast, 0, true);
                assertThat(r[0]).as("e=%s fwd", e).isCloseTo(C * e, within(1e-3));
                assertThat(r[1]).as("e=%s rev", e).isCloseTo(C * e, within(1e-3));
            }
        }
    }

    @Test
    void oneWayOnlyKeepsTheFullDirectionCapacity() {
        for (boolean fast : new boolean[] {true, false}) {
            assertThat(duplexRates(0.74, fast, 0, false)[0]).isCloseTo(C, within(1e-3));
            assertThat(duplexRates(0.4, fast, 0, false)[0]).isCloseTo(C, within(1e-3));
        }
    }

    @Test
    void aBusyOppositeDirectionCostsTheEfficiencyWhateverItsRate() {
        // the penalty is the link's both-ways mode: a reverse flow capped at 0.2 C still makes it C e forward
        double cap = 0.2 * C;
        for (double e : new double[] {0.74, 0.5}) {
            double[] r = duplexRates(e, false, cap, true);
            assertThat(r[0]).isCloseTo(cap, within(1e-3));
            assertThat(r[1]).as("e=%s", e).isCloseTo(C * e, within(1e-3));
        }
    }

    @Test
    void duplexFlowsCompleteAtTheReducedRateAndFollowCapacityChanges() {
        double e = 0.75;
        int l = net.addLink("nvl", C, Sharing.FULL_DUPLEX);
        net.setDuplexEfficiency(l, e);
        assertThat(net.duplexEfficiency(l)).isEqualTo(e);
        Flow f = start(750_000_000L, hop(l, false));
        Flow r = start(750_000_000L, hop(l, true));
        sim.run();
        // 7.5e8 B at C e = 7.5e10 B/s each: 0.01 s
        assertThat(f.endTime()).isEqualTo(r.endTime()).isEqualTo((long) (7.5e8 / (C * e) * PS));
        // half the capacity: both ways get (C/2) e
        net.setCapacity(l, C / 2);
        Flow f2 = start(1L << 40, hop(l, false));
        Flow r2 = start(1L << 40, hop(l, true));
        assertThat(f2.rate()).isCloseTo(C / 2 * e, within(1e-3));
        assertThat(r2.rate()).isCloseTo(C / 2 * e, within(1e-3));
        assertThat(net.linkRate(l, false) + net.linkRate(l, true)).isCloseTo(2 * (C / 2) * e, within(1e-2));
        // a capacity change while both ways are busy keeps the mode
        net.setCapacity(l, C);
        assertThat(f2.rate()).isCloseTo(C * e, within(1e-3));
        net.cancel(r2);
        assertThat(f2.rate()).isCloseTo(C, within(1e-3));
    }

    /** The mode follows the count of bandwidth-phase flows each way, including a flow over both directions. */
    @Test
    void theBothWaysModeFollowsTheFlowsOfEachDirection() {
        double e = 0.75;
        int l = net.addLink("nvl", C, Sharing.FULL_DUPLEX);
        int other = net.addLink("other", C, Sharing.FULL_DUPLEX);
        net.setDuplexEfficiency(l, e);
        Flow f = start(1L << 50, hop(l, false));
        assertThat(f.rate()).isEqualTo(C); // one way
        Flow r = start(1L << 50, hop(l, true));
        assertThat(f.rate()).isCloseTo(C * e, within(1e-3));
        assertThat(r.rate()).isCloseTo(C * e, within(1e-3));
        net.cancel(r);
        assertThat(f.rate()).isEqualTo(C); // one way again
        Flow f2 = start(1L << 50, hop(l, false));
        assertThat(f.rate()).isCloseTo(C / 2, within(1e-3));
        Flow r2 = start(1L << 50, hop(l, true), hop(other, false));
        // fwd: f + f2 <= C e = 0.75 C, 0.375 C each; rev: r2 <= 0.75 C (other is one way: C)
        assertThat(f.rate()).isCloseTo(0.375 * C, within(1e-3));
        assertThat(f2.rate()).isCloseTo(0.375 * C, within(1e-3));
        assertThat(r2.rate()).isCloseTo(0.75 * C, within(1e-3));
        net.cancel(f2);
        net.cancel(r2);
        assertThat(f.rate()).isEqualTo(C);
        // a flow there and back makes both directions busy by itself
        Flow both = start(1L << 50, hop(l, false), hop(l, true));
        // fwd: f + both <= 0.75 C: 0.375 C each; rev: both <= 0.75 C (not binding)
        assertThat(f.rate()).isCloseTo(0.375 * C, within(1e-3));
        assertThat(both.rate()).isCloseTo(0.375 * C, within(1e-3));
        net.cancel(f);
        assertThat(both.rate()).isCloseTo(C * e, within(1e-3));
        net.cancel(both);
        assertThat(net.activeFlowCount()).isZero();
        assertThat(net.linkRate(l, false)).isZero();
        assertThat(net.linkRate(l, true)).isZero();
        // idle again: one way gets C
        assertThat(start(1L << 50, hop(l, true)).rate()).isEqualTo(C);
    }

    @Test
    void aDuplexEfficiencySetMidRunTakesEffectAtOnce() {
        int l = net.addLink("nvl", C, Sharing.FULL_DUPLEX);
        Flow f = start(1L << 50, hop(l, false));
        Flow r = start(1L << 50, hop(l, true));
        assertThat(f.rate()).isEqualTo(C);
        net.setDuplexEfficiency(l, 0.5);
        assertThat(f.rate()).isCloseTo(C / 2, within(1e-3));
        assertThat(r.rate()).isCloseTo(C / 2, within(1e-3));
        net.setDuplexEfficiency(l, 1.0);
        assertThat(f.rate()).isEqualTo(C);
    }

    @Test
    void aDuplexPenaltyDoesNotJoinARingIntoOneComponent() {
        // 8 GPU ports on a switch, flow i from port i (fwd) to port i+1 (rev): every port busy both ways.
        // Ending flow 0 changes the mode of port 0's rev (flow 7) and port 1's fwd (flow 1): only those two
        // one-flow components are solved again, not the ring.
        // Whole components are solved here (RegionSolverTest has the regions' own case).
        FlowNetwork net = new FlowNetwork(sim, FlowNetwork.Options.DEFAULT.withRegionSolve(false));
        double e = 0.9;
        int[] port = new int[8];
        for (int i = 0; i < 8; i++) {
            port[i] = net.addLink("p" + i, C, Sharing.FULL_DUPLEX);
            net.setDuplexEfficiency(port[i], e);
        }
        Flow[] fs = new Flow[8];
        for (int i = 0; i < 8; i++) {
            fs[i] = startOn(net, 1L << 50, hop(port[i], false), hop(port[(i + 1) % 8], true));
        }
        for (Flow x : fs) assertThat(x.rate()).isCloseTo(C * e, within(1e-3));
        long work = net.solverWork();
        net.cancel(fs[0]);
        assertThat(fs[7].rate()).isCloseTo(C * e, within(1e-3)); // its fwd port 7 is still busy both ways
        assertThat(fs[1].rate()).isCloseTo(C * e, within(1e-3));
        assertThat(net.solverWork() - work).as("flows + constraints solved").isEqualTo(2 * (1 + 2));
        assertThat(net.maxComponentFlows()).as("every flow was solved alone").isEqualTo(1);
    }

    @Test
    void duplexEfficiencyRejectsBadInput() {
        int shared = net.addLink("pcie", C, Sharing.SHARED);
        int fd = net.addLink("nvl", C, Sharing.FULL_DUPLEX);
        assertThatThrownBy(() -> net.setDuplexEfficiency(shared, 0.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only a FULL_DUPLEX link")
                .hasMessageContaining("'pcie'").hasMessageContaining("SHARED");
        assertThatThrownBy(() -> net.setDuplexEfficiency(fd, 0)).hasMessageContaining("must be in (0, 1], was 0.0");
        assertThatThrownBy(() -> net.setDuplexEfficiency(fd, 1.5)).hasMessageContaining("must be in (0, 1], was 1.5");
        assertThatThrownBy(() -> net.setDuplexEfficiency(fd, Double.NaN)).hasMessageContaining("must be in (0, 1]");
        assertThatThrownBy(() -> net.setDuplexEfficiency(7, 0.5)).hasMessageContaining("link index 7 out of range");
    }

    @Test
    void theDuplexLimitHoldsOnlyWhileBothDirectionsCarryTraffic() {
        // e = 0.6: both ways at C e until the short flow is done, then the long one alone at C
        double e = 0.6;
        int l = net.addLink("nvl", C, Sharing.FULL_DUPLEX);
        net.setDuplexEfficiency(l, e);
        long shortBytes = 600_000_000L;   // 6e8 B at C e = 6e10 B/s: 0.01 s
        long longBytes = 1_600_000_000L;  // 6e8 B in the first 0.01 s, the other 1e9 B at C: 0.01 s more
        Flow f = start(shortBytes, hop(l, false));
        Flow r = start(longBytes, hop(l, true));
        sim.run();
        long t1 = (long) (shortBytes / (C * e) * PS);
        assertThat(f.endTime()).isEqualTo(t1).isEqualTo(10_000_000_000L);
        assertThat(r.endTime()).isEqualTo(t1 + (long) ((longBytes - shortBytes) / C * PS)).isEqualTo(20_000_000_000L);
        assertThat(net.linkBytes(l, false)).isCloseTo(shortBytes, within(1e-3));
        assertThat(net.linkBytes(l, true)).isCloseTo(longBytes, within(1e-3));
        // a later pair is limited again
        Flow f2 = start(1L << 40, hop(l, false));
        assertThat(f2.rate()).isCloseTo(C, within(1e-3));
        Flow r2 = start(1L << 40, hop(l, true));
        assertThat(f2.rate()).isCloseTo(C * e, within(1e-3));
        assertThat(r2.rate()).isCloseTo(C * e, within(1e-3));
        net.cancel(r2);
        assertThat(f2.rate()).isCloseTo(C, within(1e-3));
    }

    @Test
    void aDuplexLimitHoldsEveryDirectionOfARing() {
        // ring of 3 GPUs on one switch, each GPU's port a FULL_DUPLEX link with e = 0.5: flow i goes
        // port i forward then port i+1 reverse. Every port carries one flow each way, so each direction
        // has C e = C/2: C/2 each, for the general solver and the fast path alike.
        for (boolean fast : new boolean[] {true, false}) {
            Simulator s = new Simulator(1);
            FlowNetwork n = new FlowNetwork(s, FlowNetwork.Options.DEFAULT.withUniformFastPath(fast));
            int[] port = new int[3];
            for (int i = 0; i < 3; i++) {
                port[i] = n.addLink("p" + i, C, Sharing.FULL_DUPLEX);
                n.setDuplexEfficiency(port[i], 0.5);
            }
            Flow[] fs = new Flow[3];
            for (int i = 0; i < 3; i++) {
                fs[i] = n.start(new int[] {hop(port[i], false), hop(port[(i + 1) % 3], true)}, 1L << 40, 0, 0, null);
            }
            for (Flow x : fs) assertThat(x.rate()).isCloseTo(C * 0.5, within(1e-3));
        }
    }
}

