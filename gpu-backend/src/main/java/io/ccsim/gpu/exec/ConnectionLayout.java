package io.ccsim.gpu.exec;

import io.ccsim.gpu.kernel.DeviceProgram;

import java.util.List;

/**
 * Where each connection of a {@link DeviceProgram} lives in the ranks' connection memory (one allocation per
 * rank), and the per-task connection tables the kernels read. Pure arithmetic: no GPU needed.
 *
 * <p>Connection k = {channel, from, to}, in program order, takes
 * <ul>
 *   <li>in the receiver's memory (rank {@code to}): its slot buffer of {@link #bufBytes()} bytes
 *       ({@link DeviceProgram#slotsAllocated()} slots of {@link DeviceProgram#slotWireBytes()}, rounded up to
 *       256), then a 256-byte block holding the tail flag at +0 and the receiver's step counter at +128;</li>
 *   <li>in the sender's memory (rank {@code from}): a 256-byte block holding the head flag at +0 and the
 *       sender's step counter at +128.</li>
 * </ul>
 * Regions follow each other in connection order, receiver's region before sender's.
 */
final class ConnectionLayout {
    /** Longs per connection-table entry: slot buffer, tail, head, own counter (device addresses). */
    static final int ENTRY_LONGS = 4;

    private final List<int[]> connections;
    private final long bufBytes;
    private final long[] rankBytes;
    private final long[] recvOff;
    private final long[] sendOff;

    private ConnectionLayout(List<int[]> connections, long bufBytes, long[] rankBytes, long[] recvOff, long[] sendOff) {
        this.connections = connections;
        this.bufBytes = bufBytes;
        this.rankBytes = rankBytes;
        this.recvOff = recvOff;
        this.sendOff = sendOff;
    }

    /** The layout of {@code prog}'s connections. */
    static ConnectionLayout of(DeviceProgram prog) {
        long bufBytes = align(prog.slotsAllocated() * prog.slotWireBytes(), 256);
        long[] size = new long[prog.nRanks()];
        int nc = prog.connections().size();
        long[] recvOff = new long[nc];   // in rank `to`: buffer, then tail (+0), counter (+128)
        long[] sendOff = new long[nc];   // in rank `from`: head (+0), counter (+128)
        for (int k = 0; k < nc; k++) {
            int[] c = prog.connections().get(k);
            recvOff[k] = size[c[2]];
            size[c[2]] += bufBytes + 256;
            sendOff[k] = size[c[1]];
            size[c[1]] += 256;
        }
        return new ConnectionLayout(prog.connections(), bufBytes, size, recvOff, sendOff);
    }

    private static long align(long x, long a) { return (x + a - 1) / a * a; }

    /** Bytes of one connection's slot buffer (a multiple of 256). */
    long bufBytes() { return bufBytes; }

    /** Bytes to allocate (and zero) for {@code rank}'s connection memory: its regions, at least 256. */
    long allocBytes(int rank) { return Math.max(256, rankBytes[rank]); }

    /**
     * The connection table of task {@code t}, {@link #ENTRY_LONGS} device addresses per entry in the task's table
     * order: slot buffer and tail (receiver's memory), head (sender's memory), and the task's own step counter
     * (the sender's if the task sends on the connection, else the receiver's).
     *
     * @param base per rank, the device address of its connection memory
     */
    long[] table(DeviceProgram.Task t, long[] base) {
        long[] table = new long[t.conns().length * ENTRY_LONGS];
        for (int i = 0; i < t.conns().length; i++) {
            int k = t.conns()[i];
            int[] c = connections.get(k);
            int from = c[1], to = c[2];
            long recvBase = base[to] + recvOff[k];
            long sendBase = base[from] + sendOff[k];
            table[i * 4] = recvBase;                                   // slot buffer (receiver's memory)
            table[i * 4 + 1] = recvBase + bufBytes;                    // tail (receiver's memory)
            table[i * 4 + 2] = sendBase;                               // head (sender's memory)
            table[i * 4 + 3] = t.sending()[i] ? sendBase + 128 : recvBase + bufBytes + 128;  // own counter
        }
        return table;
    }
}
