package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.data.ElementBuffer;
import io.ccsim.algorithms.data.Elements;
import io.ccsim.algorithms.data.MiniFloat;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.plan.UnsupportedAlgorithmException;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;

/**
 * Test inputs and an independent reference for each collective: integers exactly, floating types
 * within an error bound derived from the type's unit roundoff and n.
 */
final class CollectiveCheck {
    private CollectiveCheck() { }

    /** Deterministic inputs for the call; values chosen per reduction so that floating results stay finite. */
    static ElementBuffer[] inputs(CollectiveCall call, long seed) {
        int n = call.nRanks();
        DataType dt = call.dtype();
        int len = Math.toIntExact(call.inputCount());
        ElementBuffer[] in = new ElementBuffer[n];
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int r = 0; r < n; r++) {
            in[r] = new ElementBuffer(dt, len);
            for (int i = 0; i < len; i++) {
                if (!dt.isFloating()) {
                    in[r].setBits(i, rnd.nextLong());
                } else if (call.redop() == ReduceOp.PROD && call.isReduction()) {
                    // ±2^e with e = ((r + i) mod 3) − 1: any product over n ranks stays within [2^−n/3.., ]
                    int e = ((r + i) % 3) - 1;
                    double v = Math.scalb(1.0, e) * (rnd.nextBoolean() ? 1 : -1);
                    in[r].setDouble(i, v);
                } else {
                    double range = range(dt);
                    in[r].setDouble(i, (rnd.nextDouble() * 2 - 1) * range);
                }
            }
        }
        return in;
    }

    private static double range(DataType dt) {
        switch (dt) {
            case FP8_E4M3: case FP8_E5M2: return 4;
            case FLOAT16: case BFLOAT16: return 100;
            default: return 1000;
        }
    }

    /** Unit roundoff δ of one reduction step: fp8 rounds to half, then to fp8. */
    static double delta(DataType dt) {
        switch (dt) {
            case FLOAT32: return Math.scalb(1.0, -24);
            case FLOAT64: return Math.scalb(1.0, -53);
            case FP8_E4M3: case FP8_E5M2: {
                double u = Elements.miniFloat(dt).unitRoundoff();
                double h = MiniFloat.FLOAT16.unitRoundoff();
                return u + h + u * h;
            }
            default: return Elements.miniFloat(dt).unitRoundoff();
        }
    }

    /** Absolute error of one rounding in the subnormal range: half the smallest subnormal (fp8 also of half). */
    static double eta(DataType dt) {
        switch (dt) {
            case FLOAT32: return Float.MIN_VALUE / 2.0;
            case FLOAT64: return Double.MIN_VALUE;
            default: return Elements.miniFloat(dt).minSubnormal() / 2 + MiniFloat.FLOAT16.minSubnormal() / 2;
        }
    }

    /** The avg scalar s = T(float(1/n)) as NCCL computes it. */
    static double avgScalar(DataType dt, int n) {
        float f = (float) (1.0 / n);
        switch (dt) {
            case FLOAT32: return f;
            case FLOAT64: return 1.0 / n;
            default: {
                MiniFloat m = Elements.miniFloat(dt);
                return m.toDouble(m.fromDouble(f));
            }
        }
    }

    /** (1+δ)^k − 1, accurately for tiny δ. */
    static double gamma(double d, int k) {
        return Math.expm1(k * Math.log1p(d));
    }

    /** Reduces values x[0..n) of element i with an independent reference; checks {@code got}. Returns an error or null. */
    static String checkReduced(DataType dt, ReduceOp op, long[] x, long got) {
        int n = x.length;
        if (!dt.isFloating()) {
            long mask = ElementBuffer.maskOf(dt);
            boolean signed = Elements.isSignedInteger(dt);
            long acc = Elements.toLong(dt, x[0]);
            for (int k = 1; k < n; k++) {
                long v = Elements.toLong(dt, x[k]);
                switch (op) {
                    case SUM: case AVG: acc = acc + v; break;
                    case PROD: acc = acc * v; break;
                    case MAX: acc = (signed ? Long.compare(v, acc) : Long.compareUnsigned(v, acc)) > 0 ? v : acc; break;
                    case MIN: acc = (signed ? Long.compare(v, acc) : Long.compareUnsigned(v, acc)) < 0 ? v : acc; break;
                    default: throw new AssertionError();
                }
            }
            if (op == ReduceOp.AVG) {
                long wrapped = Elements.toLong(dt, acc & mask);
                acc = signed ? wrapped / n : Long.divideUnsigned(wrapped, n);
            }
            long want = acc & mask;
            return want == got ? null : "want 0x" + Long.toHexString(want) + " got 0x" + Long.toHexString(got);
        }
        double[] v = new double[n];
        for (int k = 0; k < n; k++) v[k] = Elements.toDouble(dt, x[k]);
        double g = Elements.toDouble(dt, got);
        if (op == ReduceOp.MAX || op == ReduceOp.MIN) {
            double want = v[0];
            for (int k = 1; k < n; k++) want = op == ReduceOp.MAX ? Math.max(want, v[k]) : Math.min(want, v[k]);
            return want == g ? null : "want " + want + " got " + g;
        }
        BigDecimal exact = op == ReduceOp.PROD ? BigDecimal.ONE : BigDecimal.ZERO;
        double abs = 0;
        for (double d : v) {
            exact = op == ReduceOp.PROD ? exact.multiply(new BigDecimal(d)) : exact.add(new BigDecimal(d));
            abs += Math.abs(d);
        }
        double d = delta(dt);
        double eta = eta(dt);
        double bound;
        double want;
        if (op == ReduceOp.SUM) {
            // recursive summation in any order: |err| ≤ ((1+δ)^(n−1) − 1)·Σ|x_i| + (n−1)·η
            want = exact.doubleValue();
            bound = gamma(d, n - 1) * abs + (n - 1) * eta;
        } else if (op == ReduceOp.PROD) {
            // |err| ≤ ((1+δ)^(n−1) − 1)·|Π x_i|
            want = exact.doubleValue();
            bound = gamma(d, n - 1) * Math.abs(want);
        } else {
            // avg = Σ round(s·x_i) with s = T(float(1/n)):
            // |err| ≤ |s − 1/n|·Σ|x_i| + ((1+δ)^n − 1)·s·Σ|x_i| + n·η
            want = exact.divide(BigDecimal.valueOf(n), MathContext.DECIMAL128).doubleValue();
            double s = avgScalar(dt, n);
            bound = Math.abs(s - 1.0 / n) * abs + gamma(d, n) * s * abs + n * eta;
        }
        // the reference itself is rounded once to double (≤ ulp/2); the bound is evaluated in double
        bound = bound * (1 + 1e-12) + Math.ulp(want);
        double err = Math.abs(g - want);
        return err <= bound ? null : "want " + want + " got " + g + " |err| " + err + " > bound " + bound;
    }

    /** Checks all outputs of {@code call} against the inputs; throws AssertionError naming the first mismatch. */
    /**
     * Plans {@code call} with {@code opts}, runs it on inputs from {@code seed} and checks the outputs against the
     * reference; or, with a non-null {@code refusal}, checks that the planner refuses with a message containing it.
     */
    static void planRunVerify(Planners planners, CpuExecutor exec, CollectiveCall call, PlanOptions opts, long seed,
                              String refusal) {
        if (refusal != null) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> planners.plan(call, opts))
                    .isInstanceOf(UnsupportedAlgorithmException.class).hasMessageContaining(refusal);
            return;
        }
        ElementBuffer[] in = inputs(call, seed);
        verify(call, in, exec.run(planners.plan(call, opts), in));
    }

    static void verify(CollectiveCall call, ElementBuffer[] in, ElementBuffer[] out) {
        int n = call.nRanks();
        long count = call.count();
        DataType dt = call.dtype();
        long[] x = new long[n];
        switch (call.op()) {
            case ALL_REDUCE:
                for (int i = 0; i < count; i++) {
                    for (int r = 0; r < n; r++) x[r] = in[r].getBits(i);
                    String e = checkReduced(dt, call.redop(), x, out[0].getBits(i));
                    if (e != null) throw new AssertionError(call + " element " + i + ": " + e);
                }
                for (int r = 1; r < n; r++) {
                    if (!out[r].bitwiseEquals(out[0])) {
                        throw new AssertionError(call + ": rank " + r + "'s result differs bitwise from rank 0's");
                    }
                }
                break;
            case REDUCE:
                for (int i = 0; i < count; i++) {
                    for (int r = 0; r < n; r++) x[r] = in[r].getBits(i);
                    String e = checkReduced(dt, call.redop(), x, out[call.root()].getBits(i));
                    if (e != null) throw new AssertionError(call + " root element " + i + ": " + e);
                }
                break;
            case REDUCE_SCATTER:
                for (int r = 0; r < n; r++)
                    for (int i = 0; i < count; i++) {
                        for (int q = 0; q < n; q++) x[q] = in[q].getBits((int) (r * count + i));
                        String e = checkReduced(dt, call.redop(), x, out[r].getBits(i));
                        if (e != null) throw new AssertionError(call + " rank " + r + " element " + i + ": " + e);
                    }
                break;
            case ALL_GATHER:
                for (int r = 0; r < n; r++)
                    for (int p = 0; p < n; p++)
                        for (int i = 0; i < count; i++) {
                            same(call, r, out[r].getBits((int) (p * count + i)), in[p].getBits(i), p * count + i);
                        }
                break;
            case BROADCAST:
                for (int r = 0; r < n; r++)
                    for (int i = 0; i < count; i++) same(call, r, out[r].getBits(i), in[call.root()].getBits(i), i);
                break;
            case ALL_TO_ALL:
                for (int r = 0; r < n; r++)
                    for (int p = 0; p < n; p++)
                        for (int i = 0; i < count; i++) {
                            same(call, r, out[r].getBits((int) (p * count + i)), in[p].getBits((int) (r * count + i)),
                                    p * count + i);
                        }
                break;
            case SEND_RECV:
                for (int r = 0; r < n; r++)
                    for (int i = 0; i < count; i++) same(call, r, out[r].getBits(i), in[(r + n - 1) % n].getBits(i), i);
                break;
            default:
                throw new AssertionError(call.op());
        }
    }

    private static void same(CollectiveCall call, int rank, long got, long want, long at) {
        if (got != want) {
            throw new AssertionError(call + ": rank " + rank + " output element " + at + " is 0x" + Long.toHexString(got)
                    + ", want 0x" + Long.toHexString(want));
        }
    }

    static boolean isCopyOp(CollectiveOp op) {
        return op == CollectiveOp.ALL_GATHER || op == CollectiveOp.BROADCAST || op == CollectiveOp.ALL_TO_ALL
                || op == CollectiveOp.SEND_RECV;
    }
}
