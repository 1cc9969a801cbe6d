package io.ccsim.sim;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The registry of named streams: one object per name, seeded from (seed, name) whatever the order of first use. */
class RandomStreamsTest {

    @Test
    void oneStreamPerNameSeededFromSeedAndName() {
        RandomStreams a = new RandomStreams(7);
        RandomStream x = a.get("x");
        assertThat(a.get("x")).isSameAs(x);
        assertThat(a.size()).isEqualTo(1);
        RandomStreams b = new RandomStreams(7);
        b.get("y").nextLong(); // another stream first, and used: no effect on "x"
        assertThat(b.get("x").nextLong()).isEqualTo(new RandomStream(7, "x").nextLong()).isEqualTo(x.nextLong());
        assertThat(b.size()).isEqualTo(2);
        assertThat(new RandomStreams(8).get("x").nextLong()).isNotEqualTo(new RandomStream(7, "x").nextLong());
    }

    @Test
    void rejectsANullName() {
        assertThatThrownBy(() -> new RandomStreams(1).get(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("name must not be null");
    }
}
