package io.ccsim.algorithms.ddp;

import io.ccsim.sim.Simulator;
import java.util.ArrayDeque;

/**
 * One rank's GPU during a training step as two CUDA streams, timed on a sim-core {@link Simulator} (picoseconds):
 * the compute stream (forward, backward, the framework's copies) and the communication stream NCCL's calls run on.
 * Every rank of a data-parallel job runs the same step, so one rank stands for all.
 *
 * <ul>
 *   <li>Compute tasks run in the order they were added, each once the previous one ended and its gate (a collective,
 *       or none) completed. A task's work is its duration alone on the GPU.</li>
 *   <li>Collectives run one at a time in the order they are released, each for its duration.</li>
 *   <li>While a collective runs, compute progresses at {@code overlap} times its own speed: 1 leaves it unaffected,
 *       0 stalls it until the collective ends (the GPU runs one or the other).</li>
 *   <li>A collective launched at time t is released at max(t, the previous release) + the host's launch cost: the
 *       host enqueues calls one after another.</li>
 * </ul>
 */
final class GpuStreams {
    /** A piece of work on the compute stream. */
    static final class Compute {
        final long workPs;
        final Collective gate;
        Runnable onStart;
        Runnable onEnd;
        long startPs = -1;
        long endPs = -1;

        /** @param workPs duration alone on the GPU, ps, {@code >= 0}; @param gate the collective it waits for, or null */
        Compute(long workPs, Collective gate) {
            if (workPs < 0) throw new IllegalArgumentException("compute work must be >= 0 ps, got " + workPs);
            this.workPs = workPs;
            this.gate = gate;
        }
    }

    /** A collective call on the communication stream. */
    static final class Collective {
        final long durationPs;
        Runnable onEnd;
        long launchPs = -1;
        long releasePs = -1;
        long startPs = -1;
        long endPs = -1;

        /** @param durationPs launch to completion, ps, {@code >= 0} */
        Collective(long durationPs) {
            if (durationPs < 0) throw new IllegalArgumentException("a collective's duration must be >= 0 ps, got " + durationPs);
            this.durationPs = durationPs;
        }
    }

    private final Simulator sim;
    private final double overlap;
    private final ArrayDeque<Compute> pending = new ArrayDeque<>();
    private Compute current;
    private boolean blocked;
    private long remainingPs;
    private long settledAt;
    private long endEvent = -1;
    private long computeEnd;
    private final ArrayDeque<Collective> released = new ArrayDeque<>();
    private Collective comm;
    private long hostFree;
    private long commEnd;
    private int unreleased;

    /**
     * @param overlap compute speed while a collective runs, as a fraction of its speed alone, in [0, 1]
     * @throws IllegalArgumentException if {@code overlap} is outside [0, 1]
     */
    GpuStreams(Simulator sim, double overlap) {
        if (!(overlap >= 0 && overlap <= 1)) throw new IllegalArgumentException("overlap must be in [0, 1], got " + overlap);
        this.sim = sim;
        this.overlap = overlap;
    }

    /** Appends {@code c} to the compute stream (before {@link #run}). */
    void add(Compute c) {
        pending.add(c);
    }

    /** Launches {@code k} now; it is released {@code hostCostPs} after the host's previous launch or now, the later. */
    void launch(Collective k, long hostCostPs) {
        k.launchPs = sim.now();
        long release = Math.max(sim.now(), hostFree) + hostCostPs;
        hostFree = release;
        unreleased++;
        sim.scheduleAt(release, () -> release(k));
    }

    /**
     * Runs the step from time 0 until both streams are idle.
     *
     * @return the end of the step: the later of the last compute task's and the last collective's end, ps
     * @throws IllegalStateException if a compute task waits for a collective that is never launched
     */
    long run() {
        sim.schedule(0, this::startNext);
        sim.run();
        if (current != null || !pending.isEmpty() || comm != null || !released.isEmpty() || unreleased > 0) {
            throw new IllegalStateException("the step did not finish: a compute task waits for a collective never launched");
        }
        return Math.max(computeEnd, commEnd);
    }

    private double rate() {
        return comm != null ? overlap : 1.0;
    }

    private void startNext() {
        if (current != null) return;
        Compute c = pending.poll();
        if (c == null) {
            computeEnd = sim.now();
            return;
        }
        current = c;
        blocked = c.gate != null && c.gate.endPs < 0;
        if (!blocked) begin();
    }

    private void begin() {
        current.startPs = sim.now();
        remainingPs = current.workPs;
        settledAt = sim.now();
        if (current.onStart != null) current.onStart.run();
        reschedule();
    }

    /** Accounts the work done on the running task since the last settlement at the rate that held since. */
    private void settle() {
        if (current != null && !blocked) {
            long done = Math.round((sim.now() - settledAt) * rate());
            remainingPs -= Math.min(remainingPs, done);
        }
        settledAt = sim.now();
    }

    private void reschedule() {
        if (endEvent >= 0) sim.cancel(endEvent);
        endEvent = -1;
        if (current == null || blocked) return;
        double r = rate();
        if (remainingPs == 0) endEvent = sim.schedule(0, this::finish);
        else if (r > 0) endEvent = sim.schedule((long) Math.ceil(remainingPs / r), this::finish);
    }

    private void finish() {
        Compute c = current;
        c.endPs = sim.now();
        current = null;
        endEvent = -1;
        if (c.onEnd != null) c.onEnd.run();
        startNext();
    }

    private void release(Collective k) {
        unreleased--;
        k.releasePs = sim.now();
        released.add(k);
        if (comm == null) startComm();
    }

    private void startComm() {
        Collective k = released.poll();
        if (k == null) return;
        settle();
        comm = k;
        k.startPs = sim.now();
        reschedule();
        sim.schedule(k.durationPs, () -> endComm(k));
    }

    private void endComm(Collective k) {
        settle();
        comm = null;
        k.endPs = sim.now();
        commEnd = sim.now();
        if (k.onEnd != null) k.onEnd.run();
        startComm();
        if (current != null && blocked && current.gate == k) {
            blocked = false;
            begin();
        } else {
            reschedule();
        }
    }
}
