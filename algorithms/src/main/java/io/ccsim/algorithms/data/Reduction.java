package io.ccsim.algorithms.data;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;

/**
 * One reduction operator on raw element bits (see {@link ElementBuffer}), as an NCCL kernel applies
 * it: {@code preOp} on every element read from a rank's input buffer, the binary {@code reduce}
 * when two values meet, {@code postOp} once on the final value.
 *
 * <p>Semantics follow NCCL (src/enqueue.cc {@code hostToDevRedOp}, src/device/reduce_kernel.h):
 * <ul>
 *   <li>integers wrap (two's complement, as CUDA integer arithmetic); max/min compare signed for
 *       int8/int32/int64 and unsigned for uint8/uint32/uint64;</li>
 *   <li>{@code avg} on integers is {@code ncclDevSumPostDiv}: wrapping sum, then one division by
 *       nRanks, truncating toward zero (signed types divide the sign-extended sum; unsigned types
 *       divide unsigned);</li>
 *   <li>{@code avg} on floating types is {@code ncclDevPreMulSum}: every input element is first
 *       multiplied by a scalar s held in the element type, s = T(float(1.0 / nRanks)) (NCCL
 *       computes {@code float(1.0/comm->nRanks)} and converts with __float2half,
 *       __float2bfloat16 or __nv_cvt_float_to_fp8(..., __NV_SATFINITE, ...)), then summed;</li>
 *   <li>float16 and bfloat16 operate in their own precision: each add/multiply is rounded to
 *       the type (sm_90's __hadd/__hmul, correctly rounded), emulated here as the exact double
 *       result rounded once to nearest-even;</li>
 *   <li>fp8 (e4m3, e5m2): NCCL converts both operands to half, applies __hadd/__hmul/__hmax/__hmin
 *       in half, and converts back with saturation: result = fp8_satfinite(half_rne(x op y)) —
 *       two roundings, both emulated exactly;</li>
 *   <li>float32/float64 use IEEE arithmetic (Java float/double are IEEE binary32/64, RNE);</li>
 *   <li>max/min of floating types follow CUDA fmaxf/fminf and __hmax/__hmin: if exactly one
 *       operand is NaN the other is returned; NaN only if both are NaN; and ccsim orders
 *       −0 below +0 (max(−0,+0)=+0, min(−0,+0)=−0) so that results are deterministic.</li>
 * </ul>
 * Instances are immutable and allocation-free per call.
 */
public abstract class Reduction {
    final DataType dtype;
    final ReduceOp op;
    final int nRanks;

    Reduction(DataType dtype, ReduceOp op, int nRanks) {
        this.dtype = dtype;
        this.op = op;
        this.nRanks = nRanks;
    }

    /**
     * The reduction {@code op} on {@code dtype} for a communicator of {@code nRanks} ranks
     * (nRanks matters only for avg).
     */
    public static Reduction of(DataType dtype, ReduceOp op, int nRanks) {
        if (dtype == null || op == null) throw new IllegalArgumentException("dtype and op must not be null");
        if (nRanks < 1) throw new IllegalArgumentException("nRanks must be >= 1, got " + nRanks);
        switch (dtype) {
            case FLOAT32: return new F32(op, nRanks);
            case FLOAT64: return new F64(op, nRanks);
            case FLOAT16: case BFLOAT16: return new Narrow(dtype, op, nRanks, Elements.miniFloat(dtype));
            case FP8_E4M3: case FP8_E5M2: return new Fp8(dtype, op, nRanks, Elements.miniFloat(dtype));
            default: return new Int(dtype, op, nRanks);
        }
    }

    public DataType dtype() { return dtype; }

    public ReduceOp op() { return op; }

    /** Applied to each element read from a rank's input before it is reduced or sent (avg on floats). */
    public abstract long preOp(long x);

    /** The binary operator; commutative. */
    public abstract long reduce(long a, long b);

    /** Applied once to a fully reduced value (avg on integers: division by nRanks). */
    public abstract long postOp(long x);

    /** True if {@link #preOp} is not the identity. */
    public abstract boolean hasPreOp();

    /** True if {@link #postOp} is not the identity. */
    public abstract boolean hasPostOp();

    @Override
    public String toString() { return op + "<" + dtype + ">/" + nRanks; }

    // ---------------------------------------------------------------------------------------------

    private static final class Int extends Reduction {
        private final long mask;
        private final boolean signed;
        private final int shift;

        Int(DataType dtype, ReduceOp op, int nRanks) {
            super(dtype, op, nRanks);
            this.mask = ElementBuffer.maskOf(dtype);
            this.signed = Elements.isSignedInteger(dtype);
            this.shift = 64 - 8 * dtype.bytes();
        }

        private long ext(long x) { return signed ? (x << shift) >> shift : x; }

        private int cmp(long a, long b) {
            return signed ? Long.compare(ext(a), ext(b)) : Long.compareUnsigned(a, b);
        }

        @Override public long preOp(long x) { return x; }

        @Override
        public long reduce(long a, long b) {
            switch (op) {
                case SUM: case AVG: return (a + b) & mask;
                case PROD: return (a * b) & mask;
                case MAX: return cmp(a, b) >= 0 ? a : b;
                case MIN: return cmp(a, b) <= 0 ? a : b;
                default: throw new AssertionError(op);
            }
        }

        @Override
        public long postOp(long x) {
            if (op != ReduceOp.AVG) return x;
            return (signed ? ext(x) / nRanks : Long.divideUnsigned(x, nRanks)) & mask;
        }

        @Override public boolean hasPreOp() { return false; }

        @Override public boolean hasPostOp() { return op == ReduceOp.AVG; }
    }

    /** fmax/fmin on doubles with the NaN and signed-zero rules of the class comment; returns a or b. */
    static boolean pickFirstForMax(double a, double b) {
        if (Double.isNaN(b)) return true;
        if (Double.isNaN(a)) return false;
        if (a == b) return Double.doubleToRawLongBits(a) >= 0 || Double.doubleToRawLongBits(b) < 0;
        return a > b;
    }

    static boolean pickFirstForMin(double a, double b) {
        if (Double.isNaN(b)) return true;
        if (Double.isNaN(a)) return false;
        if (a == b) return Double.doubleToRawLongBits(a) < 0 || Double.doubleToRawLongBits(b) >= 0;
        return a < b;
    }

    private static final class F32 extends Reduction {
        private final float scalar;

        F32(ReduceOp op, int nRanks) {
            super(DataType.FLOAT32, op, nRanks);
            this.scalar = (float) (1.0 / nRanks);
        }

        private static float f(long x) { return Float.intBitsToFloat((int) x); }

        private static long b(float v) { return Float.floatToRawIntBits(v) & 0xFFFF_FFFFL; }

        @Override public long preOp(long x) { return op == ReduceOp.AVG ? b(f(x) * scalar) : x; }

        @Override
        public long reduce(long a, long b) {
            switch (op) {
                case SUM: case AVG: return b(f(a) + f(b));
                case PROD: return b(f(a) * f(b));
                case MAX: return pickFirstForMax(f(a), f(b)) ? a : b;
                case MIN: return pickFirstForMin(f(a), f(b)) ? a : b;
                default: throw new AssertionError(op);
            }
        }

        @Override public long postOp(long x) { return x; }

        @Override public boolean hasPreOp() { return op == ReduceOp.AVG; }

        @Override public boolean hasPostOp() { return false; }
    }

    private static final class F64 extends Reduction {
        private final double scalar;

        F64(ReduceOp op, int nRanks) {
            super(DataType.FLOAT64, op, nRanks);
            this.scalar = 1.0 / nRanks;
        }

        private static double f(long x) { return Double.longBitsToDouble(x); }

        private static long b(double v) { return Double.doubleToRawLongBits(v); }

        @Override public long preOp(long x) { return op == ReduceOp.AVG ? b(f(x) * scalar) : x; }

        @Override
        public long reduce(long a, long b) {
            switch (op) {
                case SUM: case AVG: return b(f(a) + f(b));
                case PROD: return b(f(a) * f(b));
                case MAX: return pickFirstForMax(f(a), f(b)) ? a : b;
                case MIN: return pickFirstForMin(f(a), f(b)) ? a : b;
                default: throw new AssertionError(op);
            }
        }

        @Override public long postOp(long x) { return x; }

        @Override public boolean hasPreOp() { return op == ReduceOp.AVG; }

        @Override public boolean hasPostOp() { return false; }
    }

    /**
     * float16 / bfloat16: the exact double result of one add or multiply of two values of the type
     * (exact: binary16 operands span at most 2^−24..2^16 so sums need ≤ 41 bits; bfloat16 sums either
     * fit in 53 bits or differ so much in magnitude that the double result rounds to the same
     * bfloat16), rounded once to nearest-even.
     */
    private static final class Narrow extends Reduction {
        private final MiniFloat fmt;
        private final double scalar;

        Narrow(DataType dtype, ReduceOp op, int nRanks, MiniFloat fmt) {
            super(dtype, op, nRanks);
            this.fmt = fmt;
            this.scalar = fmt.toDouble(fmt.fromDouble((float) (1.0 / nRanks)));
        }

        private double f(long x) { return fmt.toDouble((int) x); }

        @Override public long preOp(long x) { return op == ReduceOp.AVG ? fmt.fromDouble(f(x) * scalar) : x; }

        @Override
        public long reduce(long a, long b) {
            switch (op) {
                case SUM: case AVG: return fmt.fromDouble(f(a) + f(b));
                case PROD: return fmt.fromDouble(f(a) * f(b));
                case MAX: return pickFirstForMax(f(a), f(b)) ? a : b;
                case MIN: return pickFirstForMin(f(a), f(b)) ? a : b;
                default: throw new AssertionError(op);
            }
        }

        @Override public long postOp(long x) { return x; }

        @Override public boolean hasPreOp() { return op == ReduceOp.AVG; }

        @Override public boolean hasPostOp() { return false; }
    }

    /** fp8: operate in half precision, convert back with saturation (reduce_kernel.h SPECIALIZE_REDUCE fp8). */
    private static final class Fp8 extends Reduction {
        private final MiniFloat fmt;
        private final double scalar;

        Fp8(DataType dtype, ReduceOp op, int nRanks, MiniFloat fmt) {
            super(dtype, op, nRanks);
            this.fmt = fmt;
            // enqueue.cc: f8 = __nv_cvt_float_to_fp8(float(1.0 / comm->nRanks), __NV_SATFINITE, ...);
            // the kernel widens that fp8 scalar to half (exact).
            this.scalar = fmt.toDouble(fmt.fromDouble((float) (1.0 / nRanks)));
        }

        private double f(long x) { return fmt.toDouble((int) x); }

        /** fp8_satfinite(half_rne(v)). */
        private long viaHalf(double v) {
            return fmt.fromDouble(MiniFloat.FLOAT16.toDouble(MiniFloat.FLOAT16.fromDouble(v)));
        }

        @Override public long preOp(long x) { return op == ReduceOp.AVG ? viaHalf(f(x) * scalar) : x; }

        @Override
        public long reduce(long a, long b) {
            switch (op) {
                case SUM: case AVG: return viaHalf(f(a) + f(b));
                case PROD: return viaHalf(f(a) * f(b));
                case MAX: return pickFirstForMax(f(a), f(b)) ? a : b;
                case MIN: return pickFirstForMin(f(a), f(b)) ? a : b;
                default: throw new AssertionError(op);
            }
        }

        @Override public long postOp(long x) { return x; }

        @Override public boolean hasPreOp() { return op == ReduceOp.AVG; }

        @Override public boolean hasPostOp() { return false; }
    }
}
