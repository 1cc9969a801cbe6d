package io.ccsim.scenarios.incident;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which of a rank's dumps tells the incident. A rank may leave several: the watchdog's pickle at the timeout, a JSON
 * of its pending entries taken before it, an end-of-job dump if it got there. The state at the incident is what
 * matters, so per rank: a dump with pending entries if there is one (of those, the one with the most entries: a
 * pickle holds the whole ring buffer, an {@code onlyActive} JSON only the pending tail); else the dump with the fewest
 * entries, the earliest (a rank's later dumps only add entries, since the recorder appends); dumps without
 * {@code entries} (status only) only where the rank has nothing else.
 */
final class DumpChoice {
    private DumpChoice() {}

    /** Per rank, in rank order, the dump that tells the incident. */
    static Map<Integer, FrDump> choose(List<FrDump> dumps) {
        Map<Integer, List<FrDump>> byRank = new TreeMap<>();
        for (FrDump d : dumps) byRank.computeIfAbsent(d.rank(), k -> new ArrayList<>()).add(d);
        Map<Integer, FrDump> out = new TreeMap<>();
        for (Map.Entry<Integer, List<FrDump>> e : byRank.entrySet()) out.put(e.getKey(), choose1(e.getValue()));
        return out;
    }

    private static FrDump choose1(List<FrDump> ds) {
        FrDump pending = null, earliest = null, statusOnly = null;
        for (FrDump d : ds) {
            if (!d.withEntries()) {
                if (statusOnly == null) statusOnly = d;
            } else if (d.hasPending()) {
                if (pending == null || d.entries().size() > pending.entries().size()) pending = d;
            } else if (earliest == null || d.entries().size() < earliest.entries().size()) {
                earliest = d;
            }
        }
        if (pending != null) return pending;
        return earliest != null ? earliest : statusOnly;
    }
}
