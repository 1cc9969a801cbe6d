package io.ccsim.gpu.exec;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.data.ElementBuffer;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.cuda.CudaUnavailableException;
import io.ccsim.gpu.cuda.Drv;
import io.ccsim.gpu.cuda.GpuException;
import io.ccsim.gpu.kernel.DeviceProgram;
import io.ccsim.gpu.kernel.Ptx;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUfunction;
import jcuda.driver.CUgraph;
import jcuda.driver.CUgraphExec;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.CUstreamCaptureMode;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Runs plans on the GPUs of this host with the project's kernels, through JCuda's driver API only.
 *
 * <p>Rank r runs on GPU {@code gpus[r]}: one primary context per GPU ({@code cuDevicePrimaryCtxRetain}),
 * peer access enabled between every pair ({@code cuCtxEnablePeerAccess}), the PTX modules loaded with
 * {@code cuModuleLoadData} on first use of an element type. {@link #prepare(Plan)} allocates each rank's
 * input and output buffers, and per connection its NCCL_STEPS slot buffer, tail flag and step counter in the
 * receiver's memory and its head flag and counter in the sender's memory. Each iteration is one kernel
 * launch per rank, on the rank's own stream, with one CTA per (channel, lane), as NCCL launches one kernel
 * with a CTA per channel. (A launch per (rank, channel) on a stream each was tried first: at 32 channels
 * on 4 GPUs the 128 launches per iteration made the host the bottleneck, 1.2 ms per 64 MiB all-reduce.)
 *
 * <p>Not thread-safe: one host thread drives all GPUs. Close it to release the contexts.
 */
public final class CudaExecutor implements AutoCloseable {
    /** Threads per CTA: NCCL_SIMPLE/LL_MAX_NTHREADS = 512, NCCL_LL128_MAX_NTHREADS = 640 (src/include/device.h). */
    static int threadsFor(Protocol p) {
        return p == Protocol.LL128 ? 640 : 512;
    }

    private final int[] gpus;
    private final CUdevice[] devices;
    private final CUcontext[] contexts;
    private final List<Map<DataType, CUmodule>> modules = new ArrayList<>();
    private final long timeoutMs;
    private boolean closed;
    private boolean hung;

    private CudaExecutor(int[] gpus, long timeoutMs) {
        this.gpus = gpus.clone();
        this.timeoutMs = timeoutMs;
        int n = gpus.length;
        devices = new CUdevice[n];
        contexts = new CUcontext[n];
        for (int r = 0; r < n; r++) {
            devices[r] = new CUdevice();
            Drv.check(JCudaDriver.cuDeviceGet(devices[r], gpus[r]), "cuDeviceGet(" + gpus[r] + ")");
            contexts[r] = new CUcontext();
            Drv.check(JCudaDriver.cuDevicePrimaryCtxRetain(contexts[r], devices[r]), "cuDevicePrimaryCtxRetain(GPU " + gpus[r] + ")");
            modules.add(new EnumMap<>(DataType.class));
        }
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (a == b) continue;
                int[] can = new int[1];
                Drv.check(JCudaDriver.cuDeviceCanAccessPeer(can, devices[a], devices[b]), "cuDeviceCanAccessPeer");
                if (can[0] == 0) {
                    close();
                    throw new GpuException("GPU " + gpus[a] + " cannot access GPU " + gpus[b]
                            + " as a peer; ccsim's kernels write into peers' memory (NVLink or PCIe P2P required)");
                }
                current(a);
                int r = JCudaDriver.cuCtxEnablePeerAccess(contexts[b], 0);
                if (r != CUresult.CUDA_SUCCESS && r != CUresult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) {
                    Drv.check(r, "cuCtxEnablePeerAccess(GPU " + gpus[a] + " -> GPU " + gpus[b] + ")");
                }
            }
        }
    }

    /**
     * Opens the GPUs {@code gpus} (rank r on {@code gpus[r]}); a kernel that runs longer than 120 s is
     * reported as a hang.
     *
     * @throws CudaUnavailableException when CUDA or one of the GPUs is missing
     */
    public static CudaExecutor open(int... gpus) {
        return open(gpus, 120_000);
    }

    /** As {@link #open(int...)} with a hang timeout in milliseconds. */
    public static CudaExecutor open(int[] gpus, long timeoutMs) {
        Cuda.requireDevices(gpus);
        if (timeoutMs <= 0) throw new IllegalArgumentException("timeoutMs must be > 0, got " + timeoutMs);
        return new CudaExecutor(gpus, timeoutMs);
    }

    /** Number of ranks (GPUs). */
    public int nRanks() { return gpus.length; }

    /** The device ordinals, rank order. */
    public int[] gpus() { return gpus.clone(); }

    void current(int rank) {
        Drv.check(JCudaDriver.cuCtxSetCurrent(contexts[rank]), "cuCtxSetCurrent(GPU " + gpus[rank] + ")");
    }

    CUfunction function(int rank, DeviceProgram p) {
        CUmodule m = modules.get(rank).get(p.dtype());
        if (m == null) {
            current(rank);
            m = new CUmodule();
            Drv.check(JCudaDriver.cuModuleLoadData(m, Ptx.moduleImage(p.dtype())),
                    "cuModuleLoadData(" + Ptx.resource(p.dtype()) + " on GPU " + gpus[rank] + ")");
            modules.get(rank).put(p.dtype(), m);
        }
        CUfunction f = new CUfunction();
        String name = Ptx.kernelName(p.protocol(), p.dtype(), p.redop());
        Drv.check(JCudaDriver.cuModuleGetFunction(f, m, name), "cuModuleGetFunction(" + name + ")");
        return f;
    }

    /**
     * Allocates everything {@code plan} needs on the GPUs. The plan must have as many ranks as this executor
     * has GPUs.
     */
    public Prepared prepare(Plan plan) {
        if (plan.nRanks() != gpus.length) {
            throw new IllegalArgumentException("plan has " + plan.nRanks() + " ranks but the executor has "
                    + gpus.length + " GPUs " + java.util.Arrays.toString(gpus));
        }
        return new Prepared(this, DeviceProgram.fromPlan(plan));
    }

    /**
     * Allocates a hand-built program (microbenchmarks such as {@link DeviceProgram#localStep}).
     *
     * @throws IllegalArgumentException if the program's ranks differ from this executor's GPUs
     */
    public Prepared prepare(DeviceProgram program) {
        if (program.nRanks() != gpus.length) {
            throw new IllegalArgumentException("program has " + program.nRanks() + " ranks but the executor has "
                    + gpus.length + " GPUs");
        }
        return new Prepared(this, program);
    }

    /**
     * The CTAs of one launch wait on each other (and on peers' CTAs) through memory flags, so all of them
     * must be resident at once; a plan that needs more than the GPU holds would hang, so it is refused.
     */
    void requireCoResident(int rank, CUfunction f, int ctas, int threads) {
        int[] perSm = new int[1];
        Drv.check(JCudaDriver.cuOccupancyMaxActiveBlocksPerMultiprocessor(perSm, f, threads, 0),
                "cuOccupancyMaxActiveBlocksPerMultiprocessor");
        int[] sms = new int[1];
        Drv.check(JCudaDriver.cuDeviceGetAttribute(sms, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                devices[rank]), "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)");
        long fit = (long) perSm[0] * sms[0];
        if (ctas > fit) {
            throw new IllegalArgumentException("the plan needs " + ctas + " co-resident CTAs of " + threads
                    + " threads on GPU " + gpus[rank] + " (channels × lanes), which holds " + fit + " (" + sms[0]
                    + " SMs × " + perSm[0] + "); use fewer channels");
        }
    }

    /** True once a launch timed out: the GPUs still run kernels, so nothing may wait for them or free memory. */
    boolean hung() { return hung; }

    /** Waits for {@code ev}, failing after the hang timeout with a message naming what was waited for. */
    void await(CUevent ev, String what) {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true) {
            int r = JCudaDriver.cuEventQuery(ev);
            if (r == CUresult.CUDA_SUCCESS) return;
            if (r != CUresult.CUDA_ERROR_NOT_READY) Drv.check(r, "kernel execution (" + what + ")");
            if (System.nanoTime() > deadline) {
                hung = true;
                throw new GpuException("kernels of " + what + " still running after " + timeoutMs
                        + " ms: a flow-control hang (a step waits for a slot that never fills or frees)");
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        if (hung) return;   // kernels still spin on flags: releasing the contexts would block; the process must exit
        for (int r = 0; r < gpus.length; r++) {
            if (contexts[r] == null) continue;
            try {
                current(r);
                for (CUmodule m : modules.get(r).values()) JCudaDriver.cuModuleUnload(m);
                JCudaDriver.cuDevicePrimaryCtxRelease(devices[r]);
            } catch (GpuException e) {
                // keep releasing the others
            }
        }
    }

    /**
     * A program resident on the GPUs: buffers, connection memory, streams, encoded steps. Run it any
     * number of times; {@link #close()} frees it.
     */
    public static final class Prepared implements AutoCloseable {
        private final CudaExecutor ex;
        private final DeviceProgram prog;
        private final int n;
        private final DevPtr[] in;
        private final DevPtr[] out;
        private final DevPtr[] connMem;
        private final List<DevPtr> small = new ArrayList<>();
        private final List<Launch> launches = new ArrayList<>();
        private final CUstream[] main;
        private final CUevent[] start;
        private final CUevent[] end;
        private boolean closed;
        /** Host time of the last {@link #timeGraphUs}'s graph launch loop (every rank's cuGraphLaunch in turn), µs. */
        private double lastGraphLaunchHostUs = Double.NaN;

        private static final class Launch {
            int rank;
            CUfunction f;
            CUstream stream;
            CUevent done;
            Pointer params;
            int threads;
            int ctas;
        }

        Prepared(CudaExecutor ex, DeviceProgram prog) {
            this.ex = ex;
            this.prog = prog;
            this.n = prog.nRanks();
            in = new DevPtr[n];
            out = new DevPtr[n];
            connMem = new DevPtr[n];
            main = new CUstream[n];
            start = new CUevent[n];
            end = new CUevent[n];
            try {
                build();
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        private static long align(long x, long a) { return (x + a - 1) / a * a; }

        private void build() {
            // ---- layout of each rank's connection memory
            long bufBytes = align(prog.slotsAllocated() * prog.slotWireBytes(), 256);
            long[] size = new long[n];
            int nc = prog.connections().size();
            long[] recvOff = new long[nc];   // in rank `to`: buffer, then tail (+0), counter (+128)
            long[] sendOff = new long[nc];   // in rank `from`: head (+0), counter (+128)
            for (int k = 0; k < nc; k++) {
                int[] c = prog.connections().get(k);
                recvOff[k] = size[c[2]];
                size[c[2]] += bufBytes + 256;
                sendOff[k] = size[c[1]];
                size[c[1]] += 256;
            }
            for (int r = 0; r < n; r++) {
                ex.current(r);
                in[r] = alloc(Math.max(16, prog.inputBytes()[r]), "input of rank " + r);
                out[r] = alloc(Math.max(16, prog.outputBytes()[r]), "output of rank " + r);
                connMem[r] = alloc(Math.max(256, size[r]), "connection memory of rank " + r);
                Drv.check(JCudaDriver.cuMemsetD8(connMem[r], (byte) 0, Math.max(256, size[r])), "cuMemsetD8(connections)");
                main[r] = new CUstream();
                Drv.check(JCudaDriver.cuStreamCreate(main[r], CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
                start[r] = event();
                end[r] = event();
            }
            // ---- per rank: the task table (one CTA per (channel, lane)) and one launch per iteration
            List<List<long[]>> descs = new ArrayList<>();
            for (int r = 0; r < n; r++) descs.add(new ArrayList<>());
            for (DeviceProgram.Task t : prog.tasks()) {
                if (t.nSteps() == 0) continue;
                int r = t.rank();
                ex.current(r);
                long[] table = new long[t.conns().length * 4];
                for (int i = 0; i < t.conns().length; i++) {
                    int k = t.conns()[i];
                    int[] c = prog.connections().get(k);
                    int from = c[1], to = c[2];
                    long recvBase = connMem[to].address() + recvOff[k];
                    long sendBase = connMem[from].address() + sendOff[k];
                    table[i * 4] = recvBase;                                   // slot buffer (receiver's memory)
                    table[i * 4 + 1] = recvBase + bufBytes;                    // tail (receiver's memory)
                    table[i * 4 + 2] = sendBase;                               // head (sender's memory)
                    table[i * 4 + 3] = t.sending()[i] ? sendBase + 128 : recvBase + bufBytes + 128;  // own counter
                }
                DevPtr steps = alloc((long) t.words().length * 8, "steps");
                Drv.check(JCudaDriver.cuMemcpyHtoD(steps, Pointer.to(t.words()), (long) t.words().length * 8), "cuMemcpyHtoD(steps)");
                DevPtr conns = alloc(Math.max(8, (long) table.length * 8), "connection table");
                if (table.length > 0) {
                    Drv.check(JCudaDriver.cuMemcpyHtoD(conns, Pointer.to(table), (long) table.length * 8), "cuMemcpyHtoD(connections)");
                }
                descs.get(r).add(new long[] {steps.address(), t.nSteps(), conns.address(), t.conns().length});
            }
            for (int r = 0; r < n; r++) {
                List<long[]> d = descs.get(r);
                if (d.isEmpty()) continue;
                ex.current(r);
                long[] flat = new long[d.size() * 4];
                for (int i = 0; i < d.size(); i++) System.arraycopy(d.get(i), 0, flat, i * 4, 4);
                DevPtr tasks = alloc((long) flat.length * 8, "task table");
                Drv.check(JCudaDriver.cuMemcpyHtoD(tasks, Pointer.to(flat), (long) flat.length * 8), "cuMemcpyHtoD(tasks)");
                Launch l = new Launch();
                l.rank = r;
                l.ctas = d.size();
                l.f = ex.function(r, prog);
                ex.requireCoResident(r, l.f, l.ctas, threadsFor(prog.protocol()));
                l.stream = new CUstream();
                Drv.check(JCudaDriver.cuStreamCreate(l.stream, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
                l.done = event();
                l.threads = threadsFor(prog.protocol());
                l.params = Pointer.to(Pointer.to(tasks), Pointer.to(in[r]), Pointer.to(out[r]),
                        Pointer.to(new long[] {prog.slotWireBytes()}), Pointer.to(new int[] {n}));
                launches.add(l);
            }
        }

        private CUevent event() {
            CUevent e = new CUevent();
            Drv.check(JCudaDriver.cuEventCreate(e, CUevent_flags.CU_EVENT_DEFAULT), "cuEventCreate");
            return e;
        }

        private DevPtr alloc(long bytes, String what) {
            DevPtr p = new DevPtr();
            Drv.check(JCudaDriver.cuMemAlloc(p, bytes), "cuMemAlloc(" + bytes + " B for " + what + ")");
            small.add(p);
            return p;
        }

        /** Copies rank inputs to the GPUs; element counts must match the plan's input counts. */
        public void upload(ElementBuffer[] inputs) {
            copyIn(inputs, in, prog.inputBytes(), "input");
        }

        /** Sets the GPUs' output buffers (so that unwritten elements keep a known value). */
        public void uploadOutputs(ElementBuffer[] outputs) {
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

        /** Reads back the outputs. */
        public ElementBuffer[] download() {
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
        public void run() {
            timeUs(0, 1);
        }

        /**
         * Runs {@code warmup} untimed iterations, then {@code iters} timed ones back to back, and returns the
         * mean time per iteration in µs: per rank, CUDA events on its streams around all iterations; the
         * slowest rank counts.
         */
        public double timeUs(int warmup, int iters) {
            if (iters < 1 || warmup < 0) throw new IllegalArgumentException("need iters >= 1 and warmup >= 0, got " + iters + ", " + warmup);
            if (warmup > 0) issue(warmup);
            return issue(iters) / iters;
        }

        /**
         * As {@link #timeUs} but the {@code iters} timed launches of each rank are captured into one CUDA graph
         * per rank and replayed with one {@code cuGraphLaunch} per rank, so that host launch cost (about 12 µs
         * per JCuda launch on the H200 host measured) stays out of the per-iteration time, as nccl-tests' -G
         * option does. Warm-up iterations are launched eagerly.
         */
        public double timeGraphUs(int warmup, int iters) {
            if (iters < 1 || warmup < 0) throw new IllegalArgumentException("need iters >= 1 and warmup >= 0, got " + iters + ", " + warmup);
            if (warmup > 0) issue(warmup);
            List<CUgraph> graphs = new ArrayList<>();
            List<CUgraphExec> execs = new ArrayList<>();
            try {
                for (Launch l : launches) {
                    ex.current(l.rank);
                    Drv.check(JCudaDriver.cuStreamBeginCapture(l.stream, CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED),
                            "cuStreamBeginCapture");
                    for (int it = 0; it < iters; it++) {
                        Drv.check(JCudaDriver.cuLaunchKernel(l.f, l.ctas, 1, 1, l.threads, 1, 1, 0, l.stream, l.params, null),
                                "cuLaunchKernel(capture, rank " + l.rank + ")");
                    }
                    CUgraph g = new CUgraph();
                    Drv.check(JCudaDriver.cuStreamEndCapture(l.stream, g), "cuStreamEndCapture");
                    graphs.add(g);
                    CUgraphExec e = new CUgraphExec();
                    Drv.check(JCudaDriver.cuGraphInstantiate(e, g, 0), "cuGraphInstantiate");
                    execs.add(e);
                }
                return bracket(() -> {
                    long h0 = System.nanoTime();
                    for (int i = 0; i < launches.size(); i++) {
                        Launch l = launches.get(i);
                        ex.current(l.rank);
                        Drv.check(JCudaDriver.cuGraphLaunch(execs.get(i), l.stream), "cuGraphLaunch(rank " + l.rank + ")");
                    }
                    lastGraphLaunchHostUs = (System.nanoTime() - h0) / 1e3;
                }) / iters;
            } finally {
                for (CUgraphExec e : execs) JCudaDriver.cuGraphExecDestroy(e);
                for (CUgraph g : graphs) JCudaDriver.cuGraphDestroy(g);
            }
        }

        /**
         * Host time the last {@link #timeGraphUs} spent launching the ranks' graphs one after the other, µs (NaN before
         * the first): the last rank's calls start about this much after the first rank's start event, which the
         * per-call time carries divided by the iterations (see the profile's {@code sim.graph_launch_us}).
         */
        public double lastGraphLaunchHostUs() { return lastGraphLaunchHostUs; }

        /** Issues {@code iters} iterations between per-rank start and end events; returns the slowest rank's µs. */
        private double issue(int iters) {
            return bracket(() -> {
                int cur = -1;
                for (int it = 0; it < iters; it++) {
                    for (Launch l : launches) {
                        if (l.rank != cur) {
                            ex.current(l.rank);
                            cur = l.rank;
                        }
                        Drv.check(JCudaDriver.cuLaunchKernel(l.f, l.ctas, 1, 1, l.threads, 1, 1, 0, l.stream, l.params, null),
                                "cuLaunchKernel(rank " + l.rank + ")");
                    }
                }
            });
        }

        /** Runs {@code work} (which enqueues on the launch streams) between per-rank events; slowest rank's µs. */
        private double bracket(Runnable work) {
            for (int r = 0; r < n; r++) {
                ex.current(r);
                Drv.check(JCudaDriver.cuEventRecord(start[r], main[r]), "cuEventRecord");
            }
            for (Launch l : launches) {
                ex.current(l.rank);
                Drv.check(JCudaDriver.cuStreamWaitEvent(l.stream, start[l.rank], 0), "cuStreamWaitEvent");
            }
            work.run();
            for (Launch l : launches) {
                ex.current(l.rank);
                Drv.check(JCudaDriver.cuEventRecord(l.done, l.stream), "cuEventRecord");
                Drv.check(JCudaDriver.cuStreamWaitEvent(main[l.rank], l.done, 0), "cuStreamWaitEvent");
            }
            double worst = 0;
            for (int r = 0; r < n; r++) {
                ex.current(r);
                Drv.check(JCudaDriver.cuEventRecord(end[r], main[r]), "cuEventRecord");
            }
            for (int r = 0; r < n; r++) {
                ex.current(r);
                ex.await(end[r], prog.protocol() + " " + prog.dtype() + " program on GPU " + ex.gpus[r]);
                float[] ms = new float[1];
                Drv.check(JCudaDriver.cuEventElapsedTime(ms, start[r], end[r]), "cuEventElapsedTime");
                worst = Math.max(worst, ms[0] * 1000.0);
            }
            return worst;
        }

        /** The encoded program (for reports). */
        DeviceProgram program() { return prog; }

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
            for (DevPtr p : small) JCudaDriver.cuMemFree(p);
            for (Launch l : launches) {
                JCudaDriver.cuStreamDestroy(l.stream);
                JCudaDriver.cuEventDestroy(l.done);
            }
            for (int r = 0; r < n; r++) {
                if (main[r] != null) JCudaDriver.cuStreamDestroy(main[r]);
                if (start[r] != null) JCudaDriver.cuEventDestroy(start[r]);
                if (end[r] != null) JCudaDriver.cuEventDestroy(end[r]);
            }
        }
    }
}
