package io.ccsim.algorithms.ddp;

import java.util.Arrays;

/**
 * One DDP gradient bucket: the parameters it holds, in the order their gradients become ready.
 *
 * @param index   the bucket's position: buckets are all-reduced in this order
 * @param params  parameter indices (into {@link StepProfile#gradients()}), in ready order
 * @param bytes   the bucket's size, the sum of its gradients' bytes
 * @param readyPs when its last gradient is ready in a backward pass without communication, ps from backward's start
 */
public record Bucket(int index, int[] params, long bytes, long readyPs) {
    public Bucket {
        params = params.clone();
    }

    @Override
    public int[] params() {
        return params.clone();
    }

    /** How many tensors the bucket holds. */
    public int tensors() {
        return params.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bucket b && b.index == index && b.bytes == bytes && b.readyPs == readyPs && Arrays.equals(b.params, params);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(params) + Long.hashCode(bytes) + index;
    }

    @Override
    public String toString() {
        return "Bucket[" + index + ": " + params.length + " tensors, " + bytes + " B, ready " + readyPs + " ps]";
    }
}
