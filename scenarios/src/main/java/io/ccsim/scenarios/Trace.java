package io.ccsim.scenarios;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a run leaves behind for the analyzer and the report: per-rank logs and flight
 * recorders, communicator inits, bootstrap roots, store accesses, collective timings, faults and
 * restarts. Mutable while the run goes on; read-only afterwards by convention.
 */
final class Trace {
    final int worldSize;
    final List<RankEvent> events = new ArrayList<>();
    final Map<Integer, List<FrEntry>> flight = new LinkedHashMap<>();
    final List<InitRecord> inits = new ArrayList<>();
    final List<RootRecord> roots = new ArrayList<>();
    final List<StoreEvent> store = new ArrayList<>();
    final List<CollectiveStats> collectives = new ArrayList<>();
    final List<String> faults = new ArrayList<>();
    final List<Restart> restarts = new ArrayList<>();
    final Map<String, Double> degradedLinks = new LinkedHashMap<>();
    final List<Integer> neverStarted = new ArrayList<>();
    /** Members of every process group, in group-rank order. */
    final Map<String, List<Integer>> groupMembers = new LinkedHashMap<>();
    /** Topology id of each rank's GPU. */
    final Map<Integer, String> gpuIds = new LinkedHashMap<>();
    /** Settings of the run (for messages). */
    Settings settings;
    /** Final state of every rank of the last attempt. */
    final Map<Integer, RankState> finalStates = new LinkedHashMap<>();
    /** Per rank: total compute time and total time waiting in collectives of the last attempt, ps. */
    final Map<Integer, long[]> busy = new LinkedHashMap<>();
    long endPs;
    boolean horizonReached;

    Trace(int worldSize) {
        this.worldSize = worldSize;
        for (int r = 0; r < worldSize; r++) flight.put(r, new ArrayList<>());
    }

    void log(long t, int rank, int attempt, String kind, String text) {
        events.add(new RankEvent(t, rank, attempt, kind, text));
    }

    /**
     * An elastic restart.
     *
     * @param attempt       the attempt that failed
     * @param failedPs      when the failure was detected
     * @param reason        the first failure
     * @param lastIteration the highest iteration any rank had started
     * @param resumeFrom    the iteration the next attempt starts at (after the last checkpoint)
     * @param checkpointPs  when that checkpoint was taken (-1: none, restart from scratch)
     */
    record Restart(int attempt, long failedPs, String reason, int lastIteration, int resumeFrom, long checkpointPs) {}

    /**
     * A rank's state at the end.
     *
     * @param phase   where it is
     * @param sincePs since when
     * @param detail  what it waits for or why it stopped
     * @param iteration the training iteration it reached (-1 before the loop)
     * @param before  where it was when the elastic agent stopped it (= phase if it was not stopped)
     * @param beforeDetail what it was doing then
     */
    record RankState(RankPhase phase, long sincePs, String detail, int iteration, RankPhase before, String beforeDetail) {}
}
