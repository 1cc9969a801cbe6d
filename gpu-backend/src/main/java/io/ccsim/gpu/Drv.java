package io.ccsim.gpu;

import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/** Return-code checks for JCuda driver calls (JCuda's exceptions stay disabled: we name the call). */
final class Drv {
    private Drv() { }

    /** Throws a {@link GpuException} naming {@code what} and the error unless {@code result} is CUDA_SUCCESS. */
    static void check(int result, String what) {
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
