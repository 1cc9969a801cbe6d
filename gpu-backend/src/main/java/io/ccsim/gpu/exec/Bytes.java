package io.ccsim.gpu.exec;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.data.ElementBuffer;

/** Little-endian conversion between {@link ElementBuffer}s (raw element bits) and device bytes. */
final class Bytes {
    private Bytes() { }

    static byte[] toBytes(ElementBuffer b, DataType dtype, long expectBytes, String what) {
        if (b.dtype() != dtype) throw new IllegalArgumentException(what + " is " + b.dtype() + ", the program runs " + dtype);
        int eb = dtype.bytes();
        if ((long) b.length() * eb != expectBytes) {
            throw new IllegalArgumentException(what + " has " + b.length() + " elements; the plan needs " + expectBytes / eb);
        }
        byte[] out = new byte[b.length() * eb];
        for (int i = 0; i < b.length(); i++) {
            long v = b.getBits(i);
            for (int k = 0; k < eb; k++) out[i * eb + k] = (byte) (v >>> (8 * k));
        }
        return out;
    }

    static ElementBuffer fromBytes(byte[] bytes, DataType dtype) {
        int eb = dtype.bytes();
        ElementBuffer b = new ElementBuffer(dtype, bytes.length / eb);
        for (int i = 0; i < b.length(); i++) {
            long v = 0;
            for (int k = 0; k < eb; k++) v |= (bytes[i * eb + k] & 0xFFL) << (8 * k);
            b.setBits(i, v);
        }
        return b;
    }
}
