package io.ccsim.algorithms;

/**
 * NCCL's three wire protocols (src/include/device.h, src/device/prims_*.h), with the facts ccsim
 * models. NCCL_STEPS = 8 slots per connection for all three.
 *
 * <ul>
 *   <li>LL: 8-byte lines of 4 B data + 4 B flag, stored as 16-byte FIFO lines holding two;
 *       50 % data efficiency; default buffer 512 KiB (DEFAULT_LL_BUFFSIZE =
 *       NCCL_LL_LINES_PER_THREAD(8) × NCCL_LL_MAX_NTHREADS(512) × NCCL_STEPS(8) × 16 B).</li>
 *   <li>LL128: 128-byte lines of 120 B data + 8 B flag, written by a warp; 93.75 % efficiency;
 *       default buffer NCCL_LL128_ELEMS_PER_THREAD(120) × NCCL_LL128_MAX_NTHREADS(640) ×
 *       NCCL_STEPS(8) × 8 B = 4,915,200 B.</li>
 *   <li>Simple: bulk data then a flag and fence per step; NCCL_BUFFSIZE default 4 MiB.</li>
 * </ul>
 */
public enum Protocol {
    LL(8, 4, 512 * 1024),
    LL128(128, 120, 120L * 640 * 8 * 8),
    SIMPLE(0, 0, 4L * 1024 * 1024);

    /** NCCL_STEPS: slots per connection buffer (src/include/device.h). */
    public static final int NCCL_STEPS = 8;

    private final int lineBytes;
    private final int dataBytesPerLine;
    private final long defaultBufferBytes;

    Protocol(int lineBytes, int dataBytesPerLine, long defaultBufferBytes) {
        this.lineBytes = lineBytes;
        this.dataBytesPerLine = dataBytesPerLine;
        this.defaultBufferBytes = defaultBufferBytes;
    }

    /** Bytes of a wire line (LL 8, LL128 128); 0 for Simple, which has no line format. */
    public int lineBytes() { return lineBytes; }

    /** Payload bytes per wire line (LL 4, LL128 120); 0 for Simple. */
    public int dataBytesPerLine() { return dataBytesPerLine; }

    /** Fraction of wire bytes that carry data: LL 0.5, LL128 0.9375, Simple 1. */
    public double dataEfficiency() {
        return lineBytes == 0 ? 1.0 : (double) dataBytesPerLine / lineBytes;
    }

    /** Default per-connection buffer in wire bytes (NCCL_BUFFSIZE applies to Simple only). */
    public long defaultBufferBytes() { return defaultBufferBytes; }

    /** Wire bytes needed to carry {@code dataBytes} of payload (whole lines for LL and LL128). */
    public long wireBytes(long dataBytes) {
        if (lineBytes == 0) return dataBytes;
        long lines = (dataBytes + dataBytesPerLine - 1) / dataBytesPerLine;
        return lines * lineBytes;
    }

    /** NCCL's spelling in NCCL_PROTO and logs: {@code LL}, {@code LL128}, {@code Simple}. */
    public String ncclName() { return this == SIMPLE ? "Simple" : name(); }

    @Override
    public String toString() { return ncclName(); }
}
