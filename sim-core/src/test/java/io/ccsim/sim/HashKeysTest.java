package io.ccsim.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pair keys stay distinct and their hash codes spread where a plain packing collides. */
class HashKeysTest {

    @Test
    void pairsKeepDistinctKeysAndSpreadTheirHashCodes() {
        // GPU-NIC and NIC-NIC pairs of a large fabric: 4,096 nodes by 64
        Set<Long> keys = new HashSet<>();
        Set<Integer> spreadCodes = new HashSet<>();
        Set<Integer> packedCodes = new HashSet<>();
        int pairs = 0;
        for (int a = 0; a < 4096; a++) {
            for (int b = 0; b < 64; b++) {
                long k = HashKeys.pair(a, b);
                keys.add(k);
                spreadCodes.add(Long.hashCode(k));
                packedCodes.add(Long.hashCode(((long) a << 32) | b));
                pairs++;
            }
        }
        assertThat(keys).as("distinct pairs, distinct keys").hasSize(pairs);
        assertThat(packedCodes.size()).as("a plain packing: a ^ b").isLessThanOrEqualTo(4096);
        assertThat(spreadCodes.size()).as("spread: about as many codes as pairs").isGreaterThan(pairs * 99 / 100);
        assertThat(HashKeys.pair(3, 5)).isNotEqualTo(HashKeys.pair(5, 3));
    }

    @Test
    void spreadIsInvertibleStepByStep() {
        // each step of the finalizer is a bijection: an xor-shift by at least half the width, or an odd multiplier
        for (long z : new long[] {0, 1, -1, Long.MIN_VALUE, 0x243F6A8885A308D3L, 123456789L << 20}) {
            assertThat(unspread(HashKeys.spread(z))).isEqualTo(z);
        }
    }

    /** The inverse of splitmix64's finalizer. */
    private static long unspread(long z) {
        z = unXorShift(z, 31);
        z *= inverse(0x94D049BB133111EBL);
        z = unXorShift(z, 27);
        z *= inverse(0xBF58476D1CE4E5B9L);
        return unXorShift(z, 30);
    }

    private static long unXorShift(long z, int s) {
        long x = z;
        for (int i = 0; i < 64 / s + 1; i++) x = z ^ (x >>> s);
        return x;
    }

    /** The multiplicative inverse of odd m modulo 2^64 (Newton's iteration). */
    private static long inverse(long m) {
        long x = m;
        for (int i = 0; i < 6; i++) x *= 2 - m * x;
        return x;
    }
}
