package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.cluster.CollectiveStats;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Category#DATA_CORRUPTION}: output checksums that differ from the sum of the input checksums.
 * Ranks that differ form a run in ring order whose first rank names the hop where the corruption
 * entered (for a non-ring plan, whose checksums are modelled along communicator order, the finding
 * says the location is approximate) ({@link HopPortGroups} says which port groups that hop crosses and why its lane cannot be
 * named); right data received and a wrong result held means the rank's own GPU memory.
 */
final class CorruptionCheck extends Check {
    CorruptionCheck(Trace t) { super(t); }

    @Override
    void run() {
        for (CollectiveStats c : t.collectives()) {
            if (c.inputChecksums() == null) continue;
            long expected = 0;
            for (long x : c.inputChecksums()) expected += x;
            int n = c.ranks().length;
            boolean[] wrong = new boolean[n];
            boolean any = false, inTransit = false;
            String group = c.label().substring(0, c.label().indexOf('#'));
            long seq = Long.parseLong(c.label().substring(c.label().indexOf('#') + 1));
            for (int i = 0; i < n; i++) {
                Long held = held(c.ranks()[i], group, seq, c.startPs());
                if (held == null) continue;
                wrong[i] = held != expected;
                any |= wrong[i];
                inTransit |= c.outputChecksums()[i] != expected;
            }
            if (!any) continue;
            List<Integer> bad = new ArrayList<>();
            for (int i = 0; i < n; i++) if (wrong[i]) bad.add(c.ranks()[i]);
            String head = c.op() + " " + c.label() + ": rank(s) " + ranges(bad) + " hold a result whose checksum differs from the sum of"
                    + " the inputs' checksums (0x" + Long.toHexString(expected) + ")";
            if (!inTransit) {
                add(Category.DATA_CORRUPTION, bad, List.of(), head + "; the data they received was right, so it was corrupted in their"
                        + " GPU memory afterwards (an uncorrected ECC error: check nvidia-smi -q for ECC/Xid 48)");
                continue;
            }
            if (bad.size() == n) {
                add(Category.DATA_CORRUPTION, bad, List.of(), head + "; all ranks agree on the wrong value, so it was corrupted during"
                        + " the reduce phase, before the result was replicated; the hop cannot be located from the outputs alone");
                continue;
            }
            // first wrong rank in ring order after a right one: the corruption entered on the hop into it
            int first = -1;
            for (int i = 0; i < n; i++) {
                if (wrong[i] && !wrong[(i - 1 + n) % n]) {
                    first = i;
                    break;
                }
            }
            int prev = (first - 1 + n) % n;
            List<String> links = c.ringHopLinks().get(first);
            String where = ringPlan(c) ? ". In ring order the wrong results start at rank " + c.ranks()[first] + ": the corruption"
                    + " entered on the hop rank "
                    : ". The checksums of a " + c.algorithm() + " plan are modelled along communicator order, not along its own"
                    + " data path, so this locates the corruption only approximately: in that order the wrong results start at"
                    + " rank " + c.ranks()[first] + ", after the step rank ";
            add(Category.DATA_CORRUPTION, bad, links, head + where + c.ranks()[prev] + " (" + gpu(c.ranks()[prev]) + ") -> rank "
                    + c.ranks()[first] + " (" + gpu(c.ranks()[first]) + "), " + HopPortGroups.describe(links, gpu(c.ranks()[prev]),
                    gpu(c.ranks()[first])));
        }
    }

    /** Whether the collective ran a ring (or an unknown algorithm, whose data order the stats give as a ring). */
    private static boolean ringPlan(CollectiveStats c) { return c.algorithm() == null || c.algorithm().equals("Ring"); }

    /** The checksum rank {@code r}'s flight recorder holds for collective #seq of a group started at startPs. */
    private Long held(int r, String group, long seq, long startPs) {
        for (FrEntry e : t.flight().get(r)) {
            if (e.group().equals(group) && e.collectiveSeq() == seq && e.completedPs() >= startPs) return e.checksum();
        }
        return null;
    }
}
