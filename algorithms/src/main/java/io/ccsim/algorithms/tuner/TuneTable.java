package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A sweep of sizes for one communicator and collective (what {@code ccsim tune} prints): for each size,
 * every allowed (algorithm, protocol) with its NCCL channel count and predicted time, and the winner; and
 * the exact sizes where the winner changes.
 *
 * @param base       the call swept (its {@code bytes} is ignored)
 * @param rows       one row per size, in the order given
 * @param crossovers every change of winner between consecutive rows, located to the byte
 */
record TuneTable(TuneInput base, List<Row> rows, List<Crossover> crossovers) {

    public TuneTable {
        Objects.requireNonNull(base);
        rows = List.copyOf(rows);
        crossovers = List.copyOf(crossovers);
    }

    /**
     * One (algorithm, protocol) at one size.
     *
     * @param algorithm the algorithm
     * @param protocol  the protocol
     * @param channels  NCCL's channel count for this size
     * @param timeUs    predicted time at {@code channels}, µs
     * @param costUs    NCCL's selection cost (time at the communicator's channel count), µs
     */
    public record Entry(Algorithm algorithm, Protocol protocol, int channels, double timeUs, double costUs) {
        /** {@code Ring/Simple}. */
        public String label() { return algorithm.ncclName() + "/" + protocol.ncclName(); }
    }

    /**
     * One size.
     *
     * @param bytes   NCCL's nBytes of the call
     * @param entries every allowed (algorithm, protocol) in NCCL's order
     * @param winner  the chosen entry (one of {@code entries})
     */
    public record Row(long bytes, List<Entry> entries, Entry winner) {
        public Row {
            entries = List.copyOf(entries);
            Objects.requireNonNull(winner);
        }
    }

    /**
     * The winner changes from {@code from} (at {@code lastBytesOfFrom} bytes) to {@code to} (from
     * {@code firstBytesOfTo} = lastBytesOfFrom + 1 bytes on), located by bisection between two swept sizes.
     * If the winner changes more than once between two swept sizes, the first change is reported.
     */
    public record Crossover(long lastBytesOfFrom, long firstBytesOfTo, Algorithm fromAlgorithm,
                            Protocol fromProtocol, Algorithm toAlgorithm, Protocol toProtocol) {
        /** {@code Ring/LL -> Ring/LL128 at 65537 B}. */
        public String describe() {
            return fromAlgorithm.ncclName() + "/" + fromProtocol.ncclName() + " -> " + toAlgorithm.ncclName() + "/"
                    + toProtocol.ncclName() + " at " + firstBytesOfTo + " B";
        }
    }

    /**
     * Tunes {@code base} at every size in {@code sizes} (ascending, >= 0) and locates the crossovers.
     *
     * @throws TunerException           if the environment leaves nothing for the collective
     * @throws IllegalArgumentException if sizes are empty, negative or not strictly ascending
     */
    public static TuneTable sweep(Tuner tuner, TuneInput base, long[] sizes) {
        Objects.requireNonNull(tuner);
        Objects.requireNonNull(base);
        if (sizes.length == 0) throw new IllegalArgumentException("sizes must not be empty");
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] < 0) throw new IllegalArgumentException("sizes[" + i + "] must be >= 0, got " + sizes[i]);
            if (i > 0 && sizes[i] <= sizes[i - 1]) {
                throw new IllegalArgumentException("sizes must be strictly ascending: sizes[" + i + "] = " + sizes[i]
                        + " <= sizes[" + (i - 1) + "] = " + sizes[i - 1]);
            }
        }
        List<Row> rows = new ArrayList<>(sizes.length);
        List<Crossover> crossovers = new ArrayList<>();
        TuneResult prev = null;
        for (long size : sizes) {
            TuneResult r = tuner.tune(base.withBytes(size));
            if (prev != null && !sameChoice(prev.winner(), r.winner())) {
                crossovers.add(locate(tuner, base, prev, r));
            }
            rows.add(row(r));
            prev = r;
        }
        return new TuneTable(base, rows, crossovers);
    }

    private static boolean sameChoice(Candidate a, Candidate b) {
        return a.algorithm() == b.algorithm() && a.protocol() == b.protocol();
    }

    /** Bisection on bytes: smallest size after {@code lo} whose winner differs from lo's. */
    private static Crossover locate(Tuner tuner, TuneInput base, TuneResult lo, TuneResult hi) {
        long a = lo.bytes();
        long b = hi.bytes();
        Candidate from = lo.winner();
        Candidate to = hi.winner();
        while (b - a > 1) {
            long mid = a + (b - a) / 2;
            TuneResult m = tuner.tune(base.withBytes(mid));
            if (sameChoice(m.winner(), from)) {
                a = mid;
            } else {
                b = mid;
                to = m.winner();
            }
        }
        return new Crossover(a, b, from.algorithm(), from.protocol(), to.algorithm(), to.protocol());
    }

    private static Row row(TuneResult r) {
        List<Entry> entries = new ArrayList<>();
        Entry winner = null;
        for (Candidate c : r.candidates()) {
            Entry e = new Entry(c.algorithm(), c.protocol(), c.channels(), c.timeUs(), c.costUs());
            entries.add(e);
            if (c == r.winner()) winner = e;
        }
        return new Row(r.bytes(), entries, winner);
    }

    /** Sizes {@code begin, begin·factor, ...} up to {@code end} inclusive, like nccl-tests' {@code -b -e -f}. */
    public static long[] geometricSizes(long begin, long end, int factor) {
        if (begin < 1) throw new IllegalArgumentException("begin must be >= 1, got " + begin);
        if (end < begin) throw new IllegalArgumentException("end (" + end + ") must be >= begin (" + begin + ")");
        if (factor < 2) throw new IllegalArgumentException("factor must be >= 2, got " + factor);
        List<Long> l = new ArrayList<>();
        for (long s = begin; s <= end; s = s > end / factor ? end + 1 : s * factor) l.add(s);
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) out[i] = l.get(i);
        return out;
    }
}
