package io.ccsim.sim;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The named random streams of one simulation: {@link #get} creates the stream of a name on first use, seeded from
 * (simulation seed, name) as {@link RandomStream} derives it, and returns that same object ever after. Streams are
 * independent of each other and of the order in which they are first asked for. Not thread-safe.
 */
final class RandomStreams {
    private final long seed;
    private final Map<String, RandomStream> streams = new HashMap<>();

    /** @param seed the simulation's seed, any value */
    RandomStreams(long seed) {
        this.seed = seed;
    }

    /**
     * @return the stream of this name, created on first use
     * @throws NullPointerException if the name is null
     */
    RandomStream get(String name) {
        Objects.requireNonNull(name, "random stream name must not be null");
        RandomStream s = streams.get(name);
        if (s == null) {
            s = new RandomStream(seed, name);
            streams.put(name, s);
        }
        return s;
    }

    /** @return the number of streams created so far */
    int size() {
        return streams.size();
    }
}
