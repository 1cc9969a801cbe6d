package io.ccsim.gpu.cuda;

import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * Return-code checks for JCuda driver calls, for the gpu-backend's packages (JCuda's exceptions stay disabled so
 * that every failure names the call that failed).
 */
public final class Drv {
    private Drv() { }

    /**
     * Checks one driver call's return code.
     *
     * @param result the call's {@code CUresult}
     * @param what   the call and its context, for the message ("cuMemAlloc(256 B for steps)")
     * @throws GpuException naming {@code what} and the error unless {@code result} is CUDA_SUCCESS
     */
    public static void check(int result, String what) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw new GpuException(what + " failed: " + name(result));
        }
    }

    /** The error's name and, where the driver knows it, its description. */
    static String name(int result) {
        String n = CUresult.stringFor(result);
        try {
            String[] s = new String[1];
            if (JCudaDriver.cuGetErrorString(result, s) == CUresult.CUDA_SUCCESS && s[0] != null) {
                return n + " (" + s[0] + ")";
            }
        } catch (UnsatisfiedLinkError e) {
            // the native library is missing: the name alone must do
        }
        return n;
    }
}
