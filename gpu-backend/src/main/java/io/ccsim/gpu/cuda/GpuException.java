package io.ccsim.gpu.cuda;

/** A CUDA driver call failed, or a GPU result was wrong; the message names the call, the error and the context. */
public final class GpuException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public GpuException(String message) {
        super(message);
    }
}
