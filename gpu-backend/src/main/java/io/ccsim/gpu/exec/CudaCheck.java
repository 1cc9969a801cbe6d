package io.ccsim.gpu.exec;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.cpu.CpuExecutor;
import io.ccsim.algorithms.data.ElementBuffer;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;

import java.util.SplittableRandom;

/**
 * Checks the GPU against the CPU reference: the same plan on the same fresh random inputs, outputs
 * pre-filled with the same random poison on both sides (so an element the GPU fails to write, or writes
 * where it should not, differs), compared bit for bit.
 */
public final class CudaCheck {
    private CudaCheck() { }

    /**
     * Outcome of one check.
     *
     * @param plan       what ran ({@link Plan#toString()})
     * @param ok         every element of every rank's output matched bit for bit
     * @param mismatches number of mismatching elements over all ranks
     * @param elements   elements compared
     * @param firstMismatch empty when ok, else "rank R offset I: expected E, got G" (raw bits and values)
     */
    public record Result(String plan, boolean ok, long mismatches, long elements, String firstMismatch) { }

    /** Random inputs for {@code call}: integers over their full range, floats of both signs in [0.25, 4). */
    static ElementBuffer[] randomBuffers(CollectiveCall call, long count, SplittableRandom rnd) {
        ElementBuffer[] b = new ElementBuffer[call.nRanks()];
        DataType t = call.dtype();
        for (int r = 0; r < b.length; r++) {
            b[r] = new ElementBuffer(t, Math.toIntExact(count));
            for (int i = 0; i < b[r].length(); i++) {
                if (t.isFloating()) {
                    double v = 0.25 + rnd.nextDouble() * 3.75;
                    b[r].setDouble(i, rnd.nextBoolean() ? v : -v);
                } else {
                    b[r].setBits(i, rnd.nextLong());
                }
            }
        }
        return b;
    }

    /** Runs {@code plan} on the GPUs of {@code ex} and on the CPU with inputs drawn from {@code seed}. */
    public static Result check(CudaExecutor ex, Plan plan, long seed) {
        CollectiveCall call = plan.call();
        SplittableRandom rnd = new SplittableRandom(seed);
        ElementBuffer[] inputs = randomBuffers(call, call.inputCount(), rnd);
        ElementBuffer[] poison = randomBuffers(call, call.outputCount(), rnd);
        ElementBuffer[] cpuOut = new ElementBuffer[call.nRanks()];
        for (int r = 0; r < cpuOut.length; r++) {
            cpuOut[r] = new ElementBuffer(call.dtype(), poison[r].length());
            cpuOut[r].copyFrom(poison[r], 0, 0, poison[r].length());
        }
        new CpuExecutor().run(plan, inputs, cpuOut);
        ElementBuffer[] gpuOut;
        try (PreparedProgram p = ex.prepare(plan)) {
            p.upload(inputs);
            p.uploadOutputs(poison);
            p.run();
            gpuOut = p.download();
        }
        return compare(plan.toString(), cpuOut, gpuOut);
    }

    /** Bitwise comparison; the first mismatch is described with rank, offset and both values. */
    static Result compare(String what, ElementBuffer[] expected, ElementBuffer[] actual) {
        long bad = 0, total = 0;
        String first = "";
        for (int r = 0; r < expected.length; r++) {
            for (int i = 0; i < expected[r].length(); i++) {
                total++;
                long e = expected[r].getBits(i), a = actual[r].getBits(i);
                if (e != a) {
                    if (bad == 0) {
                        first = "rank " + r + " offset " + i + ": expected 0x" + Long.toHexString(e) + " ("
                                + expected[r].getDouble(i) + "), got 0x" + Long.toHexString(a) + " (" + actual[r].getDouble(i) + ")";
                    }
                    bad++;
                }
            }
        }
        return new Result(what, bad == 0, bad, total, first);
    }
}
