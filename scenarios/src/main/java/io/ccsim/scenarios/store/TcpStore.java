package io.ccsim.scenarios.store;

import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.format.Units;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntToLongFunction;

/**
 * A TCPStore-like server hosted by one rank ({@code MASTER_ADDR}), on the simulated clock.
 *
 * <p>Model: every request takes one one-way latency to reach the server and one to come back
 * (the latency of a client is {@code latencyPs.applyAsLong(clientRank)}; the server's own rank
 * talks to it over loopback but the function decides). The server applies requests in arrival
 * order. A {@code get}/{@code multiGet}/{@code wait} on missing keys parks at the server until the
 * keys are set, or until the client's timeout expires (the client gives up; PyTorch raises
 * {@code DistStoreError: wait timeout after ...ms}). Keys are never expired: a value stays until
 * it is overwritten or deleted — which is what lets a later round read a stale value.
 *
 * <p>Every access is logged as a {@link StoreEvent} for the analyzer.
 */
public final class TcpStore implements Store {
    private final SimHost host;
    private final int serverRank;
    private final IntToLongFunction latencyPs;
    private final Map<String, Entry> data = new HashMap<>();
    private final List<Waiter> waiters = new ArrayList<>();
    private final List<StoreEvent> log = new ArrayList<>();
    private boolean serverDown;

    private static final class Entry {
        String value;
        long version;
        int writer;
        long written;
    }

    private final class Waiter {
        final int client;
        final List<String> keys;
        final Runnable onReady;
        boolean done;

        Waiter(int client, List<String> keys, Runnable onReady) {
            this.client = client;
            this.keys = keys;
            this.onReady = onReady;
        }
    }

    /**
     * @param host       the simulation
     * @param serverRank the rank hosting the server (for reports)
     * @param latencyPs  one-way latency from a client rank to the server, ps (>= 0)
     */
    public TcpStore(SimHost host, int serverRank, IntToLongFunction latencyPs) {
        this.host = Objects.requireNonNull(host);
        this.serverRank = serverRank;
        this.latencyPs = Objects.requireNonNull(latencyPs);
    }

    /**
     * The server's process never started: requests are never answered (clients with a timeout get
     * PyTorch's connect timeout error, the others wait forever).
     */
    public void serverNeverStarted() { serverDown = true; }

    /** The rank that hosts the server. */
    public int serverRank() { return serverRank; }

    /** Every access so far, in server order. */
    public List<StoreEvent> log() { return List.copyOf(log); }

    private long lat(int client) {
        long l = latencyPs.applyAsLong(client);
        if (l < 0) throw new IllegalStateException("negative store latency for rank " + client);
        return l;
    }

    /** Delivers a request to the server, then the reply to the client. */
    private void roundTrip(int client, Runnable atServer) {
        if (serverDown) return;
        host.after(lat(client), atServer);
    }

    private void reply(int client, Runnable atClient) {
        host.after(lat(client), atClient);
    }

    private void record(int rank, String op, String key, Entry e) {
        if (e == null) {
            log.add(new StoreEvent(host.now(), rank, op, key, null, 0, -1, -1));
        } else {
            log.add(new StoreEvent(host.now(), rank, op, key, e.value, e.version, e.writer, e.written));
        }
    }

    private void write(int client, String key, String value, String op) {
        Entry e = data.get(key);
        if (e == null) {
            e = new Entry();
            data.put(key, e);
        }
        e.value = value;
        e.version++;
        e.writer = client;
        e.written = host.now();
        record(client, op, key, e);
        wakeWaiters();
    }

    private void wakeWaiters() {
        // Waiters are woken in the order they parked (deterministic).
        List<Waiter> ready = new ArrayList<>();
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.done) {
                it.remove();
            } else if (data.keySet().containsAll(w.keys)) {
                it.remove();
                w.done = true;
                ready.add(w);
            }
        }
        for (Waiter w : ready) w.onReady.run();
    }

    @Override
    public void set(int clientRank, String key, String value, Runnable done) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        roundTrip(clientRank, () -> {
            write(clientRank, key, value, "SET");
            reply(clientRank, done);
        });
    }

    @Override
    public void get(int clientRank, String key, long timeoutPs, Callback<String> cb) {
        multiGet(clientRank, List.of(key), timeoutPs, new Callback<>() {
            @Override public void onValue(List<String> v) { cb.onValue(v.get(0)); }
            @Override public void onTimeout(StoreTimeoutException e) { cb.onTimeout(e); }
        });
    }

    @Override
    public void multiGet(int clientRank, List<String> keys, long timeoutPs, Callback<List<String>> cb) {
        List<String> ks = List.copyOf(keys);
        parkUntil(clientRank, ks, timeoutPs, () -> {
            List<String> values = new ArrayList<>(ks.size());
            for (String k : ks) {
                Entry e = data.get(k);
                record(clientRank, "GET", k, e);
                values.add(e.value);
            }
            List<String> out = List.copyOf(values);
            reply(clientRank, () -> cb.onValue(out));
        }, cb::onTimeout);
    }

    @Override
    public void await(int clientRank, List<String> keys, long timeoutPs, Callback<Boolean> cb) {
        List<String> ks = List.copyOf(keys);
        parkUntil(clientRank, ks, timeoutPs, () -> reply(clientRank, () -> cb.onValue(Boolean.TRUE)), cb::onTimeout);
    }

    /**
     * Runs {@code atServer} at the server once all keys exist; if the client's timeout (measured
     * from the call) passes first, the client gets the timeout error and the server forgets it.
     */
    private void parkUntil(int client, List<String> keys, long timeoutPs, Runnable atServer,
                           java.util.function.Consumer<StoreTimeoutException> onTimeout) {
        if (timeoutPs < 0) throw new IllegalArgumentException("store timeout must be >= 0 ps (0 = none), got " + timeoutPs);
        final long[] timer = {-1};
        final boolean[] finished = {false};
        Waiter w = new Waiter(client, keys, () -> {
            if (finished[0]) return;
            finished[0] = true;
            if (timer[0] >= 0) host.cancel(timer[0]);
            atServer.run();
        });
        if (timeoutPs > 0) {
            timer[0] = host.after(timeoutPs, () -> {
                if (finished[0]) return;
                finished[0] = true;
                w.done = true;
                for (String k : keys) log.add(new StoreEvent(host.now(), client, "TIMEOUT", k, null, 0, -1, -1));
                onTimeout.accept(serverDown ? new StoreTimeoutException(keys, timeoutPs, "The client socket has timed out after "
                        + Units.toMillis(timeoutPs) + "ms while trying to connect to the TCPStore server on rank " + serverRank)
                        : new StoreTimeoutException(keys, timeoutPs));
            });
        }
        roundTrip(client, () -> {
            if (finished[0]) return;
            if (data.keySet().containsAll(keys)) {
                w.done = true;
                w.onReady.run();
            } else {
                waiters.add(w);
            }
        });
    }

    @Override
    public void add(int clientRank, String key, long delta, Callback<Long> cb) {
        roundTrip(clientRank, () -> {
            Entry e = data.get(key);
            long cur;
            if (e == null) {
                cur = 0;
            } else {
                try {
                    cur = Long.parseLong(e.value);
                } catch (NumberFormatException ex) {
                    throw new IllegalStateException("store add on key '" + key + "' whose value '" + e.value
                            + "' is not an integer");
                }
            }
            long next = cur + delta;
            write(clientRank, key, Long.toString(next), "ADD");
            reply(clientRank, () -> cb.onValue(next));
        });
    }

    @Override
    public void compareSet(int clientRank, String key, String expected, String desired, Callback<String> cb) {
        roundTrip(clientRank, () -> {
            Entry e = data.get(key);
            boolean match = e == null ? expected.isEmpty() : e.value.equals(expected);
            if (match) {
                write(clientRank, key, desired, "COMPARE_SET");
            } else {
                record(clientRank, "COMPARE_SET", key, e);
            }
            Entry after = data.get(key);
            String answer = after == null ? expected : after.value;
            reply(clientRank, () -> cb.onValue(answer));
        });
    }

    @Override
    public void delete(int clientRank, String key, Callback<Boolean> cb) {
        roundTrip(clientRank, () -> {
            Entry e = data.remove(key);
            record(clientRank, "DELETE", key, e);
            boolean existed = e != null;
            reply(clientRank, () -> cb.onValue(existed));
        });
    }
}
