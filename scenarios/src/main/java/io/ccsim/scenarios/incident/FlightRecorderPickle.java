package io.ccsim.scenarios.incident;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import net.razorvine.pickle.PickleException;
import net.razorvine.pickle.Unpickler;

/**
 * Reads a flight-recorder dump in the pickle form PyTorch writes on a watchdog timeout
 * ({@code TORCH_NCCL_DUMP_ON_TIMEOUT=1}: files {@code <TORCH_NCCL_DEBUG_INFO_TEMP_FILE prefix><rank>}, by default
 * {@code nccl_trace_rank_N}) or on request ({@code torch._C._distributed_c10d._dump_nccl_trace}). The pickle is decoded
 * by Irmen de Jong's unpickler (net.razorvine:pickle, the one Pyrolite uses), which builds maps, lists, arrays (tuples)
 * and numbers and executes no code; the fields are then checked by {@link FlightRecorderDumps}.
 *
 * <p>Limits: an opcode that declares more bytes than the pickle holds after it is refused before anything is allocated
 * for it, and the decoded value may nest at most {@value #MAX_DEPTH} levels and expand (shared references counted
 * each time) to at most {@value #MAX_VALUES} values; a dump nests 6 levels and holds ~100 values per entry.
 */
public final class FlightRecorderPickle {
    /*
     * Opcodes with a length argument, from CPython Lib/pickletools.py (the opcode table of protocols 0-5): 4-byte
     * little-endian BINSTRING 'T', BINUNICODE 'X', BINBYTES 'B', LONG4 0x8b; 8-byte BINUNICODE8 0x8d, BINBYTES8 0x8e,
     * BYTEARRAY8 0x96, FRAME 0x95. The unpickler allocates the declared length before it reads, so a damaged length
     * would ask for up to 2 GiB (or more, cut to an int): the check compares it with the bytes left.
     */

    /** Deepest nesting of lists, tuples and dicts accepted. */
    static final int MAX_DEPTH = 32;
    /** Most values the decoded dump may expand to. */
    static final int MAX_VALUES = 20_000_000;

    private FlightRecorderPickle() {}

    /** Whether {@code data} starts as a pickle of protocol 2 or later (PROTO opcode 0x80, then the protocol number). */
    public static boolean looksLike(byte[] data) {
        return data.length >= 2 && (data[0] & 0xff) == 0x80 && data[1] >= 2 && data[1] <= 5;
    }

    /**
     * The dump in {@code data}.
     *
     * @param file for messages and evidence
     * @param rank the rank that wrote it
     * @throws IncidentFormatException if it is not a complete pickle, or not a flight-recorder dump
     */
    public static FrDump read(String file, int rank, byte[] data) {
        Object root;
        Unpickler u = new Bounded();
        try {
            root = u.load(new ByteArrayInputStream(data));
        } catch (PickleException e) {
            throw new IncidentFormatException(file + ": not a readable Python pickle (" + String.valueOf(e.getMessage()).strip() + "); expected a PyTorch"
                    + " flight-recorder dump as TORCH_NCCL_DUMP_ON_TIMEOUT=1 writes it", e);
        } catch (RuntimeException | java.io.IOException e) {
            // a truncated pickle ends inside an opcode's argument: the reader runs past the end of the bytes
            throw new IncidentFormatException(file + ": truncated or corrupt Python pickle (" + data.length + " bytes); expected a"
                    + " complete PyTorch flight-recorder dump as TORCH_NCCL_DUMP_ON_TIMEOUT=1 writes it", e);
        } finally {
            u.close();
        }
        checkShape(file, root);
        return FlightRecorderDumps.decode(file, rank, root);
    }

    /** Refuses a value nested deeper than {@link #MAX_DEPTH} or expanding to more than {@link #MAX_VALUES} values. */
    private static void checkShape(String file, Object root) {
        shape(file, root, 0, new IdentityHashMap<>());
    }

    /**
     * {values it expands to, levels below it} of {@code v} at nesting {@code depth}; each container is walked once
     * (shared ones are looked up), and the walk stops at {@link #MAX_DEPTH}, so a cycle is refused as too deep.
     */
    private static long[] shape(String file, Object v, int depth, IdentityHashMap<Object, long[]> seen) {
        Iterable<?> inside = v instanceof Map<?, ?> m ? m.values() : v instanceof Collection<?> c ? c
                : v instanceof Object[] a ? Arrays.asList(a) : null;
        if (inside == null) return LEAF;
        long[] known = seen.get(v);
        if (known == null) {
            if (depth >= MAX_DEPTH) throw new IncidentFormatException(file + ": a pickle nested more than " + MAX_DEPTH
                    + " levels deep; a flight-recorder dump nests 6");
            long values = 1, below = 0;
            for (Object x : inside) {
                long[] s = shape(file, x, depth + 1, seen);
                values = Math.min(values + s[0], MAX_VALUES + 1L);
                below = Math.max(below, s[1] + 1);
            }
            known = new long[] {values, below};
            seen.put(v, known);
        }
        if (depth + known[1] > MAX_DEPTH) throw new IncidentFormatException(file + ": a pickle nested more than " + MAX_DEPTH
                + " levels deep; a flight-recorder dump nests 6");
        if (known[0] > MAX_VALUES) throw new IncidentFormatException(file + ": a pickle of more than " + MAX_VALUES + " values"
                + " (shared references counted each time); a flight-recorder dump holds ~100 per entry");
        return known;
    }

    private static final long[] LEAF = {1, 0};

    /** The unpickler, refusing a declared length longer than the bytes left, as a truncated pickle. */
    private static final class Bounded extends Unpickler {
        @Override
        protected Object dispatch(short key) throws PickleException, IOException {
            int width = switch (key) {
                case 'T', 'X', 'B', 0x8b -> 4;
                case 0x8d, 0x8e, 0x95, 0x96 -> 8;
                default -> 0;
            };
            if (width > 0) {
                input.mark(width);
                long n = 0;
                for (int i = 0; i < width; i++) {
                    int b = input.read();
                    if (b < 0) break;
                    n |= (long) b << (8 * i);
                }
                input.reset();
                int left = input.available() - width;
                if (n < 0 || n > left) {
                    throw new java.io.EOFException("opcode 0x" + Integer.toHexString(key) + " declares " + Long.toUnsignedString(n)
                            + " bytes where " + Math.max(0, left) + " are left");
                }
            }
            return super.dispatch(key);
        }
    }
}
