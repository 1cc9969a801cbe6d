package io.ccsim.scenarios.incident;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An {@code ncclras} report (NCCL's RAS client, port 28028): per communicator, each rank's count of launched
 * operations per collective, and the ranks RAS could not reach. Text and JSON ({@code ncclras -f json}) forms.
 *
 * @param file    where it was read
 * @param version NCCL version, empty if not given
 * @param counts  per rank (global rank within the communicator), per collective, the operations it launched
 * @param missing ranks RAS could not reach
 * @param where   per rank, the line or JSON path its counts come from, for evidence
 */
public record NcclRas(String file, String version, Map<Integer, Map<String, Long>> counts, List<Integer> missing,
                      Map<Integer, String> where) {
    /*
     * Forms, from NCCL v2.28.9-1 src/ras/client_support.cc (the text of rasClientRunComms: "Communicator ranks have
     * different %s operation counts", "Rank %d has launched up to operation %ld -- GPU %s managed by process %d on
     * node %s"; the JSON of jsonWriteRankData and jsonStartMissingRanks: communicators[].ranks[].collective_counts,
     * missing_ranks) and the real report of experiments/incidents-h100x2/sleep.
     */

    private static final Pattern DIFF = Pattern.compile("Communicator ranks have different (\\w+) operation counts");
    private static final Pattern RANK = Pattern.compile("Rank (\\d+) has launched up to operation (\\d+)");

    public NcclRas {
        counts = java.util.Collections.unmodifiableMap(new TreeMap<>(counts));
        missing = List.copyOf(missing);
        where = java.util.Collections.unmodifiableMap(new TreeMap<>(where));
    }

    /** Whether a text is an ncclras text report. */
    public static boolean isText(String text) {
        return text.contains("Job summary") && text.contains("Communicators");
    }

    /** Whether a JSON object is an ncclras report. */
    public static boolean isJson(JsonObject o) {
        return o.has("communicators") && o.has("nccl_version");
    }

    /**
     * Ranks behind others: per rank, the collectives where it launched fewer operations than the most any rank
     * launched, as {@code AllReduce 3 of 4}; empty if all agree.
     */
    public Map<Integer, List<String>> behind() {
        Map<String, Long> most = new TreeMap<>();
        for (Map<String, Long> c : counts.values()) for (Map.Entry<String, Long> e : c.entrySet()) most.merge(e.getKey(), e.getValue(), Math::max);
        Map<Integer, List<String>> out = new TreeMap<>();
        for (Map.Entry<Integer, Map<String, Long>> r : new TreeMap<>(counts).entrySet()) {
            for (Map.Entry<String, Long> m : most.entrySet()) {
                long have = r.getValue().getOrDefault(m.getKey(), 0L);
                if (have < m.getValue()) out.computeIfAbsent(r.getKey(), k -> new ArrayList<>()).add(m.getKey() + " " + have + " of " + m.getValue());
            }
        }
        return out;
    }

    /** Reads the text form: only the mismatch warnings carry per-rank counts. */
    public static NcclRas readText(String file, String text) {
        Map<Integer, Map<String, Long>> counts = new TreeMap<>();
        Map<Integer, String> where = new TreeMap<>();
        String version = "", op = null;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (l.startsWith("NCCL version ") && version.isEmpty()) version = l.substring(13).split("\\s")[0];
            Matcher m = DIFF.matcher(l);
            if (m.find()) op = m.group(1);
            else if (op != null && (m = RANK.matcher(l)).find()) {
                int r = Integer.parseInt(m.group(1));
                counts.computeIfAbsent(r, k -> new LinkedHashMap<>()).put(op, Long.parseLong(m.group(2)));
                where.putIfAbsent(r, file + ":" + (i + 1));
            }
        }
        return new NcclRas(file, version, counts, List.of(), where);
    }

    /**
     * Reads the JSON form.
     *
     * @throws IncidentFormatException naming the JSON path of a malformed field
     */
    public static NcclRas readJson(String file, JsonObject o) {
        Map<Integer, Map<String, Long>> counts = new TreeMap<>();
        Map<Integer, String> where = new TreeMap<>();
        List<Integer> missing = new ArrayList<>();
        JsonArray comms = array(o.get("communicators"), file, "communicators");
        for (int c = 0; c < comms.size(); c++) {
            String p = "communicators[" + c + "]";
            JsonObject comm = object(comms.get(c), file, p);
            JsonArray ranks = comm.has("ranks") ? array(comm.get("ranks"), file, p + ".ranks") : new JsonArray();
            for (int i = 0; i < ranks.size(); i++) {
                String rp = p + ".ranks[" + i + "]";
                JsonObject r = object(ranks.get(i), file, rp);
                int rank = (int) number(r.get("rank"), file, rp + ".rank");
                Map<String, Long> m = counts.computeIfAbsent(rank, k -> new LinkedHashMap<>());
                if (r.has("collective_counts")) {
                    for (Map.Entry<String, JsonElement> e : object(r.get("collective_counts"), file, rp + ".collective_counts").entrySet()) {
                        m.put(e.getKey(), number(e.getValue(), file, rp + ".collective_counts." + e.getKey()));
                    }
                }
                where.putIfAbsent(rank, file + " " + rp + ".collective_counts");
            }
            if (comm.has("missing_ranks")) {
                JsonArray mr = array(comm.get("missing_ranks"), file, p + ".missing_ranks");
                for (int i = 0; i < mr.size(); i++) {
                    JsonElement e = mr.get(i);
                    missing.add((int) number(e.isJsonObject() ? e.getAsJsonObject().get("rank") : e, file, p + ".missing_ranks[" + i + "]"));
                }
            }
        }
        String version = o.get("nccl_version").isJsonPrimitive() ? o.get("nccl_version").getAsString() : "";
        return new NcclRas(file, version, counts, missing, where);
    }

    private static JsonArray array(JsonElement e, String file, String p) {
        if (e != null && e.isJsonArray()) return e.getAsJsonArray();
        throw new IncidentFormatException(file + ": " + p + ": expected a list");
    }

    private static JsonObject object(JsonElement e, String file, String p) {
        if (e != null && e.isJsonObject()) return e.getAsJsonObject();
        throw new IncidentFormatException(file + ": " + p + ": expected an object");
    }

    private static long number(JsonElement e, String file, String p) {
        if (e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
            double d = e.getAsDouble();
            if (d == Math.rint(d) && d >= 0 && d < 9e15) return (long) d;
        }
        throw new IncidentFormatException(file + ": " + p + ": expected an integer >= 0, got " + e);
    }
}
