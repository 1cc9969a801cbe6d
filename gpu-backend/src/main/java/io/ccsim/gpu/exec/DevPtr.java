package io.ccsim.gpu.exec;

import jcuda.driver.CUdeviceptr;

/** A device pointer whose numeric address can be written into device-side tables (connection slots, flags). */
final class DevPtr extends CUdeviceptr {
    /** The device virtual address (unified across the GPUs of this process). */
    long address() {
        return getNativePointer();
    }
}
