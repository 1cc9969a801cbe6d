package io.ccsim.scenarios;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One rank's view of a process group (ProcessGroupNCCL): members, its store namespace, the
 * communicator counter (ncclCommCounter_, one per created communicator), the collective sequence
 * number (seqCollective_) and its communicators by device key.
 */
final class ProcessGroupState {
    final String name;
    /** Unique among the job's groups: the name, plus the part index for a partitioned new_group. */
    final String uid;
    final List<Integer> members;
    final int groupRank;
    final Store store;
    final String splitFrom;
    int commCounter;
    long collectiveSeq;
    final Map<String, CommState> comms = new HashMap<>();

    ProcessGroupState(String name, String uid, List<Integer> members, int groupRank, Store store, String splitFrom) {
        this.name = name;
        this.uid = uid;
        this.members = List.copyOf(members);
        this.groupRank = groupRank;
        this.store = store;
        this.splitFrom = splitFrom;
    }

    int size() { return members.size(); }

    /** A communicator of the group on this rank: being created, ready, or aborted. */
    static final class CommState {
        Communicator comm;
        boolean initializing;
        boolean failed;
        long bufferBytes;
        int opCount;
        final java.util.List<java.util.function.Consumer<Communicator>> waiters = new java.util.ArrayList<>();
    }
}
