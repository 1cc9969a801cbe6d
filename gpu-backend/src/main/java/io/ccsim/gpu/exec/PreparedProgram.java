package io.ccsim.gpu.exec;

import io.ccsim.algorithms.data.ElementBuffer;
import io.ccsim.gpu.cuda.Drv;
import io.ccsim.gpu.cuda.GpuException;
import io.ccsim.gpu.kernel.DeviceProgram;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

import java.util.ArrayList;
import java.util.List;

/**
 * A program resident on the GPUs of a {@link CudaExecutor}: each rank's input and output buffers, its connection
 * memory ({@link ConnectionLayout}, zeroed), its encoded steps and task table, and one kernel launch per rank
 * ({@link LaunchTimer}). Run it any number of times; {@link #close()} frees it. Not thread-safe.
 */
public final class PreparedProgram implements AutoCloseable {
    private final CudaExecutor ex;
    private final DeviceProgram prog;
    private final int n;
    private final DevPtr[] in;
    private final DevPtr[] out;
    private final DevPtr[] connMem;
    private final List<DevPtr> allocations = new ArrayList<>();
    private final LaunchTimer timer;
    private boolean closed;

    PreparedProgram(CudaExecutor ex, DeviceProgram prog) {
        this.ex = ex;
        this.prog = prog;
        this.n = prog.nRanks();
        in = new DevPtr[n];
        out = new DevPtr[n];
        connMem = new DevPtr[n];
        timer = new LaunchTimer(ex, prog);
        try {
            build();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void build() {
        ConnectionLayout layout = ConnectionLayout.of(prog);
        for (int r = 0; r < n; r++) allocateRank(r, layout);
        List<List<long[]>> descs = uploadTasks(layout);
        for (int r = 0; r < n; r++) {
            if (!descs.get(r).isEmpty()) addLaunch(r, descs.get(r));
        }
    }

    /** Rank r's input, output and zeroed connection memory, its main stream and its timing events. */
    private void allocateRank(int r, ConnectionLayout layout) {
        ex.current(r);
        in[r] = alloc(Math.max(16, prog.inputBytes()[r]), "input of rank " + r);
        out[r] = alloc(Math.max(16, prog.outputBytes()[r]), "output of rank " + r);
        connMem[r] = alloc(layout.allocBytes(r), "connection memory of rank " + r);
        Drv.check(JCudaDriver.cuMemsetD8(connMem[r], (byte) 0, layout.allocBytes(r)), "cuMemsetD8(connections)");
        timer.openRank(r);
    }

    /**
     * Copies every task's steps and connection table to its rank's GPU; returns per rank the task descriptors
     * {steps address, steps, table address, table entries}, one per CTA, in task order.
     */
    private List<List<long[]>> uploadTasks(ConnectionLayout layout) {
        long[] base = new long[n];
        for (int r = 0; r < n; r++) base[r] = connMem[r].address();
        List<List<long[]>> descs = new ArrayList<>();
        for (int r = 0; r < n; r++) descs.add(new ArrayList<>());
        for (DeviceProgram.Task t : prog.tasks()) {
            if (t.nSteps() == 0) continue;
            int r = t.rank();
            ex.current(r);
            long[] table = layout.table(t, base);
            DevPtr steps = alloc((long) t.words().length * 8, "steps");
            Drv.check(JCudaDriver.cuMemcpyHtoD(steps, Pointer.to(t.words()), (long) t.words().length * 8), "cuMemcpyHtoD(steps)");
            DevPtr conns = alloc(Math.max(8, (long) table.length * 8), "connection table");
            if (table.length > 0) {
                Drv.check(JCudaDriver.cuMemcpyHtoD(conns, Pointer.to(table), (long) table.length * 8), "cuMemcpyHtoD(connections)");
            }
            descs.get(r).add(new long[] {steps.address(), t.nSteps(), conns.address(), t.conns().length});
        }
        return descs;
    }

    /** Rank r's task table and its launch: one CTA per task, all of them co-resident. */
    private void addLaunch(int r, List<long[]> d) {
        ex.current(r);
        long[] flat = new long[d.size() * 4];
        for (int i = 0; i < d.size(); i++) System.arraycopy(d.get(i), 0, flat, i * 4, 4);
        DevPtr tasks = alloc((long) flat.length * 8, "task table");
        Drv.check(JCudaDriver.cuMemcpyHtoD(tasks, Pointer.to(flat), (long) flat.length * 8), "cuMemcpyHtoD(tasks)");
        int ctas = d.size();
        CUfunction f = ex.function(r, prog);
        ex.requireCoResident(r, f, ctas, CudaExecutor.threadsFor(prog.protocol()));
        CUstream stream = new CUstream();
        Drv.check(JCudaDriver.cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
        CUevent done = LaunchTimer.event();
        int threads = CudaExecutor.threadsFor(prog.protocol());
        Pointer params = Pointer.to(Pointer.to(tasks), Pointer.to(in[r]), Pointer.to(out[r]),
                Pointer.to(new long[] {prog.slotWireBytes()}), Pointer.to(new int[] {n}));
        timer.add(new LaunchTimer.RankLaunch(r, f, stream, done, params, threads, ctas));
    }

    private DevPtr alloc(long bytes, String what) {
        DevPtr p = new DevPtr();
        Drv.check(JCudaDriver.cuMemAlloc(p, bytes), "cuMemAlloc(" + bytes + " B for " + what + ")");
        allocations.add(p);
        return p;
    }

    /**
     * Copies rank inputs to the GPUs.
     *
     * @throws IllegalArgumentException unless there is one buffer per rank of the program's element type and
     *                                  input count
     */
    void upload(ElementBuffer[] inputs) {
        copyIn(inputs, in, prog.inputBytes(), "input");
    }

    /**
     * Sets the GPUs' output buffers (so that unwritten elements keep a known value).
     *
     * @throws IllegalArgumentException unless there is one buffer per rank of the program's element type and
     *                                  output count
     */
    void uploadOutputs(ElementBuffer[] outputs) {
        copyIn(outputs, out, prog.outputBytes(), "output");
    }

    private void copyIn(ElementBuffer[] bufs, DevPtr[] dst, long[] bytes, String what) {
        if (bufs.length != n) throw new IllegalArgumentException(what + "s: expected " + n + " buffers, got " + bufs.length);
        for (int r = 0; r < n; r++) {
            byte[] b = Bytes.toBytes(bufs[r], prog.dtype(), bytes[r], what + " of rank " + r);
            if (b.length == 0) continue;
            ex.current(r);
            Drv.check(JCudaDriver.cuMemcpyHtoD(dst[r], Pointer.to(b), b.length), "cuMemcpyHtoD(" + what + " of rank " + r + ")");
        }
    }

    /** Fills every input with a repeating 32-bit pattern (timing runs: never zeros). */
    public void fillInputs(int pattern) {
        for (int r = 0; r < n; r++) {
            ex.current(r);
            long words = prog.inputBytes()[r] / 4;
            if (words > 0) Drv.check(JCudaDriver.cuMemsetD32(in[r], pattern, words), "cuMemsetD32(input)");
        }
    }

    /** Reads back the outputs, one buffer per rank. */
    ElementBuffer[] download() {
        ElementBuffer[] res = new ElementBuffer[n];
        for (int r = 0; r < n; r++) {
            byte[] b = new byte[Math.toIntExact(prog.outputBytes()[r])];
            ex.current(r);
            if (b.length > 0) Drv.check(JCudaDriver.cuMemcpyDtoH(Pointer.to(b), out[r], b.length), "cuMemcpyDtoH(output of rank " + r + ")");
            res[r] = Bytes.fromBytes(b, prog.dtype());
        }
        return res;
    }

    /** Runs the program once and waits for it. */
    void run() {
        timeUs(0, 1);
    }

    /**
     * Runs {@code warmup} untimed iterations, then {@code iters} timed ones back to back, each launched eagerly,
     * and returns the mean time per iteration in µs: per rank, CUDA events on its streams around all iterations;
     * the slowest rank counts.
     *
     * @throws IllegalArgumentException unless {@code iters >= 1} and {@code warmup >= 0}
     * @throws GpuException             if a driver call fails or the kernels outrun the executor's hang timeout
     */
    public double timeUs(int warmup, int iters) {
        if (iters < 1 || warmup < 0) throw new IllegalArgumentException("need iters >= 1 and warmup >= 0, got " + iters + ", " + warmup);
        if (warmup > 0) timer.eager(warmup);
        return timer.eager(iters) / iters;
    }

    /**
     * As {@link #timeUs} but the {@code iters} timed launches of each rank are captured into one CUDA graph per
     * rank and replayed with one {@code cuGraphLaunch} per rank, so that the host's launch cost stays out of the
     * per-iteration time, as nccl-tests' {@code -G} option does. Warm-up iterations are launched eagerly.
     *
     * @throws IllegalArgumentException unless {@code iters >= 1} and {@code warmup >= 0}
     * @throws GpuException             if a driver call fails or the kernels outrun the executor's hang timeout
     */
    public double timeGraphUs(int warmup, int iters) {
        if (iters < 1 || warmup < 0) throw new IllegalArgumentException("need iters >= 1 and warmup >= 0, got " + iters + ", " + warmup);
        if (warmup > 0) timer.eager(warmup);
        return timer.graph(iters) / iters;
    }

    /**
     * Host time the last {@link #timeGraphUs} spent launching the ranks' graphs one after the other, µs (NaN before
     * the first): the last rank's calls start about this much after the first rank's start event, which the
     * per-call time carries divided by the iterations (see the profile's {@code sim.graph_launch_us}).
     */
    public double lastGraphLaunchHostUs() { return timer.lastGraphLaunchHostUs(); }

    /** Waits for the GPUs and frees everything; does nothing after a hang (see {@link CudaExecutor#close()}). */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        if (ex.hung()) return;   // see CudaExecutor.close()
        for (int r = 0; r < n; r++) {
            try {
                ex.current(r);
                JCudaDriver.cuCtxSynchronize();
            } catch (GpuException e) {
                // continue freeing
            }
        }
        for (DevPtr p : allocations) JCudaDriver.cuMemFree(p);
        timer.close();
    }
}
