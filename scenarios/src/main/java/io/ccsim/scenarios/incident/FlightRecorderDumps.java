package io.ccsim.scenarios.incident;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a decoded flight-recorder dump (the dict of the pickle or the object of the JSON, as plain Java maps, lists,
 * arrays, numbers and strings) into an {@link FrDump}, checking every field it uses; a field of the wrong kind is an
 * {@link IncidentFormatException} naming the file, the key path and what was expected.
 */
final class FlightRecorderDumps {
    /*
     * The keys, as PyTorch 2.11 writes them and as the real dumps of experiments/incidents-h100x2 hold them:
     *
     *   top level  version ("2.10"), comm_lib_version, pg_config {id: {name, desc, ranks: "[0, 1]"}},
     *              pg_status {id: {last_enqueued_collective, last_started_collective, last_completed_collective}},
     *              entries [...] (absent from a JSON dump taken with onlyActive=True when nothing is pending),
     *              nccl_comm_state
     *   entry      record_id, pg_id, process_group (name, desc), collective_seq_id, p2p_seq_id, op_id,
     *              profiling_name ("nccl:all_reduce"), time_created_ns, input_sizes [[numel...]], input_dtypes,
     *              output_sizes, output_dtypes, state (scheduled | started | completed),
     *              time_discovered_started_ns, time_discovered_completed_ns (None / null / 0 until seen),
     *              timeout_ms, is_p2p, retired, frames, thread_id, thread_name
     *
     * Sources (pytorch/pytorch, torch/csrc/distributed/c10d/): FlightRecorder.hpp (the key constants, DEFINE_CONSTANT
     * version_key ... time_discovered_completed_key, and the states completed / scheduled / started); the
     * implementation (FlightRecorder.cpp, FlightRecorderDetail.hpp in later versions): FlightRecorder::dump pickles a
     * dict of version, pg_config, pg_status and entries; FlightRecorder::dump_json writes the same keys, a state from
     * which of the two discovered times is set, absent times as 0, and leaves 'entries' out when none remain (with
     * onlyActive, completed entries are skipped); tools/flight_recorder/components/types.py: the fields torchfrtrace
     * reads (it takes a dump's rank from its file name). In the pickle, process_group is a tuple and absent times are
     * None; in the JSON, pg_status values are strings.
     */
    private FlightRecorderDumps() {}

    /**
     * The dump of {@code root}.
     *
     * @param file for messages and evidence
     * @param rank the rank that wrote it
     * @throws IncidentFormatException naming the file, the key path and what was expected
     */
    static FrDump decode(String file, int rank, Object root) {
        Map<?, ?> top = map(root, file, "$", "a flight-recorder dump (a dict with version, pg_config, entries)");
        if (!top.containsKey("version") || !top.containsKey("pg_config")) {
            throw new IncidentFormatException(file + ": not a PyTorch flight-recorder dump: no 'version' and 'pg_config' at the"
                    + " top level (keys: " + top.keySet() + ")");
        }
        String version = String.valueOf(top.get("version"));
        Map<String, FrDump.Group> groups = groups(file, top);
        boolean withEntries = top.containsKey("entries");
        List<FrDump.Entry> entries = new ArrayList<>();
        if (withEntries) {
            List<?> es = list(top.get("entries"), file, "entries");
            for (int i = 0; i < es.size(); i++) entries.add(entry(file, i, es.get(i)));
        }
        return new FrDump(file, rank, version, groups, withEntries, entries);
    }

    private static Map<String, FrDump.Group> groups(String file, Map<?, ?> top) {
        Map<?, ?> config = map(top.get("pg_config"), file, "pg_config", "an object of process groups");
        Map<?, ?> status = top.get("pg_status") == null ? Map.of() : map(top.get("pg_status"), file, "pg_status", "an object");
        Map<String, FrDump.Group> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> g : config.entrySet()) {
            String p = "pg_config." + g.getKey();
            Map<?, ?> c = map(g.getValue(), file, p, "an object with name, desc, ranks");
            String name = String.valueOf(c.containsKey("name") ? c.get("name") : g.getKey());
            String desc = c.get("desc") == null ? "" : String.valueOf(c.get("desc"));
            List<Integer> ranks = ranks(file, p + ".ranks", c.get("ranks"));
            long enq = -1, done = -1;
            Object st = status.get(g.getKey());
            if (st != null) {
                Map<?, ?> s = map(st, file, "pg_status." + g.getKey(), "an object");
                enq = integer(s.get("last_enqueued_collective"), file, "pg_status." + g.getKey() + ".last_enqueued_collective", -1);
                done = integer(s.get("last_completed_collective"), file, "pg_status." + g.getKey() + ".last_completed_collective", -1);
            }
            out.put(name, new FrDump.Group(name, desc, ranks, enq, done));
        }
        return out;
    }

    /** {@code "[0, 1]"} (a string, as PyTorch writes it) or a list of integers. */
    private static List<Integer> ranks(String file, String path, Object v) {
        List<Integer> out = new ArrayList<>();
        if (v == null) return out;
        if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) out.add((int) integer(l.get(i), file, path + "[" + i + "]", -1));
            return out;
        }
        String s = String.valueOf(v).replace("[", "").replace("]", "").strip();
        if (s.isEmpty() || s.equals("all ranks")) return out;
        for (String part : s.split(",")) {
            try {
                out.add(Integer.parseInt(part.strip()));
            } catch (NumberFormatException e) {
                throw new IncidentFormatException(file + ": " + path + ": expected a list of ranks such as \"[0, 1]\", got \"" + v + "\"");
            }
        }
        return out;
    }

    private static FrDump.Entry entry(String file, int i, Object raw) {
        String p = "entries[" + i + "]";
        Map<?, ?> e = map(raw, file, p, "an entry object");
        String group = groupName(file, p, e.get("process_group"));
        String op = string(req(e, "profiling_name", file, p), file, p + ".profiling_name");
        String state = string(req(e, "state", file, p), file, p + ".state");
        if (!state.equals("scheduled") && !state.equals("started") && !state.equals("completed")) {
            throw new IncidentFormatException(file + ": " + p + ".state: expected scheduled, started or completed, got \"" + state + "\"");
        }
        List<?> in = e.get("input_sizes") == null ? List.of() : list(e.get("input_sizes"), file, p + ".input_sizes");
        List<?> out = e.get("output_sizes") == null ? List.of() : list(e.get("output_sizes"), file, p + ".output_sizes");
        List<?> dtypes = e.get("input_dtypes") == null ? List.of() : list(e.get("input_dtypes"), file, p + ".input_dtypes");
        return new FrDump.Entry(i, integer(req(e, "record_id", file, p), file, p + ".record_id", -1), group,
                integer(e.get("collective_seq_id"), file, p + ".collective_seq_id", 0),
                integer(e.get("p2p_seq_id"), file, p + ".p2p_seq_id", 0), op,
                numel(file, p + ".input_sizes", in), numel(file, p + ".output_sizes", out),
                dtypes.isEmpty() ? "" : String.valueOf(dtypes.get(0)), state,
                time(e.get("time_created_ns"), file, p + ".time_created_ns"),
                time(e.get("time_discovered_started_ns"), file, p + ".time_discovered_started_ns"),
                time(e.get("time_discovered_completed_ns"), file, p + ".time_discovered_completed_ns"),
                integer(e.get("timeout_ms"), file, p + ".timeout_ms", 0),
                Boolean.TRUE.equals(e.get("is_p2p")));
    }

    /** {@code process_group}: a (name, desc) tuple or list; its name. */
    private static String groupName(String file, String p, Object v) {
        if (v instanceof Object[] a && a.length > 0) return String.valueOf(a[0]);
        if (v instanceof List<?> l && !l.isEmpty()) return String.valueOf(l.get(0));
        throw new IncidentFormatException(file + ": " + p + ".process_group: expected (name, desc), got " + (v == null ? "nothing" : v));
    }

    /** Elements of all tensors: the sum over tensors of the product of their sizes. */
    private static long numel(String file, String p, List<?> tensors) {
        long total = 0;
        for (int t = 0; t < tensors.size(); t++) {
            List<?> dims = list(tensors.get(t), file, p + "[" + t + "]");
            long n = 1;
            for (int d = 0; d < dims.size(); d++) {
                long v = integer(dims.get(d), file, p + "[" + t + "][" + d + "]", -1);
                if (v < 0) throw new IncidentFormatException(file + ": " + p + "[" + t + "][" + d + "]: expected a size >= 0, got " + v);
                n = Math.multiplyHigh(n, v) != 0 ? Long.MAX_VALUE : n * v;
            }
            total = Long.MAX_VALUE - total < n ? Long.MAX_VALUE : total + n;
        }
        return total;
    }

    private static Object req(Map<?, ?> m, String key, String file, String p) {
        if (!m.containsKey(key)) throw new IncidentFormatException(file + ": " + p + ": missing '" + key + "'");
        return m.get(key);
    }

    private static Map<?, ?> map(Object v, String file, String p, String expected) {
        if (v instanceof Map<?, ?> m) return m;
        throw new IncidentFormatException(file + ": " + p + ": expected " + expected + ", got " + kind(v));
    }

    private static List<?> list(Object v, String file, String p) {
        if (v instanceof List<?> l) return l;
        if (v instanceof Object[] a) return List.of(a);
        throw new IncidentFormatException(file + ": " + p + ": expected a list, got " + kind(v));
    }

    private static String string(Object v, String file, String p) {
        if (v instanceof String s) return s;
        throw new IncidentFormatException(file + ": " + p + ": expected a string, got " + kind(v));
    }

    /** A time in ns: absent, None, null or 0 mean not recorded (-1). */
    private static long time(Object v, String file, String p) {
        long t = integer(v, file, p, -1);
        return t <= 0 ? -1 : t;
    }

    /** An integer: a number or a string of digits (pg_status in JSON); {@code absent} for null. */
    static long integer(Object v, String file, String p, long absent) {
        if (v == null) return absent;
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
        if (v instanceof BigInteger b && b.bitLength() < 64) return b.longValue();
        if (v instanceof Double d && d == Math.rint(d) && Math.abs(d) < 9e18) return d.longValue();
        if (v instanceof String s) {
            try {
                return Long.parseLong(s.strip());
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
        }
        throw new IncidentFormatException(file + ": " + p + ": expected an integer, got " + kind(v));
    }

    private static String kind(Object v) {
        if (v == null) return "nothing (None/null)";
        if (v instanceof String s) return "\"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
        if (v instanceof Map) return "an object";
        if (v instanceof List || v instanceof Object[]) return "a list";
        String t = String.valueOf(v);
        return t.length() > 60 ? t.substring(0, 60) + "..." : t;
    }
}
