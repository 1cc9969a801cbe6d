package io.ccsim.algorithms.data;

import io.ccsim.algorithms.DataType;

import java.util.Arrays;

/**
 * A typed array of elements of one {@link DataType}, each held as its raw bit pattern in the low
 * {@code 8 × dtype.bytes()} bits of a {@code long} (upper bits always zero). Raw bits make every
 * type flow through the executor and the {@link Reduction}s without boxing or per-type copies of
 * the executor; {@link #getDouble}/{@link #setDouble} convert at the edges.
 *
 * <p>Mutable; not thread-safe.
 */
public final class ElementBuffer {
    private final DataType dtype;
    private final long[] bits;
    private final long mask;

    /** A zero-filled buffer of {@code length} elements (length ≥ 0). */
    public ElementBuffer(DataType dtype, int length) {
        if (dtype == null) throw new IllegalArgumentException("dtype must not be null");
        if (length < 0) throw new IllegalArgumentException("buffer length must be >= 0 elements, got " + length);
        this.dtype = dtype;
        this.bits = new long[length];
        this.mask = maskOf(dtype);
    }

    /** All-ones mask of the type's width (0xFF for 1-byte types ... −1L for 8-byte types). */
    public static long maskOf(DataType dtype) {
        return dtype.bytes() == 8 ? -1L : (1L << (8 * dtype.bytes())) - 1;
    }

    public DataType dtype() { return dtype; }

    /** Number of elements. */
    public int length() { return bits.length; }

    /** Raw bits of element {@code i}. */
    public long getBits(int i) { return bits[i]; }

    /** Stores raw bits (truncated to the type's width) at element {@code i}. */
    public void setBits(int i, long raw) { bits[i] = raw & mask; }

    /** The element as a double: exact for all types except int64/uint64 beyond 2^53 and float64 itself. */
    public double getDouble(int i) { return Elements.toDouble(dtype, bits[i]); }

    /** Stores {@code v} converted to the type (integers: truncation toward zero then wrap; floats: RNE). */
    public void setDouble(int i, double v) { bits[i] = Elements.fromDouble(dtype, v); }

    /** The element as a signed (or, for unsigned types, zero-extended) 64-bit integer; integer types only. */
    public long getLong(int i) { return Elements.toLong(dtype, bits[i]); }

    /** Stores the low bits of {@code v} (two's complement wrap, as a C cast does); integer types only. */
    public void setLong(int i, long v) { bits[i] = v & mask; }

    /** Copies {@code count} elements from {@code src[srcPos..]} to {@code this[dstPos..]}. */
    public void copyFrom(ElementBuffer src, int srcPos, int dstPos, int count) {
        if (src.dtype != dtype) {
            throw new IllegalArgumentException("dtype mismatch: copying " + src.dtype + " into " + dtype);
        }
        System.arraycopy(src.bits, srcPos, bits, dstPos, count);
    }

    /** True if both buffers hold the same dtype and bit-identical elements. */
    public boolean bitwiseEquals(ElementBuffer o) {
        return o != null && o.dtype == dtype && Arrays.equals(o.bits, bits);
    }

    /** A copy of the raw bits. */
    public long[] toRawArray() { return bits.clone(); }

    /** Direct access for executors in this module's packages: the backing array (do not resize). */
    long[] raw() { return bits; }

    @Override
    public String toString() {
        return "ElementBuffer[" + dtype + " × " + bits.length + "]";
    }
}
