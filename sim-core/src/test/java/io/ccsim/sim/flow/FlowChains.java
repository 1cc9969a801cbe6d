package io.ccsim.sim.flow;

import io.ccsim.sim.RandomStream;
import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;

/** Random chains of flows for the flow network's comparison tests: each completion starts its chain's next flow. */
final class FlowChains {
    /** Starts one flow of a chain: its random stream and the listener its completion must call. */
    interface Starter {
        void start(RandomStream r, FlowListener next);
    }

    private FlowChains() {}

    /**
     * Starts {@code chains} chains of 5 + [0, extra) flows each (lengths drawn from r, each chain's flows from its own
     * stream "chain<i>" of sim); returns the list that the run fills with "time:chain" per completion.
     */
    static List<String> start(Simulator sim, RandomStream r, int chains, int extra, Starter starter) {
        List<String> out = new ArrayList<>();
        int[] left = new int[chains];
        RandomStream[] cr = new RandomStream[chains];
        FlowListener[] next = new FlowListener[chains];
        for (int c = 0; c < chains; c++) {
            final int chain = c;
            left[c] = 5 + r.nextInt(extra);
            cr[c] = sim.random("chain" + c);
            next[c] = f -> {
                out.add(sim.now() + ":" + chain);
                if (--left[chain] > 0) starter.start(cr[chain], next[chain]);
            };
        }
        for (int c = 0; c < chains; c++) starter.start(cr[c], next[c]);
        return out;
    }
}
