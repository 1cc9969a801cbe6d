package io.ccsim.algorithms.data;

import io.ccsim.algorithms.DataType;

/**
 * Conversions between raw element bits (see {@link ElementBuffer}) and Java numbers for every
 * {@link DataType}. Stateless.
 */
public final class Elements {
    private Elements() { }

    /** The narrow float format of {@code dtype}, or {@code null} for int, float32 and float64 types. */
    public static MiniFloat miniFloat(DataType dtype) {
        switch (dtype) {
            case FLOAT16: return MiniFloat.FLOAT16;
            case BFLOAT16: return MiniFloat.BFLOAT16;
            case FP8_E4M3: return MiniFloat.FP8_E4M3;
            case FP8_E5M2: return MiniFloat.FP8_E5M2;
            default: return null;
        }
    }

    /** True for int8, int32, int64 (two's complement); false for unsigned and floating types. */
    public static boolean isSignedInteger(DataType dtype) {
        return dtype == DataType.INT8 || dtype == DataType.INT32 || dtype == DataType.INT64;
    }

    /** Integer value of raw bits: sign-extended for signed types, zero-extended for unsigned ones. */
    public static long toLong(DataType dtype, long raw) {
        if (dtype.isFloating()) throw new IllegalArgumentException(dtype + " is not an integer type");
        int shift = 64 - 8 * dtype.bytes();
        return isSignedInteger(dtype) ? (raw << shift) >> shift : raw;
    }

    /** Value of raw bits as a double (uint64 above 2^63 is read unsigned). */
    public static double toDouble(DataType dtype, long raw) {
        switch (dtype) {
            case FLOAT32: return Float.intBitsToFloat((int) raw);
            case FLOAT64: return Double.longBitsToDouble(raw);
            case FLOAT16: case BFLOAT16: case FP8_E4M3: case FP8_E5M2:
                return miniFloat(dtype).toDouble((int) raw);
            case UINT64:
                return raw >= 0 ? (double) raw : (double) (raw >>> 1) * 2.0 + (raw & 1);
            default:
                return (double) toLong(dtype, raw);
        }
    }

    /** Raw bits of {@code v} in {@code dtype}: floats round to nearest even; integers truncate then wrap. */
    public static long fromDouble(DataType dtype, double v) {
        long mask = ElementBuffer.maskOf(dtype);
        switch (dtype) {
            case FLOAT32: return Float.floatToRawIntBits((float) v) & mask;
            case FLOAT64: return Double.doubleToRawLongBits(v);
            case FLOAT16: case BFLOAT16: case FP8_E4M3: case FP8_E5M2:
                return miniFloat(dtype).fromDouble(v);
            default:
                return ((long) v) & mask;
        }
    }
}
