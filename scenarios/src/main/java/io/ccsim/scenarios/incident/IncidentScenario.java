package io.ccsim.scenarios.incident;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.scenarios.diagnosis.Category;
import io.ccsim.scenarios.diagnosis.Diagnosis;
import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.diagnosis.Trace;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scenario file ({@code scenario run}'s format) that reproduces a diagnosed incident on an HGX H100 board (as many
 * boards as the ranks need): the job's ranks, the collective sequence of the rank with the fullest dump, one step per
 * entry with its op, element count and dtype, the collective timeout of the dumps, and the first finding as the
 * program or a fault:
 * <ul>
 *   <li>a skipped collective ({@link Category#MISSING_RANK}, "skipped"): that step without the culprit;</li>
 *   <li>a mismatch ({@link Category#COLLECTIVE_MISMATCH}): that step with the culprit's own count;</li>
 *   <li>a rank that did not join while alive outside NCCL: a sleep of that rank before the step, as long as a later dump
 *   shows it entered late, else twice the timeout;</li>
 *   <li>a failed communicator init ({@link Category#BOOTSTRAP_STALL}): the rank never starts, which leaves the others in
 *   the bootstrap as the failed init did (ccsim has no fault for a missing socket interface).</li>
 * </ul>
 */
public final class IncidentScenario {
    private static final Pattern SEQ = Pattern.compile("collective #(\\d+)");

    private IncidentScenario() {}

    /**
     * The scenario JSON.
     *
     * @throws IncidentFormatException where the incident holds nothing a scenario can reproduce (no flight-recorder
     *                                 entries and no failed init)
     */
    public static String write(IncidentReport report, String name) {
        IncidentTrace.Mapped m = report.mapped();
        FrDump ref = null;
        for (FrDump d : m.chosen().values()) if (ref == null || d.entries().size() > ref.entries().size()) ref = d;
        Diagnosis first = report.diagnosis().isEmpty() ? null : report.diagnosis().get(0);
        boolean initFailure = first != null && first.category() == Category.BOOTSTRAP_STALL;
        if ((ref == null || ref.entries().isEmpty()) && !initFailure) {
            throw new IncidentFormatException("--to-scenario: the incident has no flight-recorder entries and no failed communicator"
                    + " init to reproduce; a slow nccl-tests run is reproduced with 'ccsim perf' (NCCL_P2P_DISABLE=1 ...), not a scenario");
        }
        int world = m.world();
        JsonObject o = new JsonObject();
        o.addProperty("name", name);
        o.addProperty("description", "Reproduces the incident diagnosed by 'ccsim diagnose'" + (first == null ? " (healthy)" : ": "
                + first.category() + " of rank(s) " + first.ranks()) + ". Collectives and sizes from the flight recorder of rank "
                + (ref == null ? "-" : ref.rank()) + ".");
        JsonObject topo = new JsonObject();
        topo.addProperty("name", "hgx-h100");
        topo.addProperty("nodes", (world + 7) / 8);
        o.add("topology", topo);
        long timeoutMs = 0;
        if (ref != null) for (FrDump.Entry e : ref.entries()) timeoutMs = Math.max(timeoutMs, e.timeoutMs());
        if (timeoutMs > 0) {
            JsonObject s = new JsonObject();
            s.addProperty("collective_timeout", timeoutMs + "ms");
            o.add("settings", s);
        }
        JsonObject job = new JsonObject();
        job.addProperty("world_size", world);
        job.addProperty("eager_init", true);
        job.add("program", program(report.incident(), ref, first, m, world, timeoutMs));
        o.add("job", job);
        if (initFailure) {
            JsonArray faults = new JsonArray();
            JsonObject f = new JsonObject();
            f.addProperty("type", "never_starts");
            f.addProperty("rank", first.ranks().get(0));
            faults.add(f);
            o.add("faults", faults);
        }
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(o) + "\n";
    }

    private static JsonArray program(Incident inc, FrDump ref, Diagnosis first, IncidentTrace.Mapped m, int world, long timeoutMs) {
        JsonArray steps = new JsonArray();
        long seq = -1;
        if (first != null) {
            Matcher sm = SEQ.matcher(first.summary());
            if (sm.find()) seq = Long.parseLong(sm.group(1));
        }
        int culprit = first == null || first.ranks().isEmpty() ? -1 : first.ranks().get(0);
        if (ref == null) {
            steps.add(collective(CollectiveOp.ALL_REDUCE, 1 << 20, DataType.FLOAT32, List.of()));
            return steps;
        }
        for (FrDump.Entry e : ref.entries()) {
            Optional<CollectiveOp> op = TorchNames.collective(e.op());
            if (e.p2p() || op.isEmpty() || e.numelIn() <= 0) continue;
            DataType dt = TorchNames.dtype(e.dtype()).orElse(DataType.FLOAT32);
            if (e.collectiveSeq() != seq || culprit < 0) {
                steps.add(collective(op.get(), e.numelIn(), dt, List.of()));
                continue;
            }
            List<Integer> others = new ArrayList<>();
            for (int r = 0; r < world; r++) if (r != culprit) others.add(r);
            if (first.category() == Category.COLLECTIVE_MISMATCH) {
                steps.add(collective(op.get(), e.numelIn(), dt, others));
                FrDump.Entry mine = entry(m.chosen().get(culprit), seq);
                long count = mine == null ? e.numelIn() : mine.numelIn();
                steps.add(collective(TorchNames.collective(mine == null ? e.op() : mine.op()).orElse(op.get()), count, dt, List.of(culprit)));
            } else if (first.summary().contains("skipped a collective")) {
                steps.add(collective(op.get(), e.numelIn(), dt, others));
            } else {
                Trace.RankState st = m.trace().finalStates().get(culprit);
                if (st != null && st.phase() == RankPhase.RUNNING) {
                    JsonObject sleep = new JsonObject();
                    sleep.addProperty("sleep", lateMs(inc, culprit, seq, e, timeoutMs) + "ms");
                    JsonArray only = new JsonArray();
                    only.add(culprit);
                    sleep.add("ranks", only);
                    steps.add(sleep);
                }
                steps.add(collective(op.get(), e.numelIn(), dt, List.of()));
            }
        }
        return steps;
    }

    /** How late the culprit entered #seq, ms: from a later dump of it, else twice the timeout (at least 1 s). */
    private static long lateMs(Incident inc, int culprit, long seq, FrDump.Entry waiting, long timeoutMs) {
        for (FrDump d : inc.dumps()) {
            FrDump.Entry e = d.rank() == culprit ? entry(d, seq) : null;
            if (e != null && e.createdNs() > waiting.createdNs() && waiting.createdNs() > 0) return (e.createdNs() - waiting.createdNs()) / 1_000_000;
        }
        return Math.max(1000, 2 * timeoutMs);
    }

    private static FrDump.Entry entry(FrDump d, long seq) {
        if (d == null) return null;
        for (FrDump.Entry e : d.entries()) if (!e.p2p() && e.collectiveSeq() == seq) return e;
        return null;
    }

    private static JsonObject collective(CollectiveOp op, long count, DataType dt, List<Integer> ranks) {
        JsonObject c = new JsonObject();
        c.addProperty("op", op.cliName());
        c.addProperty("count", count);
        c.addProperty("dtype", dt.longName().toLowerCase(Locale.ROOT));
        JsonObject step = new JsonObject();
        step.add("collective", c);
        if (!ranks.isEmpty()) {
            JsonArray rs = new JsonArray();
            ranks.forEach(rs::add);
            step.add("ranks", rs);
        }
        return step;
    }
}
