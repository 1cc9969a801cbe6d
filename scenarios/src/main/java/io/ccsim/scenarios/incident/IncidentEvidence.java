package io.ccsim.scenarios.incident;

import io.ccsim.scenarios.diagnosis.Category;
import io.ccsim.scenarios.diagnosis.Diagnosis;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The facts behind each finding, with the file and the place in it: for a finding about collective #N, every rank's
 * entry #N (or that it has none, and its last); a later dump that shows when a culprit did enter #N; for each rank a
 * finding names, its watchdog timeouts, NCCL errors, WARN and Xid lines and ncclras counts; for a starved nccl-tests
 * run, its bandwidth against ccsim's and the likely cause.
 */
final class IncidentEvidence {
    /** At most this many lines per finding: the first facts are the deciding ones. */
    static final int MAX = 10;
    private static final Pattern SEQ = Pattern.compile("collective #(\\d+)");

    private final Incident inc;
    private final IncidentTrace.Mapped m;

    IncidentEvidence(Incident inc, IncidentTrace.Mapped m) {
        this.inc = inc;
        this.m = m;
    }

    /** The evidence of a finding, deciding facts first. */
    List<Evidence> of(Diagnosis d) {
        List<Evidence> out = new ArrayList<>();
        Matcher sm = SEQ.matcher(d.summary());
        if (sm.find()) entries(Long.parseLong(sm.group(1)), d.ranks(), out);
        for (int r : d.ranks()) logs(r, d.category(), out);
        if (d.category() == Category.SLOW_LINK) starved(d, out);
        return out.size() > MAX ? List.copyOf(out.subList(0, MAX)) : List.copyOf(out);
    }

    private void entries(long seq, List<Integer> culprits, List<Evidence> out) {
        long firstNs = Long.MAX_VALUE;
        int firstRank = -1;
        for (Map.Entry<Integer, FrDump> c : m.chosen().entrySet()) {
            FrDump d = c.getValue();
            FrDump.Entry e = find(d, seq);
            if (e != null) {
                out.add(new Evidence(c.getKey(), seq, d.file() + " " + e.where(), "rank " + c.getKey() + ": " + describe(e)));
                if (e.createdNs() > 0 && e.createdNs() < firstNs) {
                    firstNs = e.createdNs();
                    firstRank = c.getKey();
                }
            } else if (!d.entries().isEmpty()) {
                FrDump.Entry last = d.entries().get(d.entries().size() - 1);
                out.add(new Evidence(c.getKey(), seq, d.file(), "rank " + c.getKey() + ": no entry #" + seq + "; its last is "
                        + last.where().replaceFirst("^entries\\[\\d+\\] ", "") + ", " + last.state()));
            } else {
                for (FrDump.Group g : d.groups().values()) {
                    out.add(new Evidence(c.getKey(), seq, d.file() + " pg_status." + g.name(), "rank " + c.getKey() + ": no entries;"
                            + " last enqueued collective #" + g.lastEnqueued() + ", last completed #" + g.lastCompleted()));
                }
            }
        }
        for (int r : culprits) {
            if (find(m.chosen().get(r), seq) != null || firstRank < 0) continue;
            for (FrDump later : inc.dumps()) {
                FrDump.Entry e = later.rank() == r ? find(later, seq) : null;
                if (e == null || e.createdNs() <= 0) continue;
                out.add(new Evidence(r, seq, later.file() + " " + e.where(), String.format(Locale.ROOT, "rank %d entered #%d %.3f s after"
                        + " rank %d did (a later dump of rank %d)", r, seq, (e.createdNs() - firstNs) / 1e9, firstRank, r)));
                break;
            }
        }
    }

    private static FrDump.Entry find(FrDump d, long seq) {
        if (d == null) return null;
        for (FrDump.Entry e : d.entries()) if (!e.p2p() && e.collectiveSeq() == seq) return e;
        return null;
    }

    private static String describe(FrDump.Entry e) {
        return e.state() + ", " + TorchNames.opType(e.op()) + " NumelIn=" + e.numelIn() + " NumelOut=" + e.numelOut() + " " + e.dtype()
                + ", timeout " + e.timeoutMs() + " ms";
    }

    private void logs(int rank, Category c, List<Evidence> out) {
        for (TorchLog tl : inc.torchLogs()) {
            if (tl.rank() != rank) continue;
            for (LogLine l : tl.timeouts()) out.add(new Evidence(rank, -1, l.where(), l.text()));
            for (LogLine l : tl.errors()) out.add(new Evidence(rank, -1, l.where(), l.text()));
        }
        for (NcclLog nl : inc.ncclLogs()) {
            if (nl.rank() != rank) continue;
            for (Map.Entry<String, String> e : nl.env().entrySet()) {
                if (e.getKey().contains("IFNAME") || e.getKey().endsWith("_DISABLE")) {
                    out.add(new Evidence(rank, -1, nl.file(), e.getKey() + " set by environment to " + e.getValue()));
                }
            }
            for (LogLine l : nl.warns()) out.add(new Evidence(rank, -1, l.where(), l.text()));
            for (LogLine l : nl.xids()) out.add(new Evidence(rank, -1, l.where(), l.text()));
            if (c == Category.BOOTSTRAP_STALL && nl.initStart() != null && nl.initDone() == null) {
                out.add(new Evidence(rank, -1, nl.initStart().where(), "Init START, and no Init COMPLETE in " + nl.file()));
            }
        }
        for (NcclRas r : inc.ras()) {
            List<String> behind = r.behind().get(rank);
            if (behind != null) out.add(new Evidence(rank, -1, r.where().get(rank), "ncclras: rank " + rank + " launched "
                    + String.join(", ", behind) + " operations (fewer than another rank of its communicator)"));
            if (r.missing().contains(rank)) out.add(new Evidence(rank, -1, r.file(), "ncclras could not reach rank " + rank));
        }
    }

    private void starved(Diagnosis d, List<Evidence> out) {
        for (IncidentTrace.Starved s : m.starved()) {
            if (!d.links().contains(IncidentTrace.dataPath(s.run()))) continue;
            double factor = s.row().op().busBwFactor(Math.max(2, s.row().n()));
            double measured = s.row().bytes() / (s.row().timeUs() * 1e3) * factor;
            double expected = s.row().bytes() / (s.expected().timeUs() * 1e3) * factor;
            out.add(new Evidence(-1, -1, s.row().where(), String.format(Locale.ROOT, "%s of %s on %d ranks: busbw %.2f GB/s; ccsim"
                    + " simulates %.1f GB/s on %s (%.1f %%)", s.row().op().cliName(), human(s.row().bytes()), s.row().n(), measured,
                    expected, s.expected().on(), 100 * s.fraction())));
            out.add(new Evidence(-1, -1, s.run().file(), cause(s)));
        }
    }

    /** The likely cause of a starved run, from its bandwidth and the transports its NCCL lines name. */
    private String cause(IncidentTrace.Starved s) {
        String via = String.join(", ", new java.util.TreeSet<>(s.run().transports()));
        String base = "likely cause: the data did not go over NVLink or PCIe P2P but through NCCL's network transport"
                + " (NET/Socket, TCP), as with NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1, or GPUs without P2P access (some VMs and"
                + " containers); ";
        return base + (via.isEmpty() ? "run it with NCCL_DEBUG=INFO and look at the 'via' of the Channel lines, and at the job's"
                + " NCCL_* environment" : "its NCCL lines say: via " + via);
    }

    private static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + " GiB";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + " MiB";
        return bytes + " B";
    }
}
