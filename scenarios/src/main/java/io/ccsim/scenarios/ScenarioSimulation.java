package io.ccsim.scenarios;

import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One run of a scenario: builds the topology, schedules the faults, launches the job and plays the
 * elastic agent (torchrun): when a worker fails, the agent stops the others and, while restarts
 * remain (--max-restarts), relaunches the job, which resumes after its last checkpoint. The run
 * ends when no event is left (finished, or nothing can make progress: a hang) or at the horizon.
 */
final class ScenarioSimulation {
    /** torchrun's --monitor-interval default (0.1 s): how soon the agent notices a failed worker. */
    static final long MONITOR_INTERVAL_PS = Units.ms(100);

    final Scenario scenario;
    final long seed;
    final Simulator sim;
    final SimHost host;
    final Cluster cluster;
    final Trace trace;
    /** The collectives of every attempt run on one engine: one flow network on this run's simulator. */
    final CollectiveEngine engine;
    private final Set<Integer> neverStarts = new LinkedHashSet<>();
    private JobRun current;
    private int restartsUsed;
    private boolean failureHandled;

    ScenarioSimulation(Scenario scenario, long seed) {
        this.scenario = scenario;
        this.seed = seed;
        Topology topo;
        if (scenario.topologyFile() != null) {
            try {
                topo = io.ccsim.topology.json.TopologyJson.read(
                        java.nio.file.Files.readString(scenario.topologyFile()), scenario.topologyFile().toString());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot read topology file " + scenario.topologyFile(), e);
            }
        } else {
            topo = TopologyCatalog.build(scenario.topology(), new BuildOptions(scenario.gpusPerNode(), scenario.nodes(), 1.0, seed));
        }
        this.cluster = new Cluster(topo);
        if (scenario.job().worldSize() > cluster.gpuCount()) {
            throw new ScenarioFormatException(scenario.name(), "$.job.world_size", "world_size " + scenario.job().worldSize()
                    + " exceeds the " + cluster.gpuCount() + " GPUs of topology " + topo.name() + "; valid: 1.." + cluster.gpuCount());
        }
        this.sim = new Simulator(seed);
        this.host = new SimHost(sim);
        this.trace = new Trace(scenario.job().worldSize());
        try {
            this.engine = new SimCollectiveEngine(host, cluster, SimCollectiveEngine.profileFor(topo), scenario.settings().nccl(),
                    scenario.settings().ibAckTimeoutPs(), scenario.settings().ibGiveUpPs(), seed);
        } catch (IllegalArgumentException e) {
            throw new ScenarioFormatException(scenario.name(), "$.topology", e.getMessage());
        }
        trace.settings = scenario.settings();
        for (int r = 0; r < scenario.job().worldSize(); r++) trace.gpuIds.put(r, cluster.gpuId(r));
    }

    Trace run() {
        for (int i = 0; i < scenario.faults().size(); i++) {
            try {
                schedule(scenario.faults().get(i));
            } catch (IllegalArgumentException e) {
                throw new ScenarioFormatException(scenario.name(), "$.faults[" + i + "]", e.getMessage());
            }
        }
        current = new JobRun(this, 0, 0);
        current.start(neverStarts);
        sim.runUntil(scenario.settings().horizonPs());
        trace.horizonReached = sim.hasPending();
        // the end: the last thing that happened to the job (callbacks of dead processes do not count)
        long last = 0;
        for (RankEvent e : trace.events) last = Math.max(last, e.timePs());
        for (CollectiveStats c : trace.collectives) last = Math.max(last, c.endPs());
        for (StoreEvent e : current.store.log()) last = Math.max(last, e.timePs());
        trace.endPs = trace.horizonReached ? sim.now() : last;
        finish();
        return trace;
    }

    private void finish() {
        current.flush();
        for (RankProcess p : current.ranks) {
            RankPhase before = p.beforeKill == null ? p.phase : p.beforeKill;
            String beforeDetail = p.beforeKill == null ? p.detail : p.beforeKillDetail;
            trace.finalStates.put(p.rank, new Trace.RankState(p.phase, p.sincePs, p.detail, p.iteration, before, beforeDetail));
            trace.busy.put(p.rank, new long[] {p.computePs, p.collectivePs, p.computeSteps});
        }
    }

    private void note(String s) { trace.faults.add(Units.formatDuration(host.now()) + ": " + s); }

    /** True while an event trigger applies its fault: effects then happen inline, before the rank goes on. */
    private boolean inline;

    private void at(long t, Runnable r) {
        if (inline) r.run();
        else host.after(Math.max(0, t - host.now()), r);
    }

    /** Applies a fault now (an event trigger fired): its own time is replaced by the current time. */
    private void applyNow(Fault f) {
        long now = host.now();
        Fault g;
        if (f instanceof Fault.LinkDegrade d) g = new Fault.LinkDegrade(d.link(), d.factor(), now);
        else if (f instanceof Fault.LinkDown d) g = new Fault.LinkDown(d.link(), now, d.durationPs());
        else if (f instanceof Fault.LinkFlap d) g = new Fault.LinkFlap(d.link(), now, d.downPs(), d.upPs(), d.count());
        else if (f instanceof Fault.RankCrash d) g = new Fault.RankCrash(d.rank(), now);
        else if (f instanceof Fault.SlowGpu d) g = new Fault.SlowGpu(d.rank(), d.factor(), now);
        else if (f instanceof Fault.GpuHang d) g = new Fault.GpuHang(d.rank(), now);
        else if (f instanceof Fault.MemoryPressure d) g = new Fault.MemoryPressure(d.rank(), d.bytes(), now);
        else if (f instanceof Fault.BitFlipLink d) g = new Fault.BitFlipLink(d.link(), now);
        else if (f instanceof Fault.BitFlipGpuMemory d) g = new Fault.BitFlipGpuMemory(d.rank(), now);
        else if (f instanceof Fault.StoreKeyCollision d) g = new Fault.StoreKeyCollision(d.key(), d.value(), now);
        else throw new IllegalStateException("cannot trigger " + f);
        inline = true;
        try {
            schedule(g);
        } finally {
            inline = false;
        }
    }

    private void schedule(Fault f) {
        if (f instanceof Fault.LinkDegrade d) {
            cluster.requireLink(d.link());
            at(d.atPs(), () -> {
                cluster.setFactor(d.link(), d.factor());
                trace.degradedLinks.put(d.link(), d.factor());
                note("link " + d.link() + " degraded to " + d.factor() + " of its rate");
                current.engine.healthChanged();
            });
        } else if (f instanceof Fault.LinkDown d) {
            cluster.requireLink(d.link());
            at(d.atPs(), () -> linkDown(d.link(), d.durationPs()));
        } else if (f instanceof Fault.LinkFlap fl) {
            cluster.requireLink(fl.link());
            for (int i = 0; i < fl.count(); i++) {
                long offset = i * (fl.downPs() + fl.upPs());
                if (inline && i > 0) host.after(offset, () -> linkDown(fl.link(), fl.downPs()));
                else at(fl.atPs() + offset, () -> linkDown(fl.link(), fl.downPs()));
            }
        } else if (f instanceof Fault.OnIteration oi) {
            requireRank(oi.rank());
            // validated now, applied when the trigger rank starts the iteration (see onIteration)
            if (oi.fault() instanceof Fault.OnIteration || oi.fault() instanceof Fault.NeverStarts) {
                throw new IllegalArgumentException("an iteration trigger cannot wrap " + oi.fault());
            }
        } else if (f instanceof Fault.RankCrash c) {
            requireRank(c.rank());
            at(c.atPs(), () -> {
                if (current.attempt == 0) current.ranks[c.rank()].crash("killed by a fault at " + Units.formatDuration(host.now()));
            });
        } else if (f instanceof Fault.NeverStarts n) {
            requireRank(n.rank());
            neverStarts.add(n.rank());
            trace.neverStarted.add(n.rank());
        } else if (f instanceof Fault.SlowGpu s) {
            requireRank(s.rank());
            at(s.atPs(), () -> {
                trace.slowGpu.put(s.rank(), s.factor());
                current.ranks[s.rank()].slowFactor = s.factor();
                note("GPU of rank " + s.rank() + " computes " + s.factor() + "x slower");
            });
        } else if (f instanceof Fault.GpuHang g) {
            requireRank(g.rank());
            at(g.atPs(), () -> {
                if (current.attempt != 0) return;
                note("GPU of rank " + g.rank() + " hangs");
                current.ranks[g.rank()].gpuHang();
            });
        } else if (f instanceof Fault.MemoryPressure m) {
            requireRank(m.rank());
            at(m.atPs(), () -> {
                current.ranks[m.rank()].memory.takeOther(m.bytes());
                note(Units.formatBytes(m.bytes()) + " of rank " + m.rank() + "'s GPU memory taken by another process");
            });
        } else if (f instanceof Fault.BitFlipLink b) {
            cluster.requireLink(b.link());
            at(b.atPs(), () -> {
                trace.flippedLinks.add(b.link());
                note("bit flip on link " + b.link());
                current.engine.bitFlip(cluster.groupIndexOfLink(b.link()));
            });
        } else if (f instanceof Fault.BitFlipGpuMemory b) {
            requireRank(b.rank());
            at(b.atPs(), () -> {
                trace.eccFlips.add(b.rank());
                current.ranks[b.rank()].eccFlipPending = true;
                note("bit flip in GPU memory of rank " + b.rank());
            });
        } else if (f instanceof Fault.StoreKeyCollision k) {
            at(k.atPs(), () -> {
                trace.storeCollisions.put(k.key(), current.attempt);
                note("outside writer set store key " + k.key());
                current.store.set(-1, k.key(), k.value(), () -> {});
            });
        }
    }

    private void requireRank(int r) {
        if (r < 0 || r >= scenario.job().worldSize()) {
            throw new IllegalArgumentException("fault names rank " + r + "; valid ranks: 0.." + (scenario.job().worldSize() - 1));
        }
    }

    private void linkDown(String link, long durationPs) {
        cluster.setDown(link, true);
        trace.degradedLinks.putIfAbsent(link, 0.0);
        note("link " + link + " down" + (durationPs > 0 ? " for " + Units.formatDuration(durationPs) : ""));
        current.engine.healthChanged();
        if (durationPs > 0) {
            host.after(durationPs, () -> {
                cluster.setDown(link, false);
                note("link " + link + " up");
                current.engine.healthChanged();
            });
        }
    }

    boolean onIteration(JobRun run, RankProcess p, int iteration) {
        if (run.attempt != 0) return true;
        for (Fault f : scenario.faults()) {
            if (f instanceof Fault.OnIteration oi && oi.rank() == p.rank && oi.iteration() == iteration) {
                if (oi.fault() instanceof Fault.RankCrash) {
                    p.crash("process died at the start of iteration " + iteration);
                    return false;
                }
                applyNow(oi.fault());
            }
        }
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
                if (neverStarts.contains(q.rank)) continue;
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
                    Double slow = trace.slowGpu.get(q.rank);
                    if (slow != null) q.slowFactor = slow;
                }
                current.start(neverStarts);
            });
        });
    }
}
