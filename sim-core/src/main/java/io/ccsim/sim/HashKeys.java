package io.ccsim.sim;

/**
 * Long keys for hash maps of node pairs and packed tuples, spread so that their hash codes differ, and the one
 * 64-bit mix of the project (random stream seeds, route hashes, colour refinement, scenario data).
 *
 * <p>A pair packed as {@code a << 32 | b} has {@link Long#hashCode} {@code a ^ b}: every pair with the same XOR lands
 * in one bucket (on a 1,024-host fabric, thousands of GPU-NIC and NIC-NIC pairs), and HashMap turns such buckets into
 * trees that compare boxed keys. {@link #spread} is splitmix64's finalizer (Steele, Lea, Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), a bijection of the longs: distinct keys stay distinct, so a spread key
 * stands for its tuple exactly.
 */
public final class HashKeys {
    private HashKeys() { }

    /** A bijective mix of {@code z}. */
    public static long spread(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The key of the ordered pair (a, b): distinct pairs give distinct keys. */
    public static long pair(int a, int b) {
        return spread(((long) a << 32) | (b & 0xFFFFFFFFL));
    }
}
