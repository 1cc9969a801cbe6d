package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.cluster.CollectiveStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@link Category#SLOW_LINK}: a link below 90 % of its rate that was the bottleneck of collectives
 * that took more than 1.2 x their healthy time, with the ring hops that cross it.
 */
final class SlowLinkCheck extends Check {
    SlowLinkCheck(Trace t) { super(t); }

    @Override
    void run() {
        Map<String, List<CollectiveStats>> byLink = new LinkedHashMap<>();
        for (CollectiveStats c : t.collectives()) {
            if (c.bottleneckLink() == null || c.bottleneckHealth() >= 0.9 || c.healthyPs() <= 0) continue;
            if (c.durationPs() < 1.2 * c.healthyPs()) continue;
            byLink.computeIfAbsent(c.bottleneckLink(), k -> new ArrayList<>()).add(c);
        }
        for (Map.Entry<String, List<CollectiveStats>> e : byLink.entrySet()) {
            CollectiveStats c = e.getValue().get(0);
            long dur = 0, healthy = 0;
            for (CollectiveStats x : e.getValue()) {
                dur += x.durationPs();
                healthy += x.healthyPs();
            }
            Set<Integer> named = new LinkedHashSet<>(c.bottleneckSenders());
            StringBuilder hops = new StringBuilder();
            for (int i = 0; i < c.bottleneckSenders().size() && i < 4; i++) {
                if (i > 0) hops.append(", ");
                int a = c.bottleneckSenders().get(i), b = c.bottleneckReceivers().get(i);
                hops.append("rank ").append(a).append(" (").append(gpu(a)).append(") -> rank ").append(b).append(" (").append(gpu(b)).append(')');
            }
            if (c.bottleneckSenders().size() > 4) hops.append(", ...");
            add(Category.SLOW_LINK, new ArrayList<>(named), List.of(e.getKey()), String.format(Locale.ROOT,
                    "link %s runs at %.0f%% of its rate and is the bottleneck of the ring: it carries the ring hop(s) %s. "
                            + "%d collective(s) took %s instead of %s (%.1fx slower); a ring runs at its slowest hop, so every rank waits",
                    e.getKey(), 100 * c.bottleneckHealth(), hops, e.getValue().size(), s(dur), s(healthy), dur / (double) healthy));
        }
    }
}
