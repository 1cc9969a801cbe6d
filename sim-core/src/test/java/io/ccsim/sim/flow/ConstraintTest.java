package io.ccsim.sim.flow;

import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A constraint's tombstone membership: positions stay right through removals, trims, compactions and growth. */
class ConstraintTest {

    @Test
    void membersKeepTheirPositionsThroughRandomAddsAndRemoves() {
        FlowNetwork net = new FlowNetwork(new Simulator(1));
        Constraint other = new Constraint(1, true, 1e9, 2);
        for (long seed = 0; seed < 40; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            Constraint c = new Constraint(0, true, 1e9, 0);
            List<Flow> live = new ArrayList<>();
            int maxLive = 0;
            for (int op = 0; op < 2_000; op++) {
                boolean add = live.isEmpty() || r.nextInt(100) < (seed % 2 == 0 ? 55 : 45);
                if (add) {
                    // c at slot 0 or 1 of the flow's constraints, so that compaction has to find it
                    boolean second = r.nextBoolean();
                    Constraint[] cs = second ? new Constraint[] {other, c} : new Constraint[] {c};
                    int[] ws = new int[cs.length];
                    ws[second ? 1 : 0] = 1 + (int) (op % 3);
                    Flow f = new Flow(net, op, new int[0], 1, 1, null, 0, cs, ws);
                    f.posInCons = new int[cs.length]; // as FlowNetwork.join sizes it
                    f.posInCons[second ? 1 : 0] = c.add(f, second ? 1 : 0);
                    live.add(f);
                } else {
                    Flow f = live.remove(r.nextInt(live.size()));
                    c.remove(f.posInCons[f.cons.length - 1]);
                }
                maxLive = Math.max(maxLive, live.size());
                // holes are reclaimed: the array grows only when at least half of it is live, so it stays
                // below 4 x the most members ever live at once
                assertThat(c.members.length).as("seed %d op %d", seed, op).isLessThanOrEqualTo(Math.max(4, 4 * maxLive));
                assertThat(c.size).isEqualTo(live.size());
                int seen = 0;
                Flow previous = null;
                for (int k = c.head; k < c.end; k++) {
                    Flow m = c.member(k);
                    if (m == null) continue;
                    seen++;
                    assertThat(previous == null || previous.id() < m.id()).as("seed %d op %d: in join order", seed, op).isTrue();
                    previous = m;
                }
                assertThat(seen).as("seed %d op %d: live entries", seed, op).isEqualTo(live.size());
                assertThat(c.end - c.head).as("the ring fits its array").isLessThanOrEqualTo(c.members.length);
                assertThat(c.size == 0 || c.member(c.end - 1) != null).as("no trailing hole").isTrue();
                assertThat(c.size == 0 || c.member(c.head) != null).as("no leading hole").isTrue();
                for (Flow f : live) {
                    int pos = f.posInCons[f.cons.length - 1];
                    assertThat(c.members[pos]).isSameAs(f);
                    assertThat(c.weights[pos]).as("its weight moves with it").isEqualTo(f.weights[f.cons.length - 1]);
                }
            }
        }
    }
    @Test
    void membersThatLeaveInTheOrderTheyJoinedNeverMove() {
        // a pipeline's slices: each flow joins after the ones before it and leaves about when they have left
        FlowNetwork net = new FlowNetwork(new Simulator(1));
        for (int window = 1; window <= 9; window++) {
            Constraint c = new Constraint(0, true, 1e9, 0);
            java.util.ArrayDeque<Flow> live = new java.util.ArrayDeque<>();
            java.util.Map<Flow, Integer> placed = new java.util.HashMap<>();
            int longest = 0;
            for (int op = 0; op < 5_000; op++) {
                Flow f = new Flow(net, op, new int[0], 1, 1, null, 0, new Constraint[] {c}, new int[] {1});
                f.posInCons = new int[1];
                f.posInCons[0] = c.add(f, 0);
                live.add(f);
                placed.put(f, f.posInCons[0]);
                if (c.members.length > longest) {
                    // the ring grew (while the window filled): its members were moved to the front
                    longest = c.members.length;
                    for (Flow m : live) placed.put(m, m.posInCons[0]);
                }
                if (live.size() > window) {
                    Flow old = live.poll();
                    c.remove(old.posInCons[0]);
                }
                for (Flow m : live) {
                    assertThat(m.posInCons[0]).as("window %d op %d: nobody moved", window, op).isEqualTo(placed.get(m));
                }
                c.compactIfSparse(); // as the solver does: a FIFO ring has no holes to compact
            }
            assertThat(longest).as("window %d: the ring grew only to hold the window", window)
                    .isLessThanOrEqualTo(Math.max(4, Integer.highestOneBit(window + 1) * 2));
        }
    }

    @Test
    void compactionKeepsTheJoinOrderAcrossTheRingsEnd() {
        FlowNetwork net = new FlowNetwork(new Simulator(1));
        Constraint c = new Constraint(0, true, 1e9, 0);
        List<Flow> all = new ArrayList<>();
        for (int op = 0; op < 6; op++) {
            Flow f = new Flow(net, op, new int[0], 1, 1, null, 0, new Constraint[] {c}, new int[] {op + 1});
            f.posInCons = new int[1];
            f.posInCons[0] = c.add(f, 0);
            all.add(f);
        }
        // 8 entries; drop the first 4 (the head moves to 4), append 4 more (wrapping to 0..1), then punch holes
        for (int i = 0; i < 4; i++) c.remove(all.get(i).posInCons[0]);
        for (int op = 6; op < 10; op++) {
            Flow f = new Flow(net, op, new int[0], 1, 1, null, 0, new Constraint[] {c}, new int[] {op + 1});
            f.posInCons = new int[1];
            f.posInCons[0] = c.add(f, 0);
            all.add(f);
        }
        assertThat(c.members.length).isEqualTo(8);
        c.remove(all.get(5).posInCons[0]);
        c.remove(all.get(7).posInCons[0]);
        c.compact();
        List<Integer> order = new ArrayList<>();
        for (int k = c.head; k < c.end; k++) {
            Flow m = c.member(k);
            assertThat(m).as("no hole after a compaction").isNotNull();
            assertThat(c.members[m.posInCons[0]]).isSameAs(m);
            assertThat(c.weights[m.posInCons[0]]).isEqualTo((int) m.id() + 1);
            order.add((int) m.id());
        }
        assertThat(order).containsExactly(4, 6, 8, 9);
    }
}
