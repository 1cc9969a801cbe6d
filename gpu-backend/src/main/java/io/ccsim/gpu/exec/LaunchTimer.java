package io.ccsim.gpu.exec;

import io.ccsim.gpu.cuda.Drv;
import io.ccsim.gpu.kernel.DeviceProgram;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUfunction;
import jcuda.driver.CUgraph;
import jcuda.driver.CUgraphExec;
import jcuda.driver.CUstream;
import jcuda.driver.CUstreamCaptureMode;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

import java.util.ArrayList;
import java.util.List;

/**
 * The kernel launches of a {@link PreparedProgram} and how they are timed: iterations are issued between a
 * start and an end event recorded on each rank's own stream, and the slowest rank's elapsed time counts.
 *
 * <p>Per rank: a main stream carrying the start and end events, and (if the rank has work) one launch on a
 * stream of its own with a {@code done} event. {@link #bracket} records every start event, makes each launch
 * stream wait for its rank's start, runs the work, records each {@code done} and makes the main stream wait for
 * it, records the end events, then waits for every rank (with the executor's hang timeout) and reads
 * {@code cuEventElapsedTime(start, end)}.
 */
final class LaunchTimer {
    /*
     * One launch per rank per iteration with one CTA per (channel, lane), as NCCL launches one kernel per rank with
     * a CTA per channel: a launch per (rank, channel), each on a stream of its own, makes the host's launch loop the
     * bottleneck at many channels. The CTAs of a launch wait on each other through memory flags, which is why
     * CudaExecutor.requireCoResident refuses a launch whose CTAs cannot all be resident.
     */

    /**
     * One rank's launch of one iteration.
     *
     * @param rank    the rank
     * @param f       its kernel
     * @param stream  the stream it is launched on
     * @param done    recorded on {@code stream} after the timed work
     * @param params  kernel parameters: task table, input, output, slot bytes, ranks
     * @param threads threads per CTA
     * @param ctas    CTAs, one per (channel, lane) task of the rank
     */
    record RankLaunch(int rank, CUfunction f, CUstream stream, CUevent done, Pointer params, int threads, int ctas) { }

    private final CudaExecutor ex;
    private final DeviceProgram prog;
    private final CUstream[] main;
    private final CUevent[] start;
    private final CUevent[] end;
    private final List<RankLaunch> launches = new ArrayList<>();
    /** Host time of the last {@link #graph}'s launch loop (every rank's cuGraphLaunch in turn), µs. */
    private double lastGraphLaunchHostUs = Double.NaN;

    LaunchTimer(CudaExecutor ex, DeviceProgram prog) {
        this.ex = ex;
        this.prog = prog;
        int n = prog.nRanks();
        main = new CUstream[n];
        start = new CUevent[n];
        end = new CUevent[n];
    }

    /** Creates {@code rank}'s main stream and its start and end events; its context must be current. */
    void openRank(int rank) {
        main[rank] = new CUstream();
        Drv.check(JCudaDriver.cuStreamCreate(main[rank], CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
        start[rank] = event();
        end[rank] = event();
    }

    /** Adds a rank's launch (at most one per rank, in rank order). */
    void add(RankLaunch l) {
        launches.add(l);
    }

    /** A new event in the current context. */
    static CUevent event() {
        CUevent e = new CUevent();
        Drv.check(JCudaDriver.cuEventCreate(e, CUevent_flags.CU_EVENT_DEFAULT), "cuEventCreate");
        return e;
    }

    /** Issues {@code iters} iterations between per-rank start and end events; returns the slowest rank's µs. */
    double eager(int iters) {
        return bracket(() -> {
            int cur = -1;
            for (int it = 0; it < iters; it++) {
                for (RankLaunch l : launches) {
                    if (l.rank() != cur) {
                        ex.current(l.rank());
                        cur = l.rank();
                    }
                    Drv.check(JCudaDriver.cuLaunchKernel(l.f(), l.ctas(), 1, 1, l.threads(), 1, 1, 0, l.stream(), l.params(), null),
                            "cuLaunchKernel(rank " + l.rank() + ")");
                }
            }
        });
    }

    /**
     * Captures {@code iters} launches of each rank into one CUDA graph per rank, then replays every graph once
     * (one {@code cuGraphLaunch} per rank, the host loop timed into {@link #lastGraphLaunchHostUs()}) between the
     * events; returns the slowest rank's µs for all {@code iters} calls. The graphs are destroyed before returning.
     */
    double graph(int iters) {
        List<CUgraph> graphs = new ArrayList<>();
        List<CUgraphExec> execs = new ArrayList<>();
        try {
            for (RankLaunch l : launches) {
                ex.current(l.rank());
                Drv.check(JCudaDriver.cuStreamBeginCapture(l.stream(), CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED),
                        "cuStreamBeginCapture");
                for (int it = 0; it < iters; it++) {
                    Drv.check(JCudaDriver.cuLaunchKernel(l.f(), l.ctas(), 1, 1, l.threads(), 1, 1, 0, l.stream(), l.params(), null),
                            "cuLaunchKernel(capture, rank " + l.rank() + ")");
                }
                CUgraph g = new CUgraph();
                Drv.check(JCudaDriver.cuStreamEndCapture(l.stream(), g), "cuStreamEndCapture");
                graphs.add(g);
                CUgraphExec e = new CUgraphExec();
                Drv.check(JCudaDriver.cuGraphInstantiate(e, g, 0), "cuGraphInstantiate");
                execs.add(e);
            }
            return bracket(() -> {
                long h0 = System.nanoTime();
                for (int i = 0; i < launches.size(); i++) {
                    RankLaunch l = launches.get(i);
                    ex.current(l.rank());
                    Drv.check(JCudaDriver.cuGraphLaunch(execs.get(i), l.stream()), "cuGraphLaunch(rank " + l.rank() + ")");
                }
                lastGraphLaunchHostUs = (System.nanoTime() - h0) / 1e3;
            });
        } finally {
            for (CUgraphExec e : execs) JCudaDriver.cuGraphExecDestroy(e);
            for (CUgraph g : graphs) JCudaDriver.cuGraphDestroy(g);
        }
    }

    /** Host time of the last {@link #graph}'s launch loop, µs; NaN before the first. */
    double lastGraphLaunchHostUs() { return lastGraphLaunchHostUs; }

    /** Runs {@code work} (which enqueues on the launch streams) between per-rank events; slowest rank's µs. */
    private double bracket(Runnable work) {
        int n = main.length;
        for (int r = 0; r < n; r++) {
            ex.current(r);
            Drv.check(JCudaDriver.cuEventRecord(start[r], main[r]), "cuEventRecord");
        }
        for (RankLaunch l : launches) {
            ex.current(l.rank());
            Drv.check(JCudaDriver.cuStreamWaitEvent(l.stream(), start[l.rank()], 0), "cuStreamWaitEvent");
        }
        work.run();
        for (RankLaunch l : launches) {
            ex.current(l.rank());
            Drv.check(JCudaDriver.cuEventRecord(l.done(), l.stream()), "cuEventRecord");
            Drv.check(JCudaDriver.cuStreamWaitEvent(main[l.rank()], l.done(), 0), "cuStreamWaitEvent");
        }
        double worst = 0;
        for (int r = 0; r < n; r++) {
            ex.current(r);
            Drv.check(JCudaDriver.cuEventRecord(end[r], main[r]), "cuEventRecord");
        }
        for (int r = 0; r < n; r++) {
            ex.current(r);
            ex.await(end[r], prog.protocol() + " " + prog.dtype() + " program on GPU " + ex.gpu(r));
            float[] ms = new float[1];
            Drv.check(JCudaDriver.cuEventElapsedTime(ms, start[r], end[r]), "cuEventElapsedTime");
            worst = Math.max(worst, ms[0] * 1000.0);
        }
        return worst;
    }

    /** Destroys the launch streams and events, then the ranks' main streams and events (those created). */
    void close() {
        for (RankLaunch l : launches) {
            JCudaDriver.cuStreamDestroy(l.stream());
            JCudaDriver.cuEventDestroy(l.done());
        }
        for (int r = 0; r < main.length; r++) {
            if (main[r] != null) JCudaDriver.cuStreamDestroy(main[r]);
            if (start[r] != null) JCudaDriver.cuEventDestroy(start[r]);
            if (end[r] != null) JCudaDriver.cuEventDestroy(end[r]);
        }
    }
}
