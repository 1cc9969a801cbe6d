package io.ccsim.algorithms.ddp;

import io.ccsim.algorithms.DataType;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

/**
 * What one rank computes in a training step, without communication: its parameters in registration (forward) order
 * with their gradient sizes and ready times, and the forward and backward compute times. The input of
 * {@link DdpStep} and {@link FsdpStep}.
 *
 * @param gradients  the parameters in the order the model registers them (at least one)
 * @param forwardPs  forward compute time, picoseconds, {@code >= 0}
 * @param backwardPs backward compute time, picoseconds; at least the latest ready time
 * @param dtype      the gradients' element type (every size a multiple of its bytes)
 * @param worldSize  the rank count the profile was measured at, where known
 * @param measured   measured iteration times per bucket cap, where the profile comes with them (else empty)
 */
public record StepProfile(List<Gradient> gradients, long forwardPs, long backwardPs, DataType dtype,
                          OptionalInt worldSize, List<MeasuredRun> measured) {
    public StepProfile {
        gradients = List.copyOf(gradients);
        measured = List.copyOf(measured);
        if (gradients.isEmpty()) throw new IllegalArgumentException("a step profile needs at least one gradient");
        if (forwardPs < 0) throw new IllegalArgumentException("forward time must be >= 0, got " + forwardPs + " ps");
        long latest = 0;
        for (Gradient g : gradients) {
            latest = Math.max(latest, g.readyPs());
            if (g.bytes() % dtype.bytes() != 0) {
                throw new IllegalArgumentException("gradient " + g.name() + ": " + g.bytes() + " bytes is not a whole number of "
                        + dtype.longName() + " elements");
            }
        }
        if (backwardPs < latest) {
            throw new IllegalArgumentException("backward time " + backwardPs + " ps ends before the latest gradient is ready ("
                    + latest + " ps)");
        }
    }

    /** The total gradient bytes. */
    public long totalBytes() {
        long s = 0;
        for (Gradient g : gradients) s += g.bytes();
        return s;
    }

    /**
     * The parameter indices in the order their gradients become ready: by ready time, a tie going to the later
     * registered parameter (backward runs the model in reverse). This is the order DDP's reducer records in its first
     * iteration and rebuilds its buckets from.
     */
    public int[] readyOrder() {
        Integer[] idx = new Integer[gradients.size()];
        for (int i = 0; i < idx.length; i++) idx[i] = i;
        Arrays.sort(idx, (a, b) -> {
            int c = Long.compare(gradients.get(a).readyPs(), gradients.get(b).readyPs());
            return c != 0 ? c : Integer.compare(b, a);
        });
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) out[i] = idx[i];
        return out;
    }
}
