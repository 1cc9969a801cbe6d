package io.ccsim.scenarios.job;

import io.ccsim.scenarios.bootstrap.RootRecord;
import io.ccsim.scenarios.cluster.CollectiveStats;
import io.ccsim.scenarios.diagnosis.FrEntry;
import io.ccsim.scenarios.diagnosis.InitRecord;
import io.ccsim.scenarios.diagnosis.RankEvent;
import io.ccsim.scenarios.diagnosis.Trace;
import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.store.StoreEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run records while it goes on (per-rank logs and flight recorders, communicator inits,
 * bootstrap roots, store accesses, collective timings, restarts, final states); {@link #toTrace()}
 * hands it to the analyzer and the report as a read-only {@link Trace}.
 */
final class TraceRecorder {
    final int worldSize;
    final List<RankEvent> events = new ArrayList<>();
    final Map<Integer, List<FrEntry>> flight = new LinkedHashMap<>();
    final List<InitRecord> inits = new ArrayList<>();
    final List<RootRecord> roots = new ArrayList<>();
    final List<StoreEvent> store = new ArrayList<>();
    final List<CollectiveStats> collectives = new ArrayList<>();
    final List<String> faults = new ArrayList<>();
    final List<Trace.Restart> restarts = new ArrayList<>();
    final Map<String, Double> degradedLinks = new LinkedHashMap<>();
    final List<Integer> neverStarted = new ArrayList<>();
    /** Members of every process group, in group-rank order. */
    final Map<String, List<Integer>> groupMembers = new LinkedHashMap<>();
    /** Topology id of each rank's GPU. */
    final Map<Integer, String> gpuIds = new LinkedHashMap<>();
    /** Settings of the run (for messages). */
    Settings settings;
    /** Final state of every rank of the last attempt. */
    final Map<Integer, Trace.RankState> finalStates = new LinkedHashMap<>();
    /** Per rank: compute and collective time of the last attempt. */
    final Map<Integer, Trace.RankTimes> busy = new LinkedHashMap<>();
    /** Symmetric-memory records of every attempt, in order. */
    final List<io.ccsim.scenarios.diagnosis.SymmMemRecord> symmMem = new ArrayList<>();
    long endPs;
    boolean horizonReached;

    TraceRecorder(int worldSize) {
        this.worldSize = worldSize;
        for (int r = 0; r < worldSize; r++) flight.put(r, new ArrayList<>());
    }

    void log(long t, int rank, int attempt, String kind, String text) {
        events.add(new RankEvent(t, rank, attempt, kind, text));
    }

    /** The trace of the run: copies of everything recorded, read-only. */
    Trace toTrace() {
        Map<Integer, List<FrEntry>> fr = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<FrEntry>> e : flight.entrySet()) fr.put(e.getKey(), List.copyOf(e.getValue()));
        return new Trace(worldSize, events, fr, inits, roots, store, collectives, faults, degradedLinks, neverStarted, restarts,
                groupMembers, gpuIds, settings, finalStates, busy, symmMem, endPs, horizonReached);
    }
}
