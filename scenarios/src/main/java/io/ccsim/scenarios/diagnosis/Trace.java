package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.bootstrap.RootRecord;
import io.ccsim.scenarios.cluster.CollectiveStats;
import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.store.StoreEvent;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a run left behind, for the analyzer and the report; read-only, maps in the order things
 * were recorded. Times in ps since the run started; ranks are global ranks.
 *
 * @param worldSize      ranks of the job
 * @param events         every rank's log lines, in time order
 * @param flight         per rank, its flight-recorder entries (every launch, in order)
 * @param inits          every communicator init of every rank
 * @param roots          every bootstrap root, per attempt in creation order
 * @param store          every store access, per attempt in server order
 * @param collectives    timings of every finished collective, in completion order
 * @param faults         the faults as they were applied ("1.500 s: link ... down")
 * @param degradedLinks  links a fault degraded (their factor) or took down (0)
 * @param neverStarted   ranks never launched
 * @param restarts       the elastic agent's restarts
 * @param groupMembers   members of every process group (part), in group-rank order
 * @param gpuIds         topology id of each rank's GPU
 * @param settings       the run's settings (for messages)
 * @param finalStates    every rank's state at the end of the last attempt
 * @param busy           every rank's compute and collective time in the last attempt
 * @param symmMem        what every rank did with symmetric memory (backend, group resolutions, all-reduces), in order
 * @param endPs          when the last thing happened to the job (or the horizon)
 * @param horizonReached whether the run was cut at the horizon
 */
public record Trace(int worldSize, List<RankEvent> events, Map<Integer, List<FrEntry>> flight, List<InitRecord> inits,
             List<RootRecord> roots, List<StoreEvent> store, List<CollectiveStats> collectives, List<String> faults,
             Map<String, Double> degradedLinks, List<Integer> neverStarted, List<Restart> restarts,
             Map<String, List<Integer>> groupMembers, Map<Integer, String> gpuIds, Settings settings,
             Map<Integer, RankState> finalStates, Map<Integer, RankTimes> busy, List<SymmMemRecord> symmMem, long endPs,
             boolean horizonReached) {

    /** Copies every list and map (maps keep their order). */
    public Trace {
        events = List.copyOf(events);
        flight = ordered(flight);
        inits = List.copyOf(inits);
        roots = List.copyOf(roots);
        store = List.copyOf(store);
        collectives = List.copyOf(collectives);
        faults = List.copyOf(faults);
        degradedLinks = ordered(degradedLinks);
        neverStarted = List.copyOf(neverStarted);
        restarts = List.copyOf(restarts);
        groupMembers = ordered(groupMembers);
        gpuIds = ordered(gpuIds);
        finalStates = ordered(finalStates);
        busy = ordered(busy);
        symmMem = List.copyOf(symmMem);
    }

    private static <K, V> Map<K, V> ordered(Map<K, V> m) { return Collections.unmodifiableMap(new LinkedHashMap<>(m)); }

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
    public record Restart(int attempt, long failedPs, String reason, int lastIteration, int resumeFrom, long checkpointPs) {}

    /**
     * A rank's state at the end.
     *
     * @param phase        where it is
     * @param sincePs      since when
     * @param detail       what it waits for or why it stopped
     * @param iteration    the training iteration it reached (-1 before the loop)
     * @param before       where it was when the elastic agent stopped it (= phase if it was not stopped)
     * @param beforeDetail what it was doing then
     */
    public record RankState(RankPhase phase, long sincePs, String detail, int iteration, RankPhase before, String beforeDetail) {}

    /**
     * A rank's time in the last attempt.
     *
     * @param computePs    GPU compute time, ps
     * @param collectivePs time in collectives, from enqueue to completion, ps
     * @param computeSteps compute steps run
     */
    public record RankTimes(long computePs, long collectivePs, long computeSteps) {}
}
