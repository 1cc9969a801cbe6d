package io.ccsim.gpu.exec;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.cuda.CudaUnavailableException;
import io.ccsim.gpu.cuda.Drv;
import io.ccsim.gpu.cuda.GpuException;
import io.ccsim.gpu.kernel.DeviceProgram;
import io.ccsim.gpu.kernel.Ptx;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
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
 * {@code cuModuleLoadData} on first use of an element type. {@link #prepare(Plan)} makes the plan resident on
 * the GPUs as a {@link PreparedProgram}: buffers and connection memory ({@link ConnectionLayout}), and one
 * kernel launch per rank per iteration with one CTA per (channel, lane) ({@link LaunchTimer}).
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

    /** The device ordinal of {@code rank}. */
    int gpu(int rank) { return gpus[rank]; }

    /** Makes {@code rank}'s context current on this thread. */
    void current(int rank) {
        Drv.check(JCudaDriver.cuCtxSetCurrent(contexts[rank]), "cuCtxSetCurrent(GPU " + gpus[rank] + ")");
    }

    /** The kernel of {@code p} (protocol, type, reduction) on {@code rank}'s GPU, loading its module on first use. */
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
    public PreparedProgram prepare(Plan plan) {
        if (plan.nRanks() != gpus.length) {
            throw new IllegalArgumentException("plan has " + plan.nRanks() + " ranks but the executor has "
                    + gpus.length + " GPUs " + java.util.Arrays.toString(gpus));
        }
        return new PreparedProgram(this, DeviceProgram.fromPlan(plan));
    }

    /**
     * Allocates a hand-built program (microbenchmarks such as {@link DeviceProgram#localStep}).
     *
     * @throws IllegalArgumentException if the program's ranks differ from this executor's GPUs
     */
    public PreparedProgram prepare(DeviceProgram program) {
        if (program.nRanks() != gpus.length) {
            throw new IllegalArgumentException("program has " + program.nRanks() + " ranks but the executor has "
                    + gpus.length + " GPUs");
        }
        return new PreparedProgram(this, program);
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
}
