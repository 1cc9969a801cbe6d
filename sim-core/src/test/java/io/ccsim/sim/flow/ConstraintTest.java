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
                for (int k = 0; k < c.end; k++) {
                    if (c.members[k] != null) seen++;
                }
                assertThat(seen).as("seed %d op %d: live entries", seed, op).isEqualTo(live.size());
                assertThat(c.end == 0 || c.members[c.end - 1] != null).as("no trailing hole").isTrue();
                for (Flow f : live) {
                    int pos = f.posInCons[f.cons.length - 1];
                    assertThat(c.members[pos]).isSameAs(f);
                    assertThat(c.weights[pos]).as("its weight moves with it").isEqualTo(f.weights[f.cons.length - 1]);
                }
            }
        }
    }

}
