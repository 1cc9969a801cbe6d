package io.ccsim.sim;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * A named, seeded stream of pseudo-random numbers. Its seed is derived from the simulator's seed
 * and a stable 64-bit hash of the name (FNV-1a over the UTF-8 bytes, then the SplitMix64
 * finalizer), so the same (seed, name) gives the same sequence on every JVM and run, and
 * different names give independent streams. Not thread-safe: one simulation, one thread.
 */
public final class RandomStream {
    private final String name;
    private final SplittableRandom random;

    RandomStream(long simSeed, String name) {
        this.name = name;
        this.random = new SplittableRandom(deriveSeed(simSeed, name));
    }

    /** The stream's seed for a simulator seed and a name; pure function. */
    static long deriveSeed(long simSeed, String name) {
        long h = 0xcbf29ce484222325L; // FNV-1a 64 offset basis
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L; // FNV-1a 64 prime
        }
        return HashKeys.spread(HashKeys.spread(simSeed) ^ h);
    }

    /** @return a uniformly distributed long */
    public long nextLong() {
        return random.nextLong();
    }

    /** @return a uniform double in [0, 1) */
    public double nextDouble() {
        return random.nextDouble();
    }

    /**
     * @param bound exclusive upper bound, must be positive
     * @return a uniform int in [0, bound)
     */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("random stream '" + name + "': bound must be > 0, was " + bound);
        }
        return random.nextInt(bound);
    }

    /** @return a standard normal variate (mean 0, standard deviation 1) */
    public double nextGaussian() {
        return random.nextGaussian();
    }

    /** @return a uniform boolean */
    public boolean nextBoolean() {
        return random.nextBoolean();
    }

    /** @return the name this stream was created with */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "RandomStream[" + name + "]";
    }
}
