package io.ccsim.scenarios.job;

import io.ccsim.scenarios.ScenarioFormatException;
import io.ccsim.scenarios.cluster.Cluster;
import io.ccsim.scenarios.cluster.CollectiveEngine;
import io.ccsim.scenarios.cluster.CollectiveStats;
import io.ccsim.scenarios.cluster.SimCollectiveEngine;
import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.diagnosis.RankEvent;
import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.diagnosis.Trace;
import io.ccsim.scenarios.faults.FaultInjector;
import io.ccsim.scenarios.faults.FaultTarget;
import io.ccsim.scenarios.format.Scenario;
import io.ccsim.scenarios.format.Units;
import io.ccsim.scenarios.store.StoreEvent;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;

/**
 * One run of a scenario: builds the topology, schedules the faults, launches the job and plays the
 * elastic agent (torchrun): when a worker fails, the agent stops the others and, while restarts
 * remain (--max-restarts), relaunches the job, which resumes after its last checkpoint. The run
 * ends when no event is left (finished, or nothing can make progress: a hang) or at the horizon.
 */
public final class ScenarioSimulation {
    /** torchrun's --monitor-interval default (0.1 s): how soon the agent notices a failed worker. */
    static final long MONITOR_INTERVAL_PS = Units.ms(100);

    final Scenario scenario;
    final long seed;
    final Simulator sim;
    final SimHost host;
    final Cluster cluster;
    final TraceRecorder trace;
    /** The collectives of every attempt run on one engine: one flow network on this run's simulator. */
    final CollectiveEngine engine;
    private final FaultInjector faults;
    private JobRun current;
    private int restartsUsed;
    private boolean failureHandled;

    /** The topology {@code scenario} runs on: its topology file, or its catalog board with its nodes and GPUs per node. */
    public static Topology topology(Scenario scenario, long seed) {
        if (scenario.topologyFile() != null) {
            try {
                return io.ccsim.topology.json.TopologyJson.read(
                        java.nio.file.Files.readString(scenario.topologyFile()), scenario.topologyFile().toString());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot read topology file " + scenario.topologyFile(), e);
            }
        }
        return TopologyCatalog.build(scenario.topology(), new BuildOptions(scenario.gpusPerNode(), scenario.nodes(), 1.0, seed));
    }

    ScenarioSimulation(Scenario scenario, long seed, io.ccsim.sim.RunControl control) {
        this.scenario = scenario;
        this.seed = seed;
        Topology topo = topology(scenario, seed);
        this.cluster = new Cluster(topo);
        if (scenario.job().worldSize() > cluster.gpuCount()) {
            throw new ScenarioFormatException(scenario.name(), "$.job.world_size", "world_size " + scenario.job().worldSize()
                    + " exceeds the " + cluster.gpuCount() + " GPUs of topology " + topo.name() + "; valid: 1.." + cluster.gpuCount());
        }
        this.sim = new Simulator(seed);
        sim.setRunControl(control);
        this.host = new SimHost(sim);
        this.trace = new TraceRecorder(scenario.job().worldSize());
        try {
            this.engine = new SimCollectiveEngine(host, cluster, SimCollectiveEngine.profileFor(topo), scenario.settings().nccl(),
                    scenario.settings().ibAckTimeoutPs(), scenario.settings().ibGiveUpPs(), seed);
        } catch (IllegalArgumentException e) {
            throw new ScenarioFormatException(scenario.name(), "$.topology", e.getMessage());
        }
        trace.settings = scenario.settings();
        for (int r = 0; r < scenario.job().worldSize(); r++) trace.gpuIds.put(r, cluster.gpuId(r));
        this.faults = new FaultInjector(host, cluster, engine, new Target(), scenario.faults(), scenario.job().worldSize());
    }

    /**
     * Runs {@code scenario} with {@code seed} until nothing is left to happen or the horizon.
     *
     * @throws ScenarioFormatException for what only the topology can tell (a link id, the world size, a GPU
     *                                 model without a calibration profile), naming its JSON path
     */
    public static Trace run(Scenario scenario, long seed) { return run(scenario, seed, null); }

    /**
     * As {@link #run(Scenario, long)}, every simulation of the run polling {@code control} (null: none), so that a stop
     * requested there ends it with {@link io.ccsim.sim.RunStoppedException}.
     */
    public static Trace run(Scenario scenario, long seed, io.ccsim.sim.RunControl control) {
        return new ScenarioSimulation(scenario, seed, control).run();
    }

    private Trace run() {
        for (int i = 0; i < scenario.faults().size(); i++) {
            try {
                faults.schedule(scenario.faults().get(i));
            } catch (IllegalArgumentException e) {
                throw new ScenarioFormatException(scenario.name(), "$.faults[" + i + "]", e.getMessage());
            }
        }
        current = new JobRun(this, 0, 0);
        current.start(faults.neverStarts());
        sim.runUntil(scenario.settings().horizonPs());
        trace.horizonReached = sim.hasPending();
        // the end: the last thing that happened to the job (callbacks of dead processes do not count)
        long last = 0;
        for (RankEvent e : trace.events) last = Math.max(last, e.timePs());
        for (CollectiveStats c : trace.collectives) last = Math.max(last, c.endPs());
        for (StoreEvent e : current.store.log()) last = Math.max(last, e.timePs());
        trace.endPs = trace.horizonReached ? sim.now() : last;
        finish();
        return trace.toTrace();
    }

    private void finish() {
        current.flush();
        trace.faults.addAll(faults.notes());
        trace.degradedLinks.putAll(faults.degradedLinks());
        trace.neverStarted.addAll(faults.neverStarts());
        for (RankProcess p : current.ranks) {
            RankPhase before = p.beforeKill == null ? p.phase : p.beforeKill;
            String beforeDetail = p.beforeKill == null ? p.detail : p.beforeKillDetail;
            trace.finalStates.put(p.rank, new Trace.RankState(p.phase, p.sincePs, p.detail, p.iteration, before, beforeDetail));
            trace.busy.put(p.rank, new Trace.RankTimes(p.computePs, p.collectivePs, p.computeSteps));
        }
    }

    /** The current launch, as faults reach it. */
    private final class Target implements FaultTarget {
        @Override public int attempt() { return current.attempt; }

        @Override public void crash(int rank, String why) { current.ranks[rank].crash(why); }

        @Override public void slowGpu(int rank, double factor) { current.ranks[rank].slowFactor = factor; }

        @Override public void gpuHang(int rank) { current.ranks[rank].gpuHang(); }

        @Override public void takeMemory(int rank, long bytes) { current.ranks[rank].memory.takeOther(bytes); }

        @Override public void eccFlip(int rank) { current.ranks[rank].eccFlipPending = true; }

        @Override public void storeSet(String key, String value) { current.store.set(-1, key, value, () -> {}); }
    }

    boolean onIteration(JobRun run, RankProcess p, int iteration) {
        if (run.attempt != 0) return true;
        if (!faults.onIteration(p.rank, iteration)) return false;
        return p.alive();
    }

    /** The agent sees a failed worker: stop the rest, then restart or give up. */
    void onWorkerFailed(JobRun run, RankProcess p, String msg) {
        if (run != current || failureHandled) return;
        failureHandled = true;
        host.after(MONITOR_INTERVAL_PS, () -> {
            for (RankProcess q : run.ranks) q.kill("stopped by the elastic agent after rank " + p.rank + " failed");
            if (restartsUsed >= scenario.settings().maxRestarts()) return;
            restartsUsed++;
            int lastIter = -1;
            int ckpt = Integer.MAX_VALUE;
            long ckptPs = -1;
            for (RankProcess q : run.ranks) {
                lastIter = Math.max(lastIter, q.iteration);
                if (faults.neverStarts().contains(q.rank)) continue;
                if (q.lastCheckpoint < ckpt) {
                    ckpt = q.lastCheckpoint;
                    ckptPs = q.lastCheckpointPs;
                }
            }
            int resume = ckpt == Integer.MAX_VALUE || ckpt < 0 ? 0 : ckpt + 1;
            trace.restarts.add(new Trace.Restart(run.attempt, host.now(), msg, lastIter, resume, resume == 0 ? -1 : ckptPs));
            run.flush();
            host.after(scenario.settings().restartDelayPs(), () -> {
                failureHandled = false;
                current = new JobRun(this, run.attempt + 1, resume);
                for (RankProcess q : current.ranks) {
                    Double slow = faults.slowFactor(q.rank);
                    if (slow != null) q.slowFactor = slow;
                }
                current.start(faults.neverStarts());
            });
        });
    }
}
