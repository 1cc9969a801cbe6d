package io.ccsim.scenarios.diagnosis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** {@link Category#TIMEOUT}: ranks whose watchdog timed out a collective, with the first message. */
final class WatchdogTimeoutCheck extends Check {
    WatchdogTimeoutCheck(Trace t) { super(t); }

    @Override
    void run() {
        List<Integer> ranks = new ArrayList<>();
        String first = null;
        for (RankEvent e : t.events()) {
            if (e.kind().equals("WATCHDOG")) {
                if (!ranks.contains(e.rank())) ranks.add(e.rank());
                if (first == null) first = e.text();
            }
        }
        if (!ranks.isEmpty()) {
            Collections.sort(ranks);
            add(Category.TIMEOUT, ranks, List.of(), "watchdog timeout on rank(s) " + ranges(ranks) + ": " + first);
        }
    }
}
