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
 * {@link Category#SLOW_LINK}: the links below 90 % of their rate on the data path of collectives that
 * took more than 1.2 x their healthy time, one finding per set of such links, worst first, each with
 * the connections (ring hops, tree edges... in the words of the algorithm that ran) that cross it.
 * When several links bound the same collectives, each one's gain is stated from the re-simulations
 * the run recorded ({@link CollectiveStats.SlowLink#healedAlonePs()}): healed alone, and all healed
 * (the healthy time).
 */
final class SlowLinkCheck extends Check {
    /** Links at or above this fraction of their rate are not named. */
    static final double SLOW = 0.9;
    /** Collectives at most this much slower than healthy are not named. */
    static final double SLOWED = 1.2;
    /** A link whose healing alone saves less than this fraction of the time gains nothing. */
    static final double NO_GAIN = 0.05;
    private static final int MAX_HOPS = 4;

    SlowLinkCheck(Trace t) { super(t); }

    @Override
    void run() {
        Map<List<String>, List<CollectiveStats>> byLinks = new LinkedHashMap<>();
        for (CollectiveStats c : t.collectives()) {
            if (c.healthyPs() <= 0 || c.durationPs() < SLOWED * c.healthyPs()) continue;
            List<String> links = new ArrayList<>();
            for (CollectiveStats.SlowLink l : c.slowLinks()) if (l.health() < SLOW) links.add(l.link());
            if (!links.isEmpty()) byLinks.computeIfAbsent(links, k -> new ArrayList<>()).add(c);
        }
        for (Map.Entry<List<String>, List<CollectiveStats>> e : byLinks.entrySet()) report(e.getKey(), e.getValue());
    }

    private void report(List<String> links, List<CollectiveStats> cs) {
        CollectiveStats c = cs.get(0);
        AlgorithmWords w = AlgorithmWords.of(c.algorithm());
        long dur = 0, healthy = 0;
        for (CollectiveStats x : cs) {
            dur += x.durationPs();
            healthy += x.healthyPs();
        }
        Set<Integer> named = new LinkedHashSet<>();
        List<String> parts = new ArrayList<>();
        for (String id : links) {
            CollectiveStats.SlowLink l = slowLink(c, id);
            named.addAll(l.senders());
            String verb = links.size() == 1 ? " and is the bottleneck of " + w.whole() + ": it carries the " : " and carries the ";
            parts.add(String.format(Locale.ROOT, "link %s runs at %.0f%% of its rate%s%s %s", id, 100 * l.health(), verb,
                    w.connections(), hops(l)));
        }
        String head = links.size() == 1 ? parts.get(0)
                : links.size() + " links below their rate on the path of " + w.whole() + ": " + String.join("; ", parts);
        String summary = String.format(Locale.ROOT, "%s. %d collective(s) took %s instead of %s (%.1fx slower); %s", head,
                cs.size(), s(dur), s(healthy), dur / (double) healthy, w.pacing());
        if (links.size() > 1) summary += ". " + gains(links, cs, dur, healthy, w);
        add(Category.SLOW_LINK, new ArrayList<>(named), links, summary);
    }

    /** What healing each link alone, and all of them, would give these collectives (re-simulated). */
    private static String gains(List<String> links, List<CollectiveStats> cs, long dur, long healthy, AlgorithmWords w) {
        StringBuilder sb = new StringBuilder("Re-simulated with link rates restored: ");
        for (String id : links) {
            long alone = 0;
            for (CollectiveStats x : cs) {
                long p = slowLink(x, id).healedAlonePs();
                if (p < 0) {
                    alone = -1;
                    break;
                }
                alone += p;
            }
            sb.append("fixing ").append(id).append(" alone: ");
            if (alone < 0) {
                sb.append("not re-simulated (another link on the path was down); ");
                continue;
            }
            sb.append(s(dur)).append(" -> ").append(s(alone));
            List<String> others = new ArrayList<>(links);
            others.remove(id);
            if (dur - alone < NO_GAIN * dur) {
                sb.append(" (gains nothing: ").append(String.join(", ", others)).append(others.size() == 1 ? " still bounds " : " still bound ")
                        .append(w.whole()).append("); ");
            } else if (alone > SLOWED * healthy) {
                sb.append(String.format(Locale.ROOT, " (%.1fx faster; %s still %s it); ", dur / (double) alone,
                        String.join(", ", others), others.size() == 1 ? "slows" : "slow"));
            } else {
                sb.append(String.format(Locale.ROOT, " (%.1fx faster); ", dur / (double) alone));
            }
        }
        sb.append(links.size() == 2 ? "fixing both: " : "fixing all " + links.size() + ": ").append(s(dur)).append(" -> ")
                .append(s(healthy));
        return sb.toString();
    }

    private static CollectiveStats.SlowLink slowLink(CollectiveStats c, String id) {
        for (CollectiveStats.SlowLink l : c.slowLinks()) if (l.link().equals(id)) return l;
        throw new IllegalArgumentException("collective " + c.label() + " does not cross link " + id);
    }

    /** The first few connections crossing a link: "rank a (gpu) -> rank b (gpu), ...". */
    private String hops(CollectiveStats.SlowLink l) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < l.senders().size() && i < MAX_HOPS; i++) {
            if (i > 0) sb.append(", ");
            int a = l.senders().get(i), b = l.receivers().get(i);
            sb.append("rank ").append(a).append(" (").append(gpu(a)).append(") -> rank ").append(b).append(" (").append(gpu(b)).append(')');
        }
        if (l.senders().size() > MAX_HOPS) sb.append(", ...");
        return sb.toString();
    }
}
