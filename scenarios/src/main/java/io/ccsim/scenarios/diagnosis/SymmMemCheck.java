package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.comm.GroupRegistry;
import io.ccsim.scenarios.format.SymmBackend;
import io.ccsim.scenarios.format.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Symmetric memory: a process group registered on non-members and resolved by their rendezvous
 * ({@link Category#INVALID_PROCESS_GROUP}), a rendezvous that could not resolve its group by name
 * ({@link Category#UNRESOLVED_PROCESS_GROUP}), a backend option that fell back silently
 * ({@link Category#BACKEND_FALLBACK}), and other failed symmetric-memory calls
 * ({@link Category#SYMM_MEM_ERROR}).
 */
final class SymmMemCheck extends Check {
    SymmMemCheck(Trace t) { super(t); }

    @Override
    void run() {
        invalidGroups();
        unresolvedGroups();
        fallbacks();
        errors();
    }

    /** Resolutions of a wrapper registered on a non-member, per looked-up name. */
    private void invalidGroups() {
        Map<String, List<SymmMemRecord.Resolution>> byName = new LinkedHashMap<>();
        for (SymmMemRecord r : t.symmMem()) {
            if (r instanceof SymmMemRecord.Resolution res && res.resolved() != null
                    && (res.resolved().nullBackend() || !res.resolved().rankInRange())) {
                byName.computeIfAbsent(res.name(), k -> new ArrayList<>()).add(res);
            }
        }
        for (List<SymmMemRecord.Resolution> list : byName.values()) {
            SymmMemRecord.Resolution first = list.get(0);
            GroupRegistry.Registration reg = first.resolved();
            List<Integer> ranks = ranksOf(list);
            String effect = first.outcome().equals("crashed")
                    ? "crashed with a segmentation fault at " + s(first.timePs()) + " dereferencing the null backend's NCCL communicator"
                    : "hang in the IPC descriptor exchange (their rank is outside the ring of [0, " + reg.size() + "))";
            add(Category.INVALID_PROCESS_GROUP, ranks, List.of(), "rank" + (ranks.size() > 1 ? "s " : " ") + ranges(ranks)
                    + " " + (ranks.size() > 1 ? "are" : "is") + " not in team '" + reg.group() + "' (ranks " + ranges(reg.members())
                    + "), yet registered a c10d ProcessGroup for it under '" + reg.name() + "' with rank " + reg.groupRank()
                    + " (== the team size " + reg.size() + ", out of range [0, " + (reg.size() - 1) + "])"
                    + (reg.nullBackend() ? " and a null NCCL backend" : "") + ": the wrapper was built on a non-member, whose position"
                    + " in the team is the end of the search. Their symmetric-memory rendezvous (" + first.backend().label()
                    + " backend) resolved '" + reg.name() + "' and " + effect + ". Fix: guard team membership: build and register the"
                    + " ProcessGroup wrapper only on the team's ranks (return early when the rank is not in the team, as"
                    + " torch.distributed.new_group gives non-members NON_GROUP_MEMBER), so non-members skip the rendezvous");
        }
    }

    /** Rendezvous whose name was not registered, per looked-up name. */
    private void unresolvedGroups() {
        Map<String, List<SymmMemRecord.Resolution>> byName = new LinkedHashMap<>();
        for (SymmMemRecord r : t.symmMem()) {
            if (r instanceof SymmMemRecord.Resolution res && res.outcome().equals("unresolved")) {
                byName.computeIfAbsent(res.name(), k -> new ArrayList<>()).add(res);
            }
        }
        for (List<SymmMemRecord.Resolution> list : byName.values()) {
            SymmMemRecord.Resolution first = list.get(0);
            List<Integer> ranks = ranksOf(list);
            List<String> names = new ArrayList<>();
            GroupRegistry.Registration same = null;
            for (GroupRegistry.Registration g : first.registered()) {
                names.add("'" + g.name() + "'");
                if (g.group().equals(first.group()) && same == null) same = g;
            }
            String why;
            if (same != null) {
                String affix = affix(same.name(), first.name());
                why = "group " + first.group() + " is registered, but as '" + same.name() + "'" + (affix.isEmpty() ? ""
                        : ": the lookup lacks the '" + affix + "' " + (same.name().startsWith(affix) ? "prefix" : "suffix")
                        + " used at registration") + ". Fix: register and resolve under one key (return the key the group was"
                        + " registered under from the function that names it)";
            } else {
                why = "nothing registers group " + first.group() + " (its communicator was created outside torch.distributed, so no"
                        + " new_group registered it). Fix: register_process_group('" + first.name() + "', pg) on the group's ranks"
                        + " before the rendezvous";
            }
            add(Category.UNRESOLVED_PROCESS_GROUP, ranks, List.of(), "symmetric-memory rendezvous (" + first.backend().label()
                    + " backend) on rank" + (ranks.size() > 1 ? "s " : " ") + ranges(ranks) + " looked up process group '"
                    + first.name() + "' in c10d's GroupRegistry at " + s(first.timePs()) + " and failed (\"Could not resolve the process"
                    + " group registered under the name " + first.name() + "\"); registered on rank " + first.rank() + ": "
                    + String.join(", ", names) + ". " + why);
        }
    }

    /** The part of {@code registered} around {@code lookedUp}, or "" when it does not contain it. */
    private static String affix(String registered, String lookedUp) {
        if (registered.endsWith(lookedUp)) return registered.substring(0, registered.length() - lookedUp.length());
        if (registered.startsWith(lookedUp)) return registered.substring(lookedUp.length());
        return "";
    }

    /** A backend option that matched nothing and fell back: which ranks, and what their all-reduces became. */
    private void fallbacks() {
        Map<String, List<SymmMemRecord.BackendChoice>> byOption = new LinkedHashMap<>();
        for (SymmMemRecord r : t.symmMem()) {
            if (r instanceof SymmMemRecord.BackendChoice c && c.fellBack()) byOption.computeIfAbsent(c.option(), k -> new ArrayList<>()).add(c);
        }
        for (List<SymmMemRecord.BackendChoice> list : byOption.values()) {
            SymmMemRecord.BackendChoice c = list.get(0);
            List<Integer> ranks = ranksOf(list);
            int ops = 0;
            long total = 0;
            SymmMemRecord.Op sample = null;
            for (SymmMemRecord r : t.symmMem()) {
                if (r instanceof SymmMemRecord.Op op && op.rank() == c.rank() && op.backend() == c.backend()) {
                    ops++;
                    total += op.durationPs();
                    if (sample == null) sample = op;
                }
            }
            String ran = ops == 0 ? "" : " Their " + ops + " symm_mem " + sample.algo() + " all-reduces of "
                    + Units.formatBytes(sample.bytes()) + " on group " + sample.group() + " ran as ProcessGroupNCCL all-reduces (the native path has no symm_mem"
                    + " kernel), " + s(total / ops) + " each on rank " + c.rank() + ".";
            add(Category.BACKEND_FALLBACK, ranks, List.of(), c.option() + ": '" + c.argument() + "' is not an argument the job's"
                    + " option parser knows (valid: " + String.join(", ", c.valid()) + "), and it returned "
                    + c.backend().label() + " without an error or a warning: rank" + (ranks.size() > 1 ? "s " : " ") + ranges(ranks)
                    + " allocated their symmetric tensors with " + path(c.backend()) + ", not the PyTorch symmetric-memory backend"
                    + " the option asks for." + ran + " Fix: set one of the valid arguments, and make the parser reject unknown ones instead of"
                    + " falling back");
        }
    }

    /** Other failed symmetric-memory calls, one finding per message. */
    private void errors() {
        Map<String, TreeSet<Integer>> byText = new LinkedHashMap<>();
        for (RankEvent e : t.events()) {
            if (!e.kind().equals("ERROR") || e.text().contains("Could not resolve the process group")
                    || e.text().contains("OutOfMemoryError")) {
                continue;
            }
            String x = e.text();
            if (x.contains("Backend can not be changed") || x.contains("rendezvous") || x.contains("empty_strided_p2p")) {
                byText.computeIfAbsent(x, k -> new TreeSet<>()).add(e.rank());
            }
        }
        for (Map.Entry<String, TreeSet<Integer>> e : byText.entrySet()) {
            add(Category.SYMM_MEM_ERROR, new ArrayList<>(e.getValue()), List.of(), "rank" + (e.getValue().size() > 1 ? "s " : " ")
                    + ranges(e.getValue()) + ": " + e.getKey());
        }
    }

    private static String path(SymmBackend b) {
        return b == SymmBackend.NATIVE ? "nvFuser's native path (cuMem VMM, IPC handles through its store)" : "the " + b.label() + " backend";
    }

    private static List<Integer> ranksOf(List<? extends SymmMemRecord> list) {
        TreeSet<Integer> s = new TreeSet<>();
        for (SymmMemRecord r : list) s.add(r.rank());
        return new ArrayList<>(s);
    }

}
