package io.ccsim.sim.flow;

import io.ccsim.sim.RandomStream;
import io.ccsim.sim.Sharing;
import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static io.ccsim.sim.flow.FlowNetwork.hop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link FlowNetwork#startRecycled} reuses finished flow objects: a workload run with it must give exactly the
 * completions (time and order) of the same workload run with {@link FlowNetwork#start}, while creating no more
 * flow objects than were ever active at once.
 */
class RecycledFlowTest {

    /** Chains of flows on random paths: each completion starts the chain's next flow; returns "time:chain" lines. */
    private static List<String> run(long seed, boolean recycled, Set<Flow> seen, int[] peakActive) {
        return run(seed, recycled, true, seen, peakActive);
    }

    private static List<String> run(long seed, boolean recycled, boolean traffic, Set<Flow> seen, int[] peakActive) {
        Simulator sim = new Simulator(seed);
        RandomStream r = sim.random("workload");
        FlowNetwork net = new FlowNetwork(sim, FlowNetwork.Options.DEFAULT.withTrackNextCompletion(seed % 2 == 0).withTrackLinkTraffic(traffic)); // with and without the completion heap
        int links = 2 + r.nextInt(5);
        for (int i = 0; i < links; i++) {
            Sharing sharing = Sharing.values()[r.nextInt(3)];
            net.addLink("l" + i, 1e9 * (1 + r.nextInt(8)), sharing);
            // duplex limits: a direction's capacity follows the opposite direction's flow count
            if (sharing == Sharing.FULL_DUPLEX && r.nextBoolean()) net.setDuplexEfficiency(i, 0.5 + 0.1 * r.nextInt(5));
        }
        net.setCapacity(0, net.capacity(0)); // no-op: a capacity set before any flow
        int nPaths = 6;
        FlowNetwork.Path[] paths = new FlowNetwork.Path[nPaths];
        for (int p = 0; p < nPaths; p++) {
            int len = r.nextInt(4); // 0..3 hops: local copies, and routes of different lengths (posInCons grows)
            int[] route = new int[len];
            for (int h = 0; h < len; h++) route[h] = hop(r.nextInt(links), r.nextBoolean());
            paths[p] = net.path(route, 1 + r.nextInt(3));
        }
        List<String> out = new ArrayList<>();
        int chains = 3 + r.nextInt(6);
        int[] left = new int[chains];
        for (int c = 0; c < chains; c++) left[c] = 5 + r.nextInt(20);
        // the workload's random choices come from per-chain streams, so both runs draw the same numbers
        RandomStream[] cr = new RandomStream[chains];
        for (int c = 0; c < chains; c++) cr[c] = sim.random("chain" + c);
        FlowListener[] next = new FlowListener[chains];
        for (int c = 0; c < chains; c++) {
            final int chain = c;
            next[c] = f -> {
                seen.add(f);
                out.add(sim.now() + ":" + chain);
                if (--left[chain] > 0) startOne(net, paths, cr[chain], recycled, next[chain]);
                peakActive[0] = Math.max(peakActive[0], net.activeFlowCount());
            };
        }
        for (int c = 0; c < chains; c++) startOne(net, paths, cr[c], recycled, next[c]);
        peakActive[0] = Math.max(peakActive[0], net.activeFlowCount());
        // mid-run capacity changes re-solve flows of both kinds
        sim.schedule(2_000_000, () -> net.setCapacity(0, net.capacity(0) / 3));
        sim.schedule(9_000_000, () -> net.setCapacity(0, net.capacity(0) * 5));
        sim.run();
        assertThat(net.activeFlowCount()).isZero();
        return out;
    }

    private static void startOne(FlowNetwork net, FlowNetwork.Path[] paths, RandomStream r, boolean recycled, FlowListener l) {
        FlowNetwork.Path p = paths[r.nextInt(paths.length)];
        long bytes = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(20_000);
        long latency = r.nextInt(3) == 0 ? 0 : r.nextInt(3_000_000);
        double cap = r.nextBoolean() ? 0 : 1e8 * (1 + r.nextInt(40));
        if (recycled) {
            net.startRecycled(p, bytes, latency, cap, l);
        } else {
            net.start(p, bytes, latency, cap, l);
        }
    }

    @Test
    void recycledFlowsCompleteExactlyAsFreshOnes() {
        for (long seed = 0; seed < 60; seed++) {
            Set<Flow> freshSeen = Collections.newSetFromMap(new IdentityHashMap<>());
            Set<Flow> recycledSeen = Collections.newSetFromMap(new IdentityHashMap<>());
            int[] peakFresh = {0};
            int[] peakRecycled = {0};
            List<String> fresh = run(seed, false, freshSeen, peakFresh);
            List<String> recycled = run(seed, true, recycledSeen, peakRecycled);
            assertThat(recycled).as("seed %d", seed).isEqualTo(fresh);
            assertThat(freshSeen).hasSize(fresh.size()); // every start a new object
            // reuse: never more objects than flows active at once (a listener's new flow may come before the old one
            // is back in the pool, hence + 1)
            assertThat(recycledSeen.size()).as("seed %d", seed).isLessThanOrEqualTo(peakRecycled[0] + 1);
            assertThat(recycledSeen.size()).as("seed %d: objects reused", seed).isLessThan(recycled.size());
        }
    }

    /**
     * Without link traffic tracking the network keeps no per-direction counters (the duplex mode then follows the
     * constraints' member counts): every completion must still come at the same time, in the same order.
     */
    @Test
    void untrackedLinkTrafficCompletesExactlyAsTracked() {
        for (long seed = 0; seed < 60; seed++) {
            Set<Flow> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            int[] peak = {0};
            List<String> tracked = run(seed, seed % 3 == 0, true, seen, peak);
            List<String> untracked = run(seed, seed % 3 == 0, false, seen, peak);
            assertThat(untracked).as("seed %d", seed).isEqualTo(tracked);
            assertThat(untracked).as("seed %d", seed).isNotEmpty();
        }
        FlowNetwork net = new FlowNetwork(new Simulator(1), FlowNetwork.Options.DEFAULT.withTrackNextCompletion(false).withTrackLinkTraffic(false));
        int l = net.addLink("nvl", 1e9, Sharing.FULL_DUPLEX);
        assertThatThrownBy(() -> net.linkBytes(l, false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("linkBytes: this network was created without link traffic tracking");
        assertThatThrownBy(() -> net.linkRate(l, true)).hasMessageContaining("linkRate: this network was created without");
    }

    /** A path over one direction of one 1 GB/s full-duplex link of {@code net}. */
    private static FlowNetwork.Path oneLinkPath(FlowNetwork net) {
        return net.path(new int[] {hop(net.addLink("a", 1e9, Sharing.FULL_DUPLEX), false)}, 1);
    }

    @Test
    void recycledStartValidatesItsArgumentsAsStartDoes() {
        FlowNetwork net = new FlowNetwork(new Simulator(1));
        FlowNetwork.Path p = oneLinkPath(net);
        assertThatThrownBy(() -> net.startRecycled(p, -1, 0, 0, null)).hasMessageContaining("bytes must be >= 0, was -1");
        assertThatThrownBy(() -> net.startRecycled(p, 1, -5, 0, null)).hasMessageContaining("latency must be >= 0 ps, was -5");
        assertThatThrownBy(() -> net.startRecycled(p, 1, 0, Double.NaN, null)).hasMessageContaining("rate cap is NaN");
        assertThatThrownBy(() -> net.startRecycled(null, 1, 0, 0, null)).hasMessageContaining("path must not be null");
    }

    /** A recycled flow carries its start's key to the listener, also when its object is reused for another key. */
    @Test
    void recycledFlowsCarryTheirKeyToTheListener() {
        Simulator sim = new Simulator(1);
        FlowNetwork net = new FlowNetwork(sim);
        FlowNetwork.Path p = oneLinkPath(net);
        List<String> got = new ArrayList<>();
        Set<Flow> objects = Collections.newSetFromMap(new IdentityHashMap<>());
        FlowListener[] listener = new FlowListener[1];
        listener[0] = f -> {
            objects.add(f);
            got.add(sim.now() + ":" + f.key());
            if (f.key() < 40) net.startRecycled(p, 1000 * (1 + f.key() % 3), f.key() % 2 * 500, 0, listener[0], f.key() + 7);
        };
        net.startRecycled(p, 1000, 0, 0, listener[0], 5);
        net.startRecycled(p, 3000, 200, 0, listener[0], 6);
        net.startRecycled(p, 2000, 0, 0, listener[0]); // no key: 0
        sim.run();
        assertThat(got).extracting(x -> Integer.parseInt(x.substring(x.indexOf(':') + 1)))
                .containsExactlyInAnyOrder(5, 12, 19, 26, 33, 40, 6, 13, 20, 27, 34, 41, 0, 7, 14, 21, 28, 35, 42);
        assertThat(objects.size()).isLessThan(got.size()); // objects were reused, each time with its new key
    }

    /** A flow is its own simulator event; running it from elsewhere is refused, before and after its event. */
    @Test
    void aFlowsEventRunsOnlyFromTheSimulator() {
        Simulator sim = new Simulator(1);
        FlowNetwork net = new FlowNetwork(sim);
        int l = net.addLink("a", 1e9, Sharing.FULL_DUPLEX);
        Flow f = net.start(new int[] {hop(l, false)}, 1000, 100, 0, null);
        assertThatThrownBy(f::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("has none due now");
        sim.run();
        assertThat(f.isDone()).isTrue();
        assertThatThrownBy(f::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("simulator event");
    }
}
