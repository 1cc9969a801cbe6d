package io.ccsim.scenarios.incident;

import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.scenarios.cluster.CollectiveStats;
import io.ccsim.scenarios.diagnosis.FrEntry;
import io.ccsim.scenarios.diagnosis.InitRecord;
import io.ccsim.scenarios.diagnosis.RankEvent;
import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.diagnosis.Trace;
import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.format.Units;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an incident left behind, as the analyzer's {@link Trace}: the same inputs a scenario run gives it, so that the
 * same checks name the culprits in the same words.
 * <ul>
 *   <li>flight records: per rank, the entries of the dump that tells the incident ({@link DumpChoice}), times in ps
 *   since the first entry of any rank (rank clocks are taken as synchronised, as torchfrtrace does); process groups
 *   from {@code pg_config}, named by their description ({@code default_pg}) where it is unique. Only ranks that left a
 *   dump take part in the matching of collectives: of a rank without one nothing is known.</li>
 *   <li>rank states: waiting in its first pending collective; outside NCCL when its last collective completed while
 *   another rank of its group waits in a later one (a rank asleep, in a slow data loader or a deadlock: what a
 *   flight recorder shows of it); in the bootstrap when its NCCL log has {@code Init START} without
 *   {@code Init COMPLETE}; failed when its output holds an NCCL error.</li>
 *   <li>communicator inits from NCCL logs: complete, failed (the NCCL error raised to Python, else the first WARN), or
 *   pending.</li>
 *   <li>log lines: the watchdog's timeouts ({@code WATCHDOG}) and Xid mentions ({@code GPU_HANG}).</li>
 *   <li>nccl-tests runs whose bus bandwidth at their largest size is below a quarter of what ccsim simulates for the
 *   same op, size and ranks ({@link Expectation}): a collective whose healthy time is the simulated one, its
 *   bottleneck the path between the GPUs at the measured fraction of its rate.</li>
 * </ul>
 */
public final class IncidentTrace {
    /** Below this fraction of the simulated bus bandwidth an nccl-tests run is starved, not merely noisy. */
    static final double STARVED = 0.25;

    private IncidentTrace() {}

    /** What ccsim simulates for a measured row: its time in µs and the topology it was simulated on; empty if none. */
    public interface Expectation {
        Optional<Expected> of(MeasuredRow row);

        /** No simulation: nccl-tests runs are not judged. */
        Expectation NONE = row -> Optional.empty();
    }

    /**
     * A simulated time.
     *
     * @param timeUs simulated time of one call, µs
     * @param on     the topology and profile, for messages ({@code hgx-h100, 2 ranks})
     */
    public record Expected(double timeUs, String on) {}

    /**
     * The trace and what it was built from.
     *
     * @param trace    the analyzer's input
     * @param chosen   per rank, the dump that was used
     * @param groups   process-group labels of the trace by group name
     * @param starved  nccl-tests runs found starved, with their expectation
     * @param world    ranks of the job
     */
    public record Mapped(Trace trace, Map<Integer, FrDump> chosen, Map<String, String> groups, List<Starved> starved, int world) {}

    /**
     * An nccl-tests run far below ccsim's expectation.
     *
     * @param run      the run
     * @param row      its largest-size row
     * @param expected what ccsim simulates for it
     * @param fraction measured bus bandwidth / expected
     */
    public record Starved(Incident.TestRun run, MeasuredRow row, Expected expected, double fraction) {}

    /** The trace of an incident. */
    public static Mapped map(Incident inc, Expectation expectation) {
        Map<Integer, FrDump> chosen = DumpChoice.choose(inc.dumps());
        int world = world(inc, chosen);
        long t0 = Long.MAX_VALUE;
        for (FrDump d : chosen.values()) for (FrDump.Entry e : d.entries()) if (e.createdNs() > 0) t0 = Math.min(t0, e.createdNs());
        if (t0 == Long.MAX_VALUE) t0 = 0;
        Map<String, String> labels = labels(chosen);
        Map<String, List<Integer>> members = new LinkedHashMap<>();
        for (FrDump d : chosen.values()) {
            for (FrDump.Group g : d.groups().values()) {
                List<Integer> rs = new ArrayList<>();
                for (int r : g.ranks().isEmpty() ? range(world) : g.ranks()) if (chosen.containsKey(r)) rs.add(r);
                members.putIfAbsent(labels.get(g.name()), rs);
            }
        }
        Map<Integer, List<FrEntry>> flight = new TreeMap<>();
        for (int r = 0; r < world; r++) flight.put(r, new ArrayList<>());
        long end = 0;
        for (Map.Entry<Integer, FrDump> c : chosen.entrySet()) {
            for (FrDump.Entry e : c.getValue().entries()) {
                if (e.p2p()) continue;
                FrEntry f = new FrEntry(e.recordId(), labels.getOrDefault(e.group(), e.group()), e.collectiveSeq(),
                        TorchNames.opType(e.op()), e.numelIn(), e.numelOut(), TorchNames.dtypeName(e.dtype()), e.state(),
                        ps(e.createdNs(), t0), ps(e.startedNs(), t0), ps(e.completedNs(), t0), null);
                flight.get(c.getKey()).add(f);
                end = Math.max(end, Math.max(f.createdPs(), f.completedPs()));
            }
        }
        String world0 = members.isEmpty() ? "default_pg" : members.keySet().iterator().next();
        Map<Integer, Trace.RankState> states = RankStates.of(inc, chosen, labels, world, t0);
        List<InitRecord> inits = inits(inc, world0, chosen);
        List<RankEvent> events = events(inc, chosen, t0);
        List<Starved> starved = new ArrayList<>();
        List<CollectiveStats> collectives = new ArrayList<>();
        Map<String, Double> degraded = new LinkedHashMap<>();
        Map<Integer, String> gpuIds = gpuIds(inc);
        for (Incident.TestRun run : inc.testRuns()) {
            MeasuredRow big = run.rows().stream().max(Comparator.comparingLong(MeasuredRow::bytes)).orElseThrow();
            Optional<Expected> ex = expectation.of(big);
            if (ex.isEmpty() || ex.get().timeUs() <= 0) continue;
            double fraction = ex.get().timeUs() / big.timeUs();
            if (fraction >= STARVED) continue;
            starved.add(new Starved(run, big, ex.get(), fraction));
            int n = Math.max(2, big.n());
            int[] ring = new int[n];
            List<Integer> senders = new ArrayList<>(), receivers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ring[i] = i;
                senders.add(i);
                receivers.add((i + 1) % n);
                gpuIds.putIfAbsent(i, "GPU " + i);
            }
            String link = dataPath(run);
            degraded.put(link, fraction);
            long measuredPs = Math.round(big.timeUs() * Units.PS_PER_US);
            // label as the analyzer's checks read it (group#seq); no checksums taken
            collectives.add(new CollectiveStats("nccl-tests#" + (collectives.size() + 1), big.op().cliName(), big.bytes(), ring, 0,
                    measuredPs, Math.round(ex.get().timeUs() * Units.PS_PER_US), link, fraction, senders, receivers, null, null,
                    List.of()));
            world = Math.max(world, n);
        }
        Trace t = new Trace(world, events, flight, inits, List.of(), List.of(), collectives, List.of(), degraded, List.of(), List.of(),
                members, gpuIds, Settings.defaults(), states, Map.of(), List.of(), end, false);
        return new Mapped(t, chosen, labels, starved, world);
    }

    /**
     * The name a starved nccl-tests run's GPU-to-GPU data path takes as the analyzer's "link": the run's file name (its
     * last component) keeps two starved runs of one folder apart.
     */
    static String dataPath(Incident.TestRun run) {
        String f = run.file().replace('\\', '/');
        return "GPU-to-GPU data path (" + f.substring(f.lastIndexOf('/') + 1) + ")";
    }

    /** Ps since {@code t0} of a time in ns; -1 for one not recorded. */
    static long ps(long ns, long t0) {
        return ns <= 0 ? -1 : (ns - t0) * 1000;
    }

    private static List<Integer> range(int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(i);
        return out;
    }

    /** Ranks of the job: the largest group, communicator or rank any file names. */
    private static int world(Incident inc, Map<Integer, FrDump> chosen) {
        int w = 0;
        for (FrDump d : inc.dumps()) {
            w = Math.max(w, d.rank() + 1);
            for (FrDump.Group g : d.groups().values()) for (int r : g.ranks()) w = Math.max(w, r + 1);
        }
        for (NcclLog l : inc.ncclLogs()) w = Math.max(w, Math.max(l.nranks(), l.rank() + 1));
        for (TorchLog l : inc.torchLogs()) w = Math.max(w, l.rank() + 1);
        for (NcclRas r : inc.ras()) for (int k : r.counts().keySet()) w = Math.max(w, k + 1);
        return Math.max(w, chosen.size());
    }

    /** Group labels: the description where no other group has it, else {@code name:desc}. */
    private static Map<String, String> labels(Map<Integer, FrDump> chosen) {
        Map<String, String> descOf = new LinkedHashMap<>();
        for (FrDump d : chosen.values()) for (FrDump.Group g : d.groups().values()) descOf.putIfAbsent(g.name(), g.desc());
        Map<String, Integer> uses = new LinkedHashMap<>();
        for (String desc : descOf.values()) uses.merge(desc, 1, Integer::sum);
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : descOf.entrySet()) {
            String desc = e.getValue();
            out.put(e.getKey(), desc.isEmpty() || desc.equals("undefined") || uses.get(desc) > 1 ? e.getKey()
                    + (desc.isEmpty() ? "" : ":" + desc) : desc);
        }
        return out;
    }

    /** The GPU of each rank as its NCCL log names it: {@code vm GPU 0 (busId 60)}. */
    private static Map<Integer, String> gpuIds(Incident inc) {
        Map<Integer, String> out = new TreeMap<>();
        for (NcclLog l : inc.ncclLogs()) {
            if (l.rank() < 0 || l.cudaDev() < 0) continue;
            out.putIfAbsent(l.rank(), (l.host().isEmpty() ? "" : l.host() + " ") + "GPU " + l.cudaDev()
                    + (l.busId().isEmpty() ? "" : " (busId " + l.busId() + ")"));
        }
        return out;
    }

    /** Communicator inits of the NCCL logs and of NCCL errors raised before any collective. */
    private static List<InitRecord> inits(Incident inc, String group, Map<Integer, FrDump> chosen) {
        Map<Integer, InitRecord> out = new TreeMap<>();
        for (NcclLog l : inc.ncclLogs()) {
            if (l.rank() < 0 || out.containsKey(l.rank())) continue;
            String err = initError(inc, l.rank(), chosen);
            if (err == null && !l.warns().isEmpty() && l.initDone() == null) {
                err = l.warns().get(0).text().replaceFirst("^.*NCCL WARN ", "") + " (" + l.warns().get(0).where() + ")";
            }
            String result = l.initDone() != null ? "ok" : err != null ? "error: " + err : "pending";
            if (l.initStart() == null && err == null) continue;
            out.put(l.rank(), new InitRecord(0, l.rank(), group, "", 0, false, List.of(), List.of(), 0, -1, -1, result));
        }
        for (TorchLog tl : inc.torchLogs()) {
            if (tl.rank() < 0 || out.containsKey(tl.rank())) continue;
            String err = initError(inc, tl.rank(), chosen);
            if (err != null) out.put(tl.rank(), new InitRecord(0, tl.rank(), group, "", 0, false, List.of(), List.of(), 0, -1, -1,
                    "error: " + err));
        }
        return new ArrayList<>(out.values());
    }

    /** The NCCL error a rank raised before it ran any collective (none if its dump has entries). */
    static String initError(Incident inc, int rank, Map<Integer, FrDump> chosen) {
        if (chosen.containsKey(rank) && !chosen.get(rank).entries().isEmpty()) return null;
        for (TorchLog tl : inc.torchLogs()) {
            if (tl.rank() == rank && !tl.errors().isEmpty()) return tl.errors().get(0).text() + " (" + tl.errors().get(0).where() + ")";
        }
        return null;
    }

    /** Watchdog timeouts (at the timed-out entry's creation + its timeout) and Xid mentions, in time order. */
    private static List<RankEvent> events(Incident inc, Map<Integer, FrDump> chosen, long t0) {
        List<RankEvent> out = new ArrayList<>();
        for (TorchLog tl : inc.torchLogs()) {
            for (int i = 0; i < tl.timeouts().size(); i++) {
                long at = 0;
                FrDump d = chosen.get(tl.rank());
                if (d != null) {
                    for (FrDump.Entry e : d.entries()) {
                        if (e.collectiveSeq() == tl.seqNums().get(i) && e.createdNs() > 0) at = ps(e.createdNs(), t0) + e.timeoutMs() * Units.PS_PER_MS;
                    }
                }
                out.add(new RankEvent(at, tl.rank(), 0, "WATCHDOG", tl.timeouts().get(i).text()));
            }
        }
        for (NcclLog l : inc.ncclLogs()) {
            for (LogLine x : l.xids()) out.add(new RankEvent(0, Math.max(0, l.rank()), 0, "GPU_HANG", "Xid reported (" + x.where() + ": "
                    + x.text() + ")"));
        }
        out.sort(Comparator.comparingLong(RankEvent::timePs).thenComparingInt(RankEvent::rank));
        return out;
    }

    /** {@code 1.234 s} for a time in ps (ms and µs below 1 s). */
    static String at(long ps) {
        return ps < 0 ? "never" : Units.formatDuration(ps);
    }

    static String lower(RankPhase p) {
        return p.name().toLowerCase(Locale.ROOT);
    }
}
