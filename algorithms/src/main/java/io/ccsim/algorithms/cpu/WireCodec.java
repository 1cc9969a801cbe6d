package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.Protocol;

/**
 * Packs a slice into the words a protocol puts on the wire, and unpacks it checking the flags, as
 * NCCL's receivers poll them (src/device/prims_ll.h, prims_ll128.h; src/include/device.h
 * union ncclLLFifoLine):
 * <ul>
 *   <li>LL: 8-byte units of 4 B data + 4 B flag (NCCL stores two per 16-byte FIFO line): one long
 *       per unit, data in the low 32 bits, flag in the high 32 bits;</li>
 *   <li>LL128: 128-byte lines of 15 data words and one flag word (NCCL_LL128_DATAELEMS = 15 of
 *       NCCL_LL128_LINEELEMS = 16 eight-byte words): 16 longs per line, the flag in the last;</li>
 *   <li>Simple: the bytes as they are (8 per long); its flag is the connection's tail counter.</li>
 * </ul>
 * The flag of a slice is its connection step + 1 (the sender's tail before writing + 1), so a
 * receiver that reads a slot the sender has not (re)written sees an old flag. Element bits are
 * laid out little-endian. Reuses its scratch; one instance per executor run.
 */
final class WireCodec {
    private final Protocol proto;
    private final int elt;
    private byte[] bytes = new byte[64];

    WireCodec(Protocol proto, int eltBytes) {
        this.proto = proto;
        this.elt = eltBytes;
    }

    /** Longs needed on the wire for {@code cnt} elements. */
    int wireLongs(int cnt) {
        long b = (long) cnt * elt;
        switch (proto) {
            case LL: return (int) ((b + 3) / 4);
            case LL128: return (int) ((b + 119) / 120 * 16);
            default: return (int) ((b + 7) / 8);
        }
    }

    /** Encodes v[0..cnt) with {@code flag} into {@code out} (length ≥ wireLongs(cnt)). */
    void encode(long[] v, int cnt, int flag, long[] out) {
        int nb = cnt * elt;
        byte[] b = scratch(roundUp(nb));
        for (int i = 0; i < cnt; i++) {
            long x = v[i];
            for (int k = 0; k < elt; k++) b[i * elt + k] = (byte) (x >>> (8 * k));
        }
        int padded = roundUp(nb);
        for (int i = nb; i < padded; i++) b[i] = 0;
        switch (proto) {
            case LL:
                for (int l = 0; l < (nb + 3) / 4; l++) out[l] = ((long) flag << 32) | (getInt(b, 4 * l) & 0xFFFF_FFFFL);
                break;
            case LL128: {
                int lines = (nb + 119) / 120;
                for (int l = 0; l < lines; l++) {
                    for (int w = 0; w < 15; w++) out[16 * l + w] = getLong(b, 120 * l + 8 * w);
                    out[16 * l + 15] = flag;
                }
                break;
            }
            default:
                for (int w = 0; w < (nb + 7) / 8; w++) out[w] = getLong(b, 8 * w);
        }
    }

    /**
     * Decodes {@code cnt} elements into {@code dst}, checking every flag against {@code expectFlag}.
     * Returns −1 if all flags match, else the index of the first line whose flag differs.
     */
    int decode(long[] in, int cnt, int expectFlag, long[] dst) {
        int nb = cnt * elt;
        byte[] b = scratch(roundUp(nb));
        switch (proto) {
            case LL:
                for (int l = 0; l < (nb + 3) / 4; l++) {
                    if ((int) (in[l] >>> 32) != expectFlag) return l;
                    putInt(b, 4 * l, (int) in[l]);
                }
                break;
            case LL128: {
                int lines = (nb + 119) / 120;
                for (int l = 0; l < lines; l++) {
                    if (in[16 * l + 15] != expectFlag) return l;
                    for (int w = 0; w < 15; w++) putLong(b, 120 * l + 8 * w, in[16 * l + w]);
                }
                break;
            }
            default:
                for (int w = 0; w < (nb + 7) / 8; w++) putLong(b, 8 * w, in[w]);
        }
        for (int i = 0; i < cnt; i++) {
            long x = 0;
            for (int k = 0; k < elt; k++) x |= (b[i * elt + k] & 0xFFL) << (8 * k);
            dst[i] = x;
        }
        return -1;
    }

    private int roundUp(int nb) {
        int unit = proto == Protocol.LL128 ? 120 : 8;
        return (nb + unit - 1) / unit * unit + 8;
    }

    private byte[] scratch(int n) {
        if (bytes.length < n) bytes = new byte[Math.max(n, 2 * bytes.length)];
        return bytes;
    }

    private static int getInt(byte[] b, int p) {
        return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | (b[p + 3] & 0xFF) << 24;
    }

    private static long getLong(byte[] b, int p) {
        return (getInt(b, p) & 0xFFFF_FFFFL) | ((long) getInt(b, p + 4) << 32);
    }

    private static void putInt(byte[] b, int p, int v) {
        b[p] = (byte) v;
        b[p + 1] = (byte) (v >>> 8);
        b[p + 2] = (byte) (v >>> 16);
        b[p + 3] = (byte) (v >>> 24);
    }

    private static void putLong(byte[] b, int p, long v) {
        putInt(b, p, (int) v);
        putInt(b, p + 4, (int) (v >>> 32));
    }
}
