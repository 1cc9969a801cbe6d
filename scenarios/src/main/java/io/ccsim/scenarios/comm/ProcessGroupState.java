package io.ccsim.scenarios.comm;

import io.ccsim.scenarios.store.Store;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One rank's view of a process group (ProcessGroupNCCL): members, its store namespace, the
 * communicator counter (ncclCommCounter_, one per created communicator), the collective sequence
 * number (seqCollective_) and its communicators by device key.
 */
public final class ProcessGroupState {
    private final String name;
    private final String uid;
    private final List<Integer> members;
    private final int groupRank;
    private final Store store;
    private final String splitFrom;
    private int commCounter;
    private long collectiveSeq;
    private final Map<String, CommState> comms = new HashMap<>();

    /**
     * @param name      the group's name ("world" or the new_group name)
     * @param uid       unique among the job's groups: the name, plus the part index for a partitioned new_group
     * @param members   global ranks in group-rank order
     * @param groupRank this rank's index in {@code members}
     * @param store     the group's store namespace
     * @param splitFrom the parent group whose communicator ncclCommSplit splits, or null
     */
    public ProcessGroupState(String name, String uid, List<Integer> members, int groupRank, Store store, String splitFrom) {
        this.name = name;
        this.uid = uid;
        this.members = List.copyOf(members);
        this.groupRank = groupRank;
        this.store = store;
        this.splitFrom = splitFrom;
    }

    public String name() { return name; }

    public String uid() { return uid; }

    /** Global ranks in group-rank order. */
    public List<Integer> members() { return members; }

    public int groupRank() { return groupRank; }

    public int size() { return members.size(); }

    public Store store() { return store; }

    /** The parent group of an ncclCommSplit, or null. */
    public String splitFrom() { return splitFrom; }

    /** ncclCommCounter_++: the number of the communicator init that starts now, from 0. */
    public int nextInitSeq() { return commCounter++; }

    /** ++seqCollective_: the sequence number of the collective enqueued now, from 1. */
    public long nextCollectiveSeq() { return ++collectiveSeq; }

    /** The group's communicator for a device key (created empty on first use). */
    public CommState comm(String commKey) { return comms.computeIfAbsent(commKey, k -> new CommState()); }

    /** Every communicator of the group on this rank. */
    public Collection<CommState> comms() { return comms.values(); }

    /** A communicator of the group on this rank: not created, being created, ready, or failed (aborted). */
    public static final class CommState {
        private Communicator comm;
        private boolean initializing;
        private boolean failed;
        private long bufferBytes;
        private int opCount;
        private final List<Consumer<Communicator>> waiters = new ArrayList<>();

        /** The communicator once created, else null. */
        public Communicator communicator() { return comm; }

        /**
         * Runs {@code then} with the communicator now if it exists, else when it is {@link #ready}.
         *
         * @return true if the caller must start creating it (nobody is yet)
         */
        public boolean await(Consumer<Communicator> then) {
            if (comm != null) {
                then.accept(comm);
                return false;
            }
            waiters.add(then);
            if (initializing) return false;
            initializing = true;
            return true;
        }

        /** The communicator was created: returns the waiters to run with it, in the order they came. */
        public List<Consumer<Communicator>> ready(Communicator c) {
            comm = c;
            initializing = false;
            List<Consumer<Communicator>> ws = List.copyOf(waiters);
            waiters.clear();
            return ws;
        }

        /** Whether its creation failed or it was aborted. */
        public boolean failed() { return failed; }

        /** Its creation failed. */
        public void fail() { failed = true; }

        /** ncclCommAbort: the communicator (if created) is aborted and this rank's state failed. */
        public void abort() {
            if (comm != null) comm.abort();
            failed = true;
        }

        /** Bytes of NCCL buffers this rank allocated for it. */
        public long bufferBytes() { return bufferBytes; }

        public void setBufferBytes(long bytes) { bufferBytes = bytes; }

        /** The index of this rank's next call on it (NCCL matches calls by this order), from 0. */
        public int nextOpIndex() { return opCount++; }
    }
}
