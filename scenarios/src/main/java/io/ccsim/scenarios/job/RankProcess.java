package io.ccsim.scenarios.job;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.scenarios.cluster.CollectiveEngine;
import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.comm.Communicator;
import io.ccsim.scenarios.comm.GpuMemory;
import io.ccsim.scenarios.comm.ProcessGroupState;
import io.ccsim.scenarios.diagnosis.FrEntry;
import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.format.Step;
import io.ccsim.scenarios.format.Units;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One rank's training process: it interprets the job's program step by step on the simulated clock,
 * owns its process groups, GPU memory, flight recorder and watchdog. A process that died (crash,
 * error, killed by the elastic agent) ignores every callback still in flight ({@link #guard}).
 */
final class RankProcess {
    final JobRun job;
    final int rank;
    final SimHost host;
    final GpuMemory memory;
    final Watchdog watchdog;
    final Map<String, ProcessGroupState> groups = new HashMap<>();
    final SymmMemory symm;
    /** Called once with the completion time of the next collective this rank waits for (then cleared), or null. */
    java.util.function.LongConsumer onCollectiveDone;
    private final Deque<Frame> stack = new ArrayDeque<>();
    private final List<FrEntry> flight;
    private boolean alive;
    private boolean trainingLoopSeen;
    RankPhase phase = RankPhase.NOT_STARTED;
    long sincePs;
    String detail = "not launched";
    int iteration = -1;
    int lastCheckpoint = -1;
    long lastCheckpointPs = -1;
    double slowFactor = 1.0;
    boolean eccFlipPending;
    boolean gpuHung;
    private final java.util.Set<String> destroyed = new java.util.HashSet<>();
    long computePs, collectivePs, computeSteps;
    RankPhase beforeKill;
    String beforeKillDetail;
    private Pending pending;

    private static final class Frame {
        final List<Step> steps;
        int idx;
        final int times;
        int iter;
        final boolean training;

        Frame(List<Step> steps, int times, int firstIter, boolean training) {
            this.steps = steps;
            this.times = times;
            this.iter = firstIter;
            this.training = training;
        }
    }

    /** The collective this rank waits for. */
    private static final class Pending {
        int frIndex;
        long watchdogHandle;
        long createdPs;
        Communicator comm;
        Communicator.Match match;
        boolean checksum;
    }

    RankProcess(JobRun job, int rank, long memoryBytes) {
        this.job = job;
        this.rank = rank;
        this.host = job.host;
        this.memory = new GpuMemory(memoryBytes);
        this.watchdog = new Watchdog(host, host.now());
        this.flight = job.trace.flight.get(rank);
        this.symm = new SymmMemory(this);
    }

    boolean alive() { return alive; }

    int gpuLocal() { return job.cluster.localOf(job.gpuOf(rank)); }

    /** Wraps a callback so that it does nothing once the process is gone. */
    Runnable guard(Runnable r) {
        return () -> {
            if (alive) r.run();
        };
    }

    void log(String kind, String text) { job.trace.log(host.now(), rank, job.attempt, kind, text); }

    void setPhase(RankPhase ph, String d) {
        phase = ph;
        detail = d;
        sincePs = host.now();
    }

    /** Launches the process. */
    void start() {
        alive = true;
        setPhase(RankPhase.RUNNING, "started");
        log("START", "process started (attempt " + job.attempt + ")");
        stack.push(new Frame(job.spec.program(), 1, 0, false));
        ProcessGroupState world = job.registerWorld(this);
        if (job.spec.eagerInit()) {
            ensureComm(world, "", c -> next());
        } else {
            next();
        }
    }

    /** Runs steps until one has to wait. */
    void next() {
        while (alive) {
            Frame f = stack.peek();
            if (f == null) {
                finish();
                return;
            }
            if (f.idx >= f.steps.size()) {
                if (++f.iter < f.times) {
                    f.idx = 0;
                    if (f.training && !beginIteration(f.iter)) return;
                    continue;
                }
                stack.pop();
                continue;
            }
            Step s = f.steps.get(f.idx++);
            if (!s.only().isEmpty() && !s.only().contains(rank)) continue;
            if (!execute(s)) return;
        }
    }

    private boolean beginIteration(int i) {
        iteration = i;
        log("ITERATION", "iteration " + i + " starts");
        return job.onIteration(this, i);
    }

    /** Executes one step; true if done at once, false if a callback will call {@link #next()}. */
    private boolean execute(Step s) {
        if (s instanceof Step.Compute c) return compute(c);
        if (s instanceof Step.Sleep sl) return sleep(sl);
        if (s instanceof Step.Repeat rp) return repeat(rp);
        if (s instanceof Step.If cond) return conditional(cond);
        if (s instanceof Step.Alloc a) return alloc(a);
        if (s instanceof Step.Free fr) {
            memory.freeTorch(fr.bytes());
            return true;
        }
        if (s instanceof Step.Checkpoint cp) return checkpoint(cp);
        if (s instanceof Step.NewGroup ng) return newGroup(ng);
        if (s instanceof Step.Barrier b) {
            return collective(b.group(), CollectiveOp.ALL_REDUCE, 1, DataType.FLOAT32, "", false, "BARRIER");
        }
        if (s instanceof Step.Collective c) {
            return collective(c.group(), c.op(), c.count(), c.dtype(), c.comm(), c.checksum(), c.op().torchOpType());
        }
        if (s instanceof Step.Abort ab) return abort(ab);
        if (s instanceof Step.SymmAlloc sa) return symm.alloc(sa);
        if (s instanceof Step.SymmSetBackend sb) return symm.setBackend(sb);
        if (s instanceof Step.RegisterGroup rg) return symm.register(rg);
        if (s instanceof Step.SymmRendezvous rv) return symm.rendezvous(rv);
        if (s instanceof Step.SymmAllReduce ar) return symm.allReduce(ar);
        if (s instanceof Step.Destroy d) return destroy(d);
        throw new IllegalStateException("unhandled step " + s);
    }

    private boolean compute(Step.Compute c) {
        setPhase(RankPhase.RUNNING, "compute");
        long d = Math.round(c.durationPs() * slowFactor);
        computePs += d;
        computeSteps++;
        host.after(d, guard(() -> {
            if (!gpuHung) next();
        }));
        return false;
    }

    private boolean sleep(Step.Sleep sl) {
        setPhase(RankPhase.RUNNING, "sleep");
        host.after(sl.durationPs(), guard(this::next));
        return false;
    }

    /** The outermost repeat is the training loop: it counts iterations and resumes after the last checkpoint. */
    private boolean repeat(Step.Repeat rp) {
        boolean training = !trainingLoopSeen;
        trainingLoopSeen = true;
        int first = training ? job.resumeFrom : 0;
        if (first >= rp.times()) return true;
        stack.push(new Frame(rp.body(), rp.times(), first, training));
        if (training) return beginIteration(first);
        return true;
    }

    private boolean conditional(Step.If cond) {
        double[] vals = job.spec.values().get(cond.value());
        boolean taken = cond.cmp().test(vals[rank], cond.operand());
        stack.push(new Frame(taken ? cond.then() : cond.otherwise(), 1, 0, false));
        return true;
    }

    private boolean alloc(Step.Alloc a) {
        if (!memory.allocTorch(a.bytes(), a.cacheBytes())) {
            processError("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate " + Units.formatBytes(a.bytes())
                    + ". GPU " + gpuLocal() + " has a total capacity of " + Units.formatBytes(memory.capacity())
                    + " of which " + Units.formatBytes(memory.capacity() - memory.held()) + " is free.");
            return false;
        }
        return true;
    }

    private boolean checkpoint(Step.Checkpoint cp) {
        if ((iteration + 1) % cp.every() != 0) return true;
        setPhase(RankPhase.RUNNING, "checkpoint");
        host.after(cp.durationPs(), guard(() -> {
            lastCheckpoint = iteration;
            lastCheckpointPs = host.now();
            log("CHECKPOINT", "checkpoint saved after iteration " + iteration);
            next();
        }));
        return false;
    }

    private boolean newGroup(Step.NewGroup ng) {
        job.registerGroup(this, ng);
        ProcessGroupState pg = groups.get(ng.name());
        if (pg != null && ng.eager()) {
            ensureComm(pg, "", c -> next());
            return false;
        }
        return true;
    }

    private boolean abort(Step.Abort ab) {
        ProcessGroupState pg = groups.get(ab.group());
        if (pg != null) {
            for (ProcessGroupState.CommState cs : pg.comms()) cs.abort();
            log("ABORT", "ncclCommAbort on group " + ab.group());
        }
        return true;
    }

    private boolean destroy(Step.Destroy d) {
        ProcessGroupState pg = groups.remove(d.group());
        if (pg != null) {
            destroyed.add(d.group());
            for (ProcessGroupState.CommState cs : pg.comms()) memory.freeNccl(cs.bufferBytes());
            log("DESTROY", "destroy_process_group(" + d.group() + "): communicators destroyed");
        }
        return true;
    }

    /** Gets the group's communicator for {@code commKey}, creating it (lazy init) if needed. */
    void ensureComm(ProcessGroupState pg, String commKey, Consumer<Communicator> then) {
        ProcessGroupState.CommState cs = pg.comm(commKey);
        if (cs.await(then)) new NcclInit(this, pg, commKey, cs).run();
    }

    void commReady(ProcessGroupState pg, ProcessGroupState.CommState cs, Communicator c) {
        List<Consumer<Communicator>> ws = cs.ready(c);
        setPhase(RankPhase.RUNNING, "communicator of " + pg.name() + " ready");
        for (Consumer<Communicator> w : ws) w.accept(c);
    }

    boolean collective(String group, CollectiveOp op, long count, DataType dtype, String commKey,
                               boolean checksum, String opType) {
        ProcessGroupState pg = groups.get(group);
        if (pg == null) {
            if (destroyed.contains(group)) {
                processError("DistBackendError: process group '" + group + "' was destroyed (destroy_process_group) and used again");
                return false;
            }
            if (job.isKnownGroup(group)) return true; // PyTorch: a non-member's call on a group is a no-op
            processError("ValueError: process group '" + group + "' was never created; known groups: " + job.groupNames());
            return false;
        }
        ensureComm(pg, commKey, comm -> enqueue(pg, pg.comm(commKey), comm, op, count, dtype, checksum, opType));
        return false;
    }

    private void enqueue(ProcessGroupState pg, ProcessGroupState.CommState cs, Communicator comm, CollectiveOp op,
                         long count, DataType dtype, boolean checksum, String opType) {
        if (comm.aborted() || cs.failed()) {
            processError("DistBackendError: NCCL communicator of group " + pg.name() + " was aborted");
            return;
        }
        long seq = pg.nextCollectiveSeq();
        long n = pg.size();
        final long numelIn = count;
        final long numelOut = op == CollectiveOp.ALL_GATHER ? count * n
                : op == CollectiveOp.REDUCE_SCATTER ? Math.max(1, count / n) : count;
        FrEntry e = new FrEntry(flight.size(), pg.name(), seq, opType, numelIn, numelOut, dtype.longName(), "scheduled",
                host.now(), -1, -1, null);
        flight.add(e);
        Pending pd = new Pending();
        pd.frIndex = flight.size() - 1;
        pd.createdPs = host.now();
        pd.comm = comm;
        pd.checksum = checksum;
        pending = pd;
        setPhase(RankPhase.COLLECTIVE, opType + " #" + seq + " on group " + pg.name());
        long timeout = job.settings.collectiveTimeoutPs();
        pd.watchdogHandle = watchdog.arm(timeout, t -> {
            if (pending != pd) return;
            String msg = Watchdog.timeoutMessage(rank, seq, opType, numelIn, numelOut, timeout, t - pd.createdPs);
            log("WATCHDOG", msg);
            job.trace.flight.get(rank).set(pd.frIndex, flight.get(pd.frIndex).withState("timed_out",
                    flight.get(pd.frIndex).startedPs(), -1, null));
            if (job.settings.asyncErrorHandling() != 0 || job.settings.blockingWait()) {
                processError(msg + (job.settings.blockingWait() ? "" : " To avoid data inconsistency, we are taking the entire process down."));
            }
        });
        int k = cs.nextOpIndex();
        int commRank = comm.commRank(rank);
        Communicator.Match m = comm.match(k);
        pd.match = m;
        CollectiveEngine.Spec spec = new CollectiveEngine.Spec(op, count, dtype, pg.name() + "#" + seq,
                job.dataSeed(pg.name(), seq), job.settings.channels());
        boolean matched = m.join(spec, () -> job.engine.start(spec, comm.gpus(), comm.globalRanks(), job.collectiveListener));
        // the kernel starts now; it spins until its peers' data arrives
        flight.set(pd.frIndex, flight.get(pd.frIndex).withState("started", host.now(), -1, null));
        if (matched && !gpuHung) m.execution().launch(commRank);
    }

    /** The collective this rank waits for completed. */
    void collectiveDone(long timePs, Long outputChecksum) {
        Pending pd = pending;
        if (!alive || pd == null) return;
        pending = null;
        watchdog.disarm(pd.watchdogHandle);
        collectivePs += timePs - pd.createdPs;
        Long cs = pd.checksum ? outputChecksum : null;
        if (cs != null && eccFlipPending) {
            cs = cs ^ (1L << 17);
            eccFlipPending = false;
            log("ECC", "uncorrected ECC error in GPU memory holding the output of the last collective");
        }
        FrEntry e = flight.get(pd.frIndex);
        flight.set(pd.frIndex, e.withState("completed", e.startedPs(), timePs, cs));
        java.util.function.LongConsumer hook = onCollectiveDone;
        onCollectiveDone = null;
        if (hook != null) hook.accept(timePs);
        next();
    }

    /** An asynchronous NCCL error on a communicator of this rank, seen by the watchdog at its next poll. */
    void asyncNcclError(String detailMsg) {
        long at = watchdog.nextPollAfter(host.now());
        host.after(at - host.now(), guard(() -> processError("[Rank " + rank + "] NCCL watchdog thread terminated with exception: "
                + "NCCL error: remote process exited or there was a network error, ncclRemoteError: A call failed possibly due to a network"
                + " error or a remote process exiting prematurely. Last error: " + detailMsg)));
    }

    /**
     * The GPU stops making progress: the collective in flight never completes (for anyone), the
     * watchdog thread blocks in its CUDA event queries, and PyTorch's HeartbeatMonitor, seeing no
     * watchdog heartbeat for TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC, dumps the flight recorder and kills
     * the process (ProcessGroupNCCL.cpp, HeartbeatMonitor::runLoop).
     */
    void gpuHang() {
        if (!alive || gpuHung) return;
        gpuHung = true;
        log("GPU_HANG", "GPU " + job.cluster.gpuId(job.gpuOf(rank)) + " stopped making progress (Xid 79: GPU has fallen off the bus?)");
        int inFlight = 0;
        if (pending != null) {
            inFlight = 1;
            watchdog.disarm(pending.watchdogHandle);
            if (pending.match.execution() != null) pending.match.execution().abort();
        }
        final int works = inFlight;
        // HeartbeatMonitor::runLoop compares the watchdog's heartbeat counter every heartbeat timeout
        // (from process start); it fires at the first check whose whole previous interval saw no beat
        long hb = job.settings.heartbeatTimeoutPs();
        long since = host.now() - watchdog.startPs();
        long detect = watchdog.startPs() + (since / hb + 2) * hb;
        host.after(detect - host.now(), guard(() -> processError("[Rank " + rank + "] Heartbeat monitor timed out!"
                + " Process will be terminated after dumping debug info. workMetaList_.size()=" + works
                + " ProcessGroupNCCL's watchdog got stuck for " + Units.toMillis(hb) / 1000
                + " seconds without making progress in monitoring enqueued collectives.")));
    }

    private void finish() {
        setPhase(RankPhase.DONE, "program finished");
        log("DONE", "program finished");
        alive = false;
        job.onRankFinished(this);
    }

    /** The process exits with an error. */
    void processError(String msg) {
        if (!alive) return;
        alive = false;
        cancelPending();
        setPhase(RankPhase.ERROR, msg);
        log("ERROR", msg);
        job.onWorkerFailed(this, msg);
    }

    /** The process dies (segfault, OOM-killer, node failure). */
    void crash(String why) {
        if (!alive) return;
        alive = false;
        cancelPending();
        setPhase(RankPhase.CRASHED, why);
        log("CRASH", why);
        job.onWorkerFailed(this, "rank " + rank + " crashed: " + why);
    }

    /** The elastic agent stops the process (SIGTERM). */
    void kill(String why) {
        if (!alive) return;
        alive = false;
        cancelPending();
        beforeKill = phase;
        beforeKillDetail = detail;
        setPhase(RankPhase.KILLED, why + " (it was " + phase.name().toLowerCase(java.util.Locale.ROOT) + ": " + detail + ")");
        log("KILLED", why);
    }

    private void cancelPending() {
        if (pending != null) {
            watchdog.disarm(pending.watchdogHandle);
            pending = null;
        }
    }
}
