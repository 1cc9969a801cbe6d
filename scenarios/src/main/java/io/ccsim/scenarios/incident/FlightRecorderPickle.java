package io.ccsim.scenarios.incident;

import net.razorvine.pickle.PickleException;
import net.razorvine.pickle.Unpickler;

/**
 * Reads a flight-recorder dump in the pickle form PyTorch writes on a watchdog timeout
 * ({@code TORCH_NCCL_DUMP_ON_TIMEOUT=1}: files {@code <TORCH_NCCL_DEBUG_INFO_TEMP_FILE prefix><rank>}, by default
 * {@code nccl_trace_rank_N}) or on request ({@code torch._C._distributed_c10d._dump_nccl_trace}). The pickle is decoded
 * by Irmen de Jong's unpickler (net.razorvine:pickle, the one Pyrolite uses), which builds maps, lists, arrays (tuples)
 * and numbers and executes no code; the fields are then checked by {@link FlightRecorderDumps}.
 */
public final class FlightRecorderPickle {
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
        Unpickler u = new Unpickler();
        try {
            root = u.loads(data);
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
        return FlightRecorderDumps.decode(file, rank, root);
    }
}
