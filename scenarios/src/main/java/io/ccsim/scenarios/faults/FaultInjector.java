package io.ccsim.scenarios.faults;

import io.ccsim.scenarios.cluster.Cluster;
import io.ccsim.scenarios.cluster.CollectiveEngine;
import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.format.Fault;
import io.ccsim.scenarios.format.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies a scenario's faults to a run: each at its time on the clock, or, for an iteration trigger,
 * when its rank starts that training iteration of the first launch ({@link #onIteration}). Link faults
 * change the {@link Cluster}'s health and tell the {@link CollectiveEngine}; rank and store faults reach
 * the job through its {@link FaultTarget}. Crashes and GPU hangs hit the first launch only; a rank that
 * never starts misses every launch.
 *
 * <p>Keeps what happened: a note per applied fault ({@code "1.500 s: link ... down"}) for the report,
 * and for the analyzer the links degraded or taken down and the ranks never launched.
 */
public final class FaultInjector {
    private final SimHost host;
    private final Cluster cluster;
    private final CollectiveEngine engine;
    private final FaultTarget target;
    private final List<Fault> faults;
    private final int worldSize;
    private final List<String> notes = new ArrayList<>();
    private final Map<Integer, Double> slowGpu = new LinkedHashMap<>();
    private final Map<String, Double> degradedLinks = new LinkedHashMap<>();
    private final Set<Integer> neverStarts = new LinkedHashSet<>();
    /** True while an event trigger applies its fault: effects then happen inline, before the rank goes on. */
    private boolean inline;

    /**
     * @param faults    the scenario's faults ({@link #schedule} each; iteration triggers are looked up here)
     * @param worldSize the job's ranks (faults must name ranks in [0, worldSize))
     */
    public FaultInjector(SimHost host, Cluster cluster, CollectiveEngine engine, FaultTarget target, List<Fault> faults,
                  int worldSize) {
        this.host = host;
        this.cluster = cluster;
        this.engine = engine;
        this.target = target;
        this.faults = List.copyOf(faults);
        this.worldSize = worldSize;
    }

    /** Notes of the faults applied so far, with their times, in order. */
    public List<String> notes() { return List.copyOf(notes); }

    /** Links a fault degraded (their factor) or took down (0), in the order it happened first. */
    public Map<String, Double> degradedLinks() { return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(degradedLinks)); }

    /** Ranks that are never launched. */
    public Set<Integer> neverStarts() { return java.util.Collections.unmodifiableSet(neverStarts); }

    /** The factor a slow-GPU fault gave the rank, or null (a relaunched process keeps its GPU's). */
    public Double slowFactor(int rank) { return slowGpu.get(rank); }

    /**
     * Checks {@code f} against the topology and the job and schedules it.
     *
     * @throws IllegalArgumentException naming the link or rank that does not exist
     */
    public void schedule(Fault f) {
        if (f instanceof Fault.LinkDegrade d) {
            cluster.requireLink(d.link());
            at(d.atPs(), () -> {
                cluster.setFactor(d.link(), d.factor());
                degradedLinks.put(d.link(), d.factor());
                note("link " + d.link() + " degraded to " + d.factor() + " of its rate");
                engine.healthChanged();
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
        } else if (f instanceof Fault.NeverStarts n) {
            requireRank(n.rank());
            neverStarts.add(n.rank());
        } else {
            scheduleOnRankOrStore(f);
        }
    }

    private void scheduleOnRankOrStore(Fault f) {
        if (f instanceof Fault.RankCrash c) {
            requireRank(c.rank());
            at(c.atPs(), () -> {
                if (target.attempt() == 0) target.crash(c.rank(), "killed by a fault at " + Units.formatDuration(host.now()));
            });
        } else if (f instanceof Fault.SlowGpu s) {
            requireRank(s.rank());
            at(s.atPs(), () -> {
                slowGpu.put(s.rank(), s.factor());
                target.slowGpu(s.rank(), s.factor());
                note("GPU of rank " + s.rank() + " computes " + s.factor() + "x slower");
            });
        } else if (f instanceof Fault.GpuHang g) {
            requireRank(g.rank());
            at(g.atPs(), () -> {
                if (target.attempt() != 0) return;
                note("GPU of rank " + g.rank() + " hangs");
                target.gpuHang(g.rank());
            });
        } else if (f instanceof Fault.MemoryPressure m) {
            requireRank(m.rank());
            at(m.atPs(), () -> {
                target.takeMemory(m.rank(), m.bytes());
                note(Units.formatBytes(m.bytes()) + " of rank " + m.rank() + "'s GPU memory taken by another process");
            });
        } else if (f instanceof Fault.BitFlipLink b) {
            cluster.requireLink(b.link());
            at(b.atPs(), () -> {
                note("bit flip on link " + b.link());
                engine.bitFlip(cluster.groupIndexOfLink(b.link()));
            });
        } else if (f instanceof Fault.BitFlipGpuMemory b) {
            requireRank(b.rank());
            at(b.atPs(), () -> {
                target.eccFlip(b.rank());
                note("bit flip in GPU memory of rank " + b.rank());
            });
        } else if (f instanceof Fault.StoreKeyCollision k) {
            at(k.atPs(), () -> {
                note("outside writer set store key " + k.key());
                target.storeSet(k.key(), k.value());
            });
        }
    }

    /**
     * Rank {@code rank} starts training iteration {@code iteration} of the first launch: the faults
     * triggered by it happen now, in the scenario's order.
     *
     * @return false if one of them crashed the rank
     */
    public boolean onIteration(int rank, int iteration) {
        for (Fault f : faults) {
            if (f instanceof Fault.OnIteration oi && oi.rank() == rank && oi.iteration() == iteration) {
                if (oi.fault() instanceof Fault.RankCrash) {
                    target.crash(rank, "process died at the start of iteration " + iteration);
                    return false;
                }
                applyNow(oi.fault());
            }
        }
        return true;
    }

    private void note(String s) { notes.add(Units.formatDuration(host.now()) + ": " + s); }

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

    private void requireRank(int r) {
        if (r < 0 || r >= worldSize) {
            throw new IllegalArgumentException("fault names rank " + r + "; valid ranks: 0.." + (worldSize - 1));
        }
    }

    private void linkDown(String link, long durationPs) {
        cluster.setDown(link, true);
        degradedLinks.putIfAbsent(link, 0.0);
        note("link " + link + " down" + (durationPs > 0 ? " for " + Units.formatDuration(durationPs) : ""));
        engine.healthChanged();
        if (durationPs > 0) {
            host.after(durationPs, () -> {
                cluster.setDown(link, false);
                note("link " + link + " up");
                engine.healthChanged();
            });
        }
    }
}
