package io.ccsim.scenarios.comm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One process's c10d GroupRegistry: process groups by name, as {@code register_process_group} and
 * {@code resolve_process_group} see them (torch/csrc/distributed/c10d/GroupRegistry.cpp). It is
 * process-local: what rank 4 registered, only rank 4 resolves.
 */
public final class GroupRegistry {
    /*
     * register_group TORCH_CHECKs that the name is free ("A process group is already registered under
     * the name ..."); resolve_group fails with "Could not resolve the process group registered under the
     * name ...". torch.distributed.new_group registers the group on its members only: a non-member gets
     * GroupMember.NON_GROUP_MEMBER and registers nothing (distributed_c10d.py, _new_process_group_helper).
     */
    private final Map<String, Registration> byName = new LinkedHashMap<>();

    /**
     * A registered ProcessGroup.
     *
     * @param name        the registry name
     * @param group       the scenario group it wraps
     * @param members     the group's global ranks, in group-rank order
     * @param groupRank   the rank the wrapper was built with; {@code members.size()} when the registering
     *                    process is not a member (out of range)
     * @param nullBackend whether its NCCL backend is null (the registering process has no communicator in
     *                    the group)
     * @param atPs        when it was registered, ps
     */
    public record Registration(String name, String group, List<Integer> members, int groupRank, boolean nullBackend, long atPs) {
        public Registration {
            members = List.copyOf(members);
        }

        public int size() { return members.size(); }

        /** Whether the wrapper's rank is a valid rank of the group, [0, size). */
        public boolean rankInRange() { return groupRank >= 0 && groupRank < members.size(); }
    }

    /**
     * {@code register_process_group}.
     *
     * @throws IllegalStateException with c10d's message if the name is taken
     */
    public void register(Registration r) {
        if (byName.containsKey(r.name())) {
            throw new IllegalStateException("A process group is already registered under the name " + r.name());
        }
        byName.put(r.name(), r);
    }

    /** {@code resolve_process_group}: the group registered under {@code name}, or null. */
    public Registration resolve(String name) { return byName.get(name); }

    /** Every registration, in registration order. */
    public List<Registration> all() { return new ArrayList<>(byName.values()); }

    /** Every registered name, in registration order. */
    public List<String> names() { return new ArrayList<>(byName.keySet()); }
}
