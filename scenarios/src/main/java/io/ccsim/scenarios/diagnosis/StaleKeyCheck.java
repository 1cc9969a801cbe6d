package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.bootstrap.Bootstrap;
import io.ccsim.scenarios.bootstrap.RootRecord;
import io.ccsim.scenarios.store.StoreEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@link Category#STALE_STORE_KEY}: unique ids a communicator init read from the store that were
 * created by another init round (another counter, group or attempt) or by no root of the job at all
 * (an outside writer); names the readers, the late writer and the round the value came from.
 */
final class StaleKeyCheck extends Check {
    StaleKeyCheck(Trace t) { super(t); }

    @Override
    void run() {
        // (attempt, group, initSeq, key) -> readers of a stale value
        Map<String, List<Integer>> readers = new LinkedHashMap<>();
        Map<String, String> detail = new HashMap<>();
        Map<String, Integer> lateWriter = new HashMap<>();
        for (InitRecord in : t.inits()) {
            for (int i = 0; i < in.ids().size() && i < in.keys().size(); i++) {
                String id = in.ids().get(i);
                String key = in.keys().get(i);
                RootRecord creator = rootOf(in.attempt(), id);
                boolean foreign = creator == null;
                boolean stale = !foreign && (creator.attempt() != in.attempt() || creator.initSeq() != in.initSeq()
                        || !creator.group().equals(in.group()));
                if (!foreign && !stale) continue;
                String k = in.attempt() + "|" + in.group() + "|" + in.initSeq() + "|" + key;
                readers.computeIfAbsent(k, x -> new ArrayList<>()).add(in.rank());
                if (!detail.containsKey(k)) {
                    StoreEvent read = lastRead(in.rank(), key, in.startPs());
                    StoreEvent fresh = firstWriteAfter(key, in.startPs(), in.rank());
                    StringBuilder sb = new StringBuilder();
                    sb.append("communicator init #").append(in.initSeq()).append(" of group ").append(in.group())
                            .append(in.scalable() ? " (scalable init, " + t.settings().ranksPerRoot() + " rank(s) per root)" : "")
                            .append(": ranks %READERS% read store key ").append(key);
                    if (foreign) {
                        sb.append(" and got a value no bootstrap root of this job created (written by ")
                                .append(read == null || read.writerRank() < 0 ? "an outside writer" : "rank " + read.writerRank())
                                .append(read == null ? "" : " at " + s(read.writtenPs())).append("): another job or tool shares the store"
                                        + " and its keys collide with this job's");
                    } else {
                        sb.append(" and got the unique id left by communicator init #").append(creator.initSeq())
                                .append(" (written by rank ").append(creator.hostRank()).append(" at ").append(s(creator.createdPs())).append(')');
                        if (fresh != null) {
                            sb.append("; rank ").append(fresh.rank()).append(" only rewrote it at ").append(s(fresh.timePs()));
                            lateWriter.put(k, fresh.rank());
                        }
                        sb.append(". Their ids point at root ").append(creator.address())
                                .append(", which had stopped listening, so their commId diverges from the ranks that read the fresh id."
                                        + " The UniqueNCCLID keys are not scoped per init round (pytorch/pytorch#178473);"
                                        + " PR #178493 prefixes them with the communicator counter");
                    }
                    detail.put(k, sb.toString());
                }
            }
        }
        for (Map.Entry<String, List<Integer>> e : readers.entrySet()) {
            List<Integer> rs = new ArrayList<>(new TreeSet<>(e.getValue()));
            String text = detail.get(e.getKey()).replace("%READERS%", ranges(rs));
            List<Integer> named = new ArrayList<>(rs);
            Integer late = lateWriter.get(e.getKey());
            if (late != null && !named.contains(late)) named.add(late);
            add(Category.STALE_STORE_KEY, named, List.of(), text + ".");
        }
    }

    private RootRecord rootOf(int attempt, String id) {
        String addr = Bootstrap.addressOf(id);
        for (RootRecord r : t.roots()) if (r.attempt() == attempt && r.address().equals(addr)) return r;
        for (RootRecord r : t.roots()) if (r.address().equals(addr)) return r;
        return null;
    }

    private StoreEvent lastRead(int rank, String key, long afterPs) {
        StoreEvent best = null;
        for (StoreEvent e : t.store()) {
            if (e.rank() == rank && e.key().equals(key) && e.op().equals("GET") && e.timePs() >= afterPs) {
                best = e;
                break;
            }
        }
        return best;
    }

    private StoreEvent firstWriteAfter(String key, long afterPs, int notRank) {
        for (StoreEvent e : t.store()) {
            if (e.key().equals(key) && e.op().equals("SET") && e.timePs() >= afterPs && e.rank() != notRank) return e;
        }
        return null;
    }
}
