package io.ccsim.scenarios.job;

import io.ccsim.scenarios.bootstrap.Bootstrap;
import io.ccsim.scenarios.cluster.Cluster;
import io.ccsim.scenarios.cluster.CollectiveEngine;
import io.ccsim.scenarios.cluster.CollectiveStats;
import io.ccsim.scenarios.cluster.RingData;
import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.comm.Communicator;
import io.ccsim.scenarios.comm.ProcessGroupState;
import io.ccsim.scenarios.format.JobSpec;
import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.format.Step;
import io.ccsim.scenarios.store.PrefixStore;
import io.ccsim.scenarios.store.Store;
import io.ccsim.scenarios.store.TcpStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One attempt of a job (one launch by the elastic agent): the store, the bootstrap network, the
 * collective engine, the rank processes and the process groups they create.
 */
final class JobRun {
    final ScenarioSimulation owner;
    final SimHost host;
    final Cluster cluster;
    final Settings settings;
    final TraceRecorder trace;
    final JobSpec spec;
    final int attempt;
    final int resumeFrom;
    final TcpStore store;
    final Bootstrap bootstrap;
    final CollectiveEngine engine;
    final RankProcess[] ranks;
    final List<NcclInit> activeInits = new ArrayList<>();
    private final Map<String, Communicator> communicators = new HashMap<>();
    private final Set<String> knownGroups = new LinkedHashSet<>();
    private final Map<String, List<Integer>> firstPart = new HashMap<>();
    /** Symmetric-memory all-reduces matched across ranks, by group key and call index. */
    final Map<String, SymmMemory.OpMatch> symmOps = new HashMap<>();
    private final long seed;
    boolean failed;

    JobRun(ScenarioSimulation owner, int attempt, int resumeFrom) {
        this.owner = owner;
        this.host = owner.host;
        this.cluster = owner.cluster;
        this.settings = owner.scenario.settings();
        this.trace = owner.trace;
        this.spec = owner.scenario.job();
        this.attempt = attempt;
        this.resumeFrom = resumeFrom;
        this.seed = owner.seed;
        // the TCPStore server runs with rank 0 (MASTER_ADDR); every client, rank 0's included (TCP on
        // loopback through the same server thread), is one store latency away
        this.store = new TcpStore(host, 0, r -> settings.storeLatencyPs());
        this.bootstrap = new Bootstrap(host, settings, attempt,
                (rank, message) -> trace.log(host.now(), rank, attempt, "CONNECT_REFUSED", message));
        this.engine = owner.engine;
        this.ranks = new RankProcess[spec.worldSize()];
        for (int r = 0; r < ranks.length; r++) {
            long mem = spec.gpuMemoryBytes() > 0 ? spec.gpuMemoryBytes() : cluster.gpuMemoryBytes(gpuOf(r));
            ranks[r] = new RankProcess(this, r, mem);
        }
        knownGroups.add("world");
    }

    /** Rank r runs on the topology's GPU r. */
    int gpuOf(int rank) { return rank; }

    /**
     * The store a group's keys live under: the world group uses PyTorch's "default_pg" prefix, other
     * groups their name; an elastic restart gets a fresh rendezvous namespace.
     */
    Store storeFor(String group) {
        Store base = attempt == 0 ? store : new PrefixStore("attempt" + attempt, store);
        return new PrefixStore(group.equals("world") ? "default_pg" : group, base);
    }

    /** The store symmetric-memory rendezvous use (the job's, in this attempt's namespace). */
    Store rendezvousStore() { return attempt == 0 ? store : new PrefixStore("attempt" + attempt, store); }

    ProcessGroupState registerWorld(RankProcess p) {
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < ranks.length; r++) all.add(r);
        ProcessGroupState pg = new ProcessGroupState("world", "world", all, p.rank, storeFor("world"), null);
        trace.groupMembers.putIfAbsent("world", List.copyOf(all));
        p.groups.put("world", pg);
        firstPart.putIfAbsent("world", List.copyOf(all));
        p.symm.registerMember(pg);
        return pg;
    }

    void registerGroup(RankProcess p, Step.NewGroup ng) {
        knownGroups.add(ng.name());
        firstPart.putIfAbsent(ng.name(), List.copyOf(ng.members().get(0)));
        for (int pi = 0; pi < ng.members().size(); pi++) {
            List<Integer> part = ng.members().get(pi);
            int idx = part.indexOf(p.rank);
            // PyTorch names every new_group (all ranks call it for every part) with a fresh number,
            // so each part has its own store namespace
            String uid = ng.members().size() == 1 ? ng.name() : ng.name() + "." + pi;
            if (idx >= 0) {
                trace.groupMembers.putIfAbsent(ng.name() + "/" + part.get(0), List.copyOf(part));
                ProcessGroupState pg = new ProcessGroupState(ng.name(), uid, part, idx, storeFor(uid), ng.splitFrom());
                p.groups.put(ng.name(), pg);
                if (ng.register()) p.symm.registerMember(pg);
                p.log("NEW_GROUP", "new_group " + ng.name() + " ranks " + part + (ng.eager() ? " (eager init)" : " (lazy init)"));
                return;
            }
        }
    }

    boolean isKnownGroup(String g) { return knownGroups.contains(g); }

    String groupNames() { return knownGroups.toString(); }

    /** The members of a known group (its first part, for a partitioned new_group). */
    List<Integer> membersOf(String group) { return firstPart.getOrDefault(group, List.of()); }

    String createRoot(int hostRank, String group, int initSeq, int rootIdx, int nRoots, List<Integer> expected) {
        int gpu = gpuOf(hostRank);
        return bootstrap.createRoot(hostRank, cluster.hostOf(gpu), cluster.localOf(gpu), group, initSeq, rootIdx, nRoots,
                expected);
    }

    Communicator communicatorFor(ProcessGroupState pg, int initSeq) {
        return communicators.computeIfAbsent(pg.uid() + "#" + initSeq, k -> {
            int[] gpus = new int[pg.size()];
            for (int i = 0; i < gpus.length; i++) gpus[i] = gpuOf(pg.members().get(i));
            return new Communicator(pg.name(), initSeq, pg.members(), gpus);
        });
    }

    long dataSeed(String group, long seq) {
        return RingData.mix(seed ^ ((long) group.hashCode() << 20) ^ seq ^ ((long) attempt << 50));
    }

    /** Where every collective of this attempt reports: completions to the ranks, transport errors to the sender. */
    final CollectiveEngine.Listener collectiveListener = new CollectiveEngine.Listener() {
        @Override public void onRankDone(int r, long timePs) {}

        @Override public void onAllDone(CollectiveStats stats) {
            trace.collectives.add(stats);
            // the stats' arrays are in the order of stats.ranks() (the data ring's)
            for (int i = 0; i < stats.ranks().length; i++) {
                Long cs = stats.outputChecksums() == null ? null : stats.outputChecksums()[i];
                ranks[stats.ranks()[i]].collectiveDone(stats.endPs(), cs);
            }
        }

        @Override public void onNetworkError(int senderRank, String detail) {
            trace.log(host.now(), senderRank, attempt, "NET_ERROR", detail);
            ranks[senderRank].asyncNcclError(detail);
        }
    };

    boolean onIteration(RankProcess p, int iteration) { return owner.onIteration(this, p, iteration); }

    void onWorkerFailed(RankProcess p, String msg) { owner.onWorkerFailed(this, p, msg); }

    void onRankFinished(RankProcess p) {}

    /** Launches every rank that is launched at all. */
    void start(Set<Integer> neverStarts) {
        if (neverStarts.contains(store.serverRank())) store.serverNeverStarted();
        for (RankProcess p : ranks) {
            if (neverStarts.contains(p.rank)) {
                p.log("NOT_LAUNCHED", "process was never launched");
                continue;
            }
            p.start();
        }
    }

    /** Records what the attempt leaves behind. */
    void flush() {
        trace.roots.addAll(bootstrap.roots());
        for (NcclInit i : new ArrayList<>(activeInits)) i.flushPending();
        trace.store.addAll(store.log());
    }
}
