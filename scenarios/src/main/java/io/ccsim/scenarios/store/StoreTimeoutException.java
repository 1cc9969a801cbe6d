package io.ccsim.scenarios.store;

import io.ccsim.scenarios.format.Units;
import java.util.List;

/**
 * A store wait that ran out of time, worded as TCPStore words it
 * ({@code "wait timeout after 300000ms, keys: ..."}, torch/csrc/distributed/c10d/TCPStore.cpp).
 */
public final class StoreTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final List<String> keys;
    private final long timeoutPs;

    StoreTimeoutException(List<String> keys, long timeoutPs) {
        this(keys, timeoutPs, "wait timeout after " + Units.toMillis(timeoutPs) + "ms, keys: " + String.join(", ", keys));
    }

    StoreTimeoutException(List<String> keys, long timeoutPs, String message) {
        super(message);
        this.keys = List.copyOf(keys);
        this.timeoutPs = timeoutPs;
    }

    /** The keys (full, with prefixes) that were waited for. */
    public List<String> keys() { return keys; }

    /** The timeout that expired, in picoseconds. */
    public long timeoutPs() { return timeoutPs; }
}
