package io.ccsim.gpu.cuda;

/** No usable CUDA here: no libcuda, no device, or fewer devices than asked for. Message starts with {@link Cuda#NO_DEVICE}. */
public final class CudaUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CudaUnavailableException(String message) {
        super(message);
    }
}
