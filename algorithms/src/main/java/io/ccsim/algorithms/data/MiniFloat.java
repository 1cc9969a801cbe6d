package io.ccsim.algorithms.data;

/**
 * Narrow binary floating-point formats held as raw bits in the low bits of an {@code int}:
 * IEEE binary16 ({@link #FLOAT16}), bfloat16 ({@link #BFLOAT16}) and the OCP 8-bit formats
 * ({@link #FP8_E4M3}, {@link #FP8_E5M2}).
 *
 * <p>Conversions are written here from the format definitions, not copied from CUDA:
 * <ul>
 *   <li>decoding ({@link #toDouble}) is exact (a double holds every value of these formats);</li>
 *   <li>encoding ({@link #fromDouble}) rounds to nearest, ties to even, once, from the exact
 *       double argument. IEEE-like formats (float16, bfloat16, e5m2 without saturation) overflow to
 *       infinity; the fp8 formats are encoded with CUDA's {@code __NV_SATFINITE} saturation as NCCL
 *       uses it (cuda_fp8.hpp {@code __nv_fp8_e4m3(__half)} constructors; NCCL
 *       src/device/reduce_kernel.h converts fp8 results back this way): every finite or infinite
 *       value whose rounded magnitude exceeds the largest finite value becomes ±max (e4m3 448,
 *       e5m2 57344), and NaN stays NaN.</li>
 *   <li>NaN is encoded as the canonical pattern CUDA produces: 0x7FFF for float16 and bfloat16
 *       (cvt.rn.f16.f32 / __float2bfloat16), S.1111.111 = 0x7F for e4m3 (OCP: e4m3 has no infinity
 *       and a single NaN mantissa), 0x7F for e5m2.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public enum MiniFloat {
    /** IEEE 754 binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits; max 65504. */
    FLOAT16(5, 10, 15, true, false, 0x7FFF),
    /** bfloat16: 1 sign, 8 exponent (bias 127), 7 mantissa bits; max ≈ 3.39e38. */
    BFLOAT16(8, 7, 127, true, false, 0x7FFF),
    /** OCP FP8 E4M3 (fn): 4 exponent (bias 7), 3 mantissa; no infinity; NaN = S.1111.111; max 448. */
    FP8_E4M3(4, 3, 7, false, true, 0x7F),
    /** OCP FP8 E5M2: 5 exponent (bias 15), 2 mantissa; IEEE-like with infinity; max 57344. */
    FP8_E5M2(5, 2, 15, true, true, 0x7F);

    private final int expBits;
    private final int manBits;
    private final int bias;
    private final boolean hasInf;
    private final boolean saturating;
    private final int nanBits;
    private final int signBit;
    private final int minExp;      // exponent of the smallest normal
    private final double maxFinite;

    MiniFloat(int expBits, int manBits, int bias, boolean hasInf, boolean saturating, int nanBits) {
        this.expBits = expBits;
        this.manBits = manBits;
        this.bias = bias;
        this.hasInf = hasInf;
        this.saturating = saturating;
        this.nanBits = nanBits;
        this.signBit = 1 << (expBits + manBits);
        this.minExp = 1 - bias;
        int maxField = (1 << expBits) - 1;
        if (hasInf) {
            // top exponent field is inf/NaN: max = (2 - 2^-m) * 2^(maxField-1-bias)
            this.maxFinite = (2.0 - Math.scalb(1.0, -manBits)) * Math.scalb(1.0, maxField - 1 - bias);
        } else {
            // e4m3: top field is normal except mantissa all ones (NaN): max = (2 - 2^(1-m)) * 2^(maxField-bias)
            this.maxFinite = (2.0 - Math.scalb(1.0, 1 - manBits)) * Math.scalb(1.0, maxField - bias);
        }
    }

    /** Total bits of the format (16 or 8). */
    public int bits() { return 1 + expBits + manBits; }

    /** Mantissa (fraction) bits: float16 10, bfloat16 7, e4m3 3, e5m2 2. */
    public int mantissaBits() { return manBits; }

    /** Largest finite value: float16 65504, bfloat16 (2−2^−7)·2^127, e4m3 448, e5m2 57344. */
    public double maxFinite() { return maxFinite; }

    /** Unit roundoff u = 2^−(mantissaBits+1): the relative error bound of one rounding to nearest. */
    public double unitRoundoff() { return Math.scalb(1.0, -(manBits + 1)); }

    /** Smallest positive subnormal, 2^(1 − bias − mantissaBits). */
    public double minSubnormal() { return Math.scalb(1.0, minExp - manBits); }

    /** True if encoding saturates to ±max instead of overflowing to infinity (the fp8 formats, satfinite). */
    public boolean saturating() { return saturating; }

    /** Exact value of the raw bits (only the low {@link #bits()} bits are read). */
    public double toDouble(int raw) {
        int b = raw & ((1 << bits()) - 1);
        boolean neg = (b & signBit) != 0;
        int field = (b >>> manBits) & ((1 << expBits) - 1);
        int man = b & ((1 << manBits) - 1);
        int maxField = (1 << expBits) - 1;
        double v;
        if (hasInf && field == maxField) {
            v = man == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (!hasInf && field == maxField && man == (1 << manBits) - 1) {
            v = Double.NaN;
        } else if (field == 0) {
            v = Math.scalb((double) man, minExp - manBits);
        } else {
            v = Math.scalb((double) ((1 << manBits) | man), field - bias - manBits);
        }
        return neg ? -v : v;
    }

    /** Encodes {@code x} rounding to nearest, ties to even (see the class comment for overflow and NaN). */
    public int fromDouble(double x) {
        if (Double.isNaN(x)) return nanBits;
        int sign = (Double.doubleToRawLongBits(x) < 0) ? signBit : 0;
        double a = Math.abs(x);
        if (a == 0.0) return sign;
        double r;
        if (Double.isInfinite(a)) {
            r = a;
        } else {
            int e = Math.max(Math.getExponent(a), minExp);
            double ulp = Math.scalb(1.0, e - manBits);
            r = Math.rint(a / ulp) * ulp;          // exact scaling by a power of two; rint = ties-to-even
        }
        if (r > maxFinite) {
            if (saturating) return sign | encodeFinite(maxFinite);
            return sign | (((1 << expBits) - 1) << manBits); // infinity (only formats with inf get here)
        }
        return sign | encodeFinite(r);
    }

    /** Bits of a non-negative finite value already representable in this format. */
    private int encodeFinite(double r) {
        if (r == 0.0) return 0;
        int e = Math.getExponent(r);
        if (e < minExp) {
            return (int) (r / Math.scalb(1.0, minExp - manBits));
        }
        int man = (int) (r / Math.scalb(1.0, e - manBits)) - (1 << manBits);
        return ((e + bias) << manBits) | man;
    }

    /** True if the raw bits encode NaN. */
    public boolean isNaN(int raw) { return Double.isNaN(toDouble(raw)); }
}
