package io.ccsim.gpu.cuda;

import jcuda.driver.CUdevice;
import jcuda.driver.JCudaDriver;

import static jcuda.driver.CUresult.CUDA_SUCCESS;

/**
 * Whether this JVM can use CUDA through JCuda's driver API (libJCudaDriver plus the NVIDIA driver's
 * libcuda), and how many devices it sees. Nothing is cached: every call asks the driver again
 * ({@code cuInit} is cheap once the driver is loaded).
 *
 * <p>Every GPU-bound entry point calls {@link #requireDevices(int)} first, so that a host without a GPU
 * gets exactly one clear line ("no CUDA device found: ...") instead of a native-library stack trace.
 */
public final class Cuda {
    /** The prefix of every "cannot use CUDA here" message (tests and the CLI print it as is). */
    public static final String NO_DEVICE = "no CUDA device found: ";

    private Cuda() { }

    /** True if libcuda loads, {@code cuInit} succeeds and at least one device exists. */
    public static boolean available() {
        return unavailableReason() == null;
    }

    /** Why CUDA cannot be used, as a full {@link #NO_DEVICE} line, or {@code null} if it can. */
    public static String unavailableReason() {
        try {
            int r = JCudaDriver.cuInit(0);
            if (r != CUDA_SUCCESS) return NO_DEVICE + "cuInit failed with " + Drv.name(r);
            int[] n = new int[1];
            r = JCudaDriver.cuDeviceGetCount(n);
            if (r != CUDA_SUCCESS) return NO_DEVICE + "cuDeviceGetCount failed with " + Drv.name(r);
            if (n[0] == 0) return NO_DEVICE + "the NVIDIA driver reports 0 devices";
            return null;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return NO_DEVICE + "cannot load JCuda's driver library or libcuda (" + loadFailure(e) + ")";
        } catch (RuntimeException e) {
            return NO_DEVICE + firstLine(e.toString());
        }
    }

    /** Number of CUDA devices, 0 when CUDA is unavailable. */
    public static int deviceCount() {
        if (!available()) return 0;
        int[] n = new int[1];
        Drv.check(JCudaDriver.cuDeviceGetCount(n), "cuDeviceGetCount");
        return n[0];
    }

    /**
     * Fails unless CUDA works and the devices {@code gpus} exist.
     *
     * @throws CudaUnavailableException with a {@link #NO_DEVICE} message
     * @throws IllegalArgumentException if a GPU index is negative, repeated, or beyond the device count
     */
    public static void requireDevices(int... gpus) {
        String why = unavailableReason();
        if (why != null) throw new CudaUnavailableException(why);
        int n = deviceCount();
        if (gpus.length == 0) throw new IllegalArgumentException("no GPU indices given; valid: 0.." + (n - 1));
        boolean[] seen = new boolean[Math.max(n, 1)];
        for (int g : gpus) {
            if (g < 0 || g >= n) {
                throw new IllegalArgumentException("GPU index " + g + " does not exist; this host has " + n
                        + " CUDA device(s), valid: 0.." + (n - 1));
            }
            if (seen[g]) throw new IllegalArgumentException("GPU index " + g + " given twice");
            seen[g] = true;
        }
    }

    /** The device's name as the driver reports it ({@code NVIDIA H200}). */
    public static String deviceName(int ordinal) {
        requireDevices(ordinal);
        CUdevice d = new CUdevice();
        Drv.check(JCudaDriver.cuDeviceGet(d, ordinal), "cuDeviceGet(" + ordinal + ")");
        byte[] name = new byte[256];
        Drv.check(JCudaDriver.cuDeviceGetName(name, name.length, d), "cuDeviceGetName");
        int len = 0;
        while (len < name.length && name[len] != 0) len++;
        return new String(name, 0, len, java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * The first line of why JCuda's driver class could not load, the same on every attempt: the first attempt fails
     * with the loader's error, a later one with "Could not initialize class jcuda.driver.JCudaDriver", whose cause
     * (an ExceptionInInitializerError, on JDK 17.0.x and later) carries the first error as
     * {@code Exception <class>: <message> [in thread "<name>"]}.
     */
    static String loadFailure(Throwable e) {
        String m = e.getMessage();
        if (e instanceof NoClassDefFoundError && e.getCause() instanceof ExceptionInInitializerError) {
            String first = e.getCause().getMessage();
            int colon = first == null ? -1 : first.indexOf(": ");
            if (first != null && first.startsWith("Exception ") && colon > 0) {
                m = first.substring(colon + 2);
            }
        }
        return firstLine(m).replaceFirst(" \\[in thread \"[^\"]*\"\\]$", "");
    }

    private static String firstLine(String s) {
        if (s == null) return "no detail";
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }
}
