package io.ccsim.scenarios.diagnosis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@link Category#SLOW_RANK}: a rank whose mean compute step is more than 1.2 x the median rank's,
 * with what the others waited in collectives.
 */
final class SlowRankCheck extends Check {
    SlowRankCheck(Trace t) { super(t); }

    @Override
    void run() {
        // mean duration of one compute step per rank (ranks that progressed further did more steps)
        Map<Integer, Long> perStep = new LinkedHashMap<>();
        for (Map.Entry<Integer, Trace.RankTimes> e : t.busy().entrySet()) {
            if (e.getValue().computeSteps() > 0) perStep.put(e.getKey(), e.getValue().computePs() / e.getValue().computeSteps());
        }
        if (perStep.size() < 2) return;
        List<Long> vals = new ArrayList<>(perStep.values());
        Collections.sort(vals);
        long median = vals.get(vals.size() / 2);
        if (median <= 0) return;
        for (Map.Entry<Integer, Long> c : perStep.entrySet()) {
            if (c.getValue() > 1.2 * median) {
                int r = c.getKey();
                long wait = 0;
                int n = 0;
                for (Map.Entry<Integer, Trace.RankTimes> e : t.busy().entrySet()) {
                    if (e.getKey() != r) {
                        wait += e.getValue().collectivePs();
                        n++;
                    }
                }
                add(Category.SLOW_RANK, List.of(r), List.of(), String.format(Locale.ROOT,
                        "rank %d (%s) computes %.2fx slower than the median rank (%s vs %s per compute step); the other ranks spent on"
                                + " average %s waiting in collectives, mostly for it", r, gpu(r), c.getValue() / (double) median,
                        s(c.getValue()), s(median), s(n == 0 ? 0 : wait / n)));
            }
        }
    }
}
