package io.ccsim.algorithms.sim;

/**
 * A map from long keys to non-null values by open addressing with linear probing, in two parallel arrays: no boxed
 * keys, no entry objects. Not thread-safe.
 *
 * <p>Contract: {@link #get} returns what {@link #putNew} stored for the key, or null; keys may be any long, values are
 * never null. Callers should pass keys whose low bits vary ({@link io.ccsim.sim.HashKeys#spread}): the slot is the
 * key's low bits.
 *
 * @param <V> the values
 */
final class LongKeyedMap<V> {
    /*
     * A slot is empty while its value is null, so every long is a valid key. The table doubles at half full: a probe
     * then meets about 1.5 slots on average (Knuth, TAOCP vol. 3, 6.4, linear probing at load 1/2). Routing the
     * folding's connections asks one such map per connection (RouteCache: 1,044,480 lookups for a 32-node
     * all-to-all), where java.util.HashMap's boxed keys and scattered entry nodes took 14 % of the run.
     */
    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private int size;

    /** The value stored for {@code key}, or null if there is none. */
    @SuppressWarnings("unchecked")
    V get(long key) {
        int mask = keys.length - 1;
        for (int i = (int) key & mask; values[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) return (V) values[i];
        }
        return null;
    }

    /** Stores {@code value} (not null) for {@code key}, which has none yet. */
    void putNew(long key, V value) {
        if (value == null) throw new IllegalArgumentException("null value for key " + key);
        if (2 * (size + 1) > keys.length) grow();
        int mask = keys.length - 1;
        int i = (int) key & mask;
        while (values[i] != null) {
            if (keys[i] == key) throw new IllegalStateException("key " + key + " is stored already");
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    /** The number of keys stored. */
    int size() {
        return size;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldValues[j] == null) continue;
            int i = (int) oldKeys[j] & mask;
            while (values[i] != null) i = (i + 1) & mask;
            keys[i] = oldKeys[j];
            values[i] = oldValues[j];
        }
    }
}
