package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongKeyedMapTest {
    @Test
    void agreesWithHashMapOnRandomKeysThatShareLowBits() {
        for (int seed = 0; seed < 20; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            LongKeyedMap<String> m = new LongKeyedMap<>();
            Map<Long, String> ref = new HashMap<>();
            for (int op = 0; op < 5_000; op++) {
                // keys from a small pool whose low 8 bits are mostly equal: long probe chains across growths
                long key = r.nextInt(4) == 0 ? r.nextLong() : ((long) r.nextInt(3_000) << 8) | (r.nextInt(2) * 0xFFL);
                String got = m.get(key);
                assertThat(got).isEqualTo(ref.get(key));
                if (got == null) {
                    m.putNew(key, "v" + op);
                    ref.put(key, "v" + op);
                }
                assertThat(m.size()).isEqualTo(ref.size());
            }
            for (Map.Entry<Long, String> e : ref.entrySet()) assertThat(m.get(e.getKey())).isEqualTo(e.getValue());
            assertThat(m.get(Long.MIN_VALUE + 12345)).isNull();
        }
    }

    @Test
    void zeroAndNegativeKeysAreKeysAndValuesAreNeverNull() {
        LongKeyedMap<String> m = new LongKeyedMap<>();
        m.putNew(0, "zero");
        m.putNew(-1, "minus one");
        assertThat(m.get(0)).isEqualTo("zero");
        assertThat(m.get(-1)).isEqualTo("minus one");
        assertThat(m.get(16)).isNull();
        assertThatThrownBy(() -> m.putNew(0, "again")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> m.putNew(5, null)).isInstanceOf(IllegalArgumentException.class);
    }
}
