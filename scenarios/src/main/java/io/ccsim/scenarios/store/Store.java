package io.ccsim.scenarios.store;

import java.util.List;

/**
 * A key-value store on the simulated clock, with the operations of PyTorch's c10d {@code Store}
 * (torch/csrc/distributed/c10d/Store.hpp, TCPStore.hpp): set, get (blocks until the key exists
 * or the timeout expires), wait, add, multiGet, compareSet, delete. Every call is asynchronous:
 * the answer arrives through the callback after the simulated network round trip. Values are
 * strings (the simulated ncclUniqueIds are printable).
 *
 * <p>{@code clientRank} is the calling rank; it determines the network latency to the server.
 * Timeouts are in picoseconds; {@code 0} means "no timeout" as in {@code kNoTimeout}.
 */
public interface Store {
    /** Writes {@code value} under {@code key}, overwriting any previous value; {@code done} runs at the reply. */
    void set(int clientRank, String key, String value, Runnable done);

    /** Reads {@code key}, waiting until some client sets it or {@code timeoutPs} passes. */
    void get(int clientRank, String key, long timeoutPs, Callback<String> cb);

    /** Reads all {@code keys} at once, waiting until all exist (TCPStore's multiGet waits on the keys). */
    void multiGet(int clientRank, List<String> keys, long timeoutPs, Callback<List<String>> cb);

    /** Waits until all {@code keys} exist. */
    void await(int clientRank, List<String> keys, long timeoutPs, Callback<Boolean> cb);

    /** Adds {@code delta} to the integer stored at {@code key} (absent = 0) and answers the new value. */
    void add(int clientRank, String key, long delta, Callback<Long> cb);

    /**
     * Sets {@code key} to {@code desired} if its value is {@code expected} (or if it is absent and
     * {@code expected} is the empty string); answers the value stored afterwards.
     */
    void compareSet(int clientRank, String key, String expected, String desired, Callback<String> cb);

    /** Deletes {@code key}; answers whether it existed. */
    void delete(int clientRank, String key, Callback<Boolean> cb);

    /** The answer of a store call: a value, or the timeout error (PyTorch's DistStoreError). */
    interface Callback<T> {
        void onValue(T value);

        void onTimeout(StoreTimeoutException e);

        /** A callback for calls that cannot time out (set, add, compareSet, delete). */
        static <T> Callback<T> of(java.util.function.Consumer<T> onValue) {
            return new Callback<>() {
                @Override public void onValue(T value) { onValue.accept(value); }
                @Override public void onTimeout(StoreTimeoutException e) {
                    throw new IllegalStateException("unexpected store timeout: " + e.getMessage(), e);
                }
            };
        }
    }
}
