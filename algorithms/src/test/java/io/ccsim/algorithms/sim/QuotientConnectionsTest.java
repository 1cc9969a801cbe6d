package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A pair of representatives holds one quotient connection per connection colour, and each real connection with a
 * representative end names the one it is part of.
 */
class QuotientConnectionsTest {

    @Test
    void onePairHoldsOneConnectionPerColourAndRealConnectionsFindTheirs() {
        QuotientConnections q = new QuotientConnections();
        // representative 0 of channel 0 sends to its own class at two distances (colours 11 and 22), and to class 5
        int d32 = q.add(0, 0, 0, 11L);
        int d64 = q.add(0, 0, 0, 22L);
        int other = q.add(0, 0, 5, 11L);
        assertThat(new int[] {d32, d64, other}).containsExactly(0, 1, 2);
        assertThat(q.add(0, 0, 0, 22L)).as("the same colour merges").isEqualTo(d64);
        assertThat(q.size()).isEqualTo(3);
        assertThat(q.indexOf(0, 0, 0, 33L)).isEqualTo(-1);
        assertThat(q.indexOf(1, 0, 0, 11L)).as("another channel").isEqualTo(-1);
        assertThat(q.from(d64)).isZero();
        assertThat(q.to(other)).isEqualTo(5);

        q.map(0, 0, 992, d32); // 0 sends to 0 − 32 on 1,024 ranks
        q.map(0, 0, 960, d64); // and to 0 − 64
        q.map(0, 32, 0, d32);  // 32 sends to 0: the receiving end of the same class of connection
        q.map(0, 0, 992, d32); // both ends representatives: mapped from each end, to the same
        assertThat(q.of(0, 0, 992)).isEqualTo(d32);
        assertThat(q.of(0, 0, 960)).isEqualTo(d64);
        assertThat(q.of(0, 32, 0)).isEqualTo(d32);
        assertThatThrownBy(() -> q.of(0, 1, 2)).isInstanceOf(IllegalStateException.class);

        q.setRoute(d64, new int[] {4, 4, 7}, 1_500L);
        assertThat(q.hops(d64)).containsExactly(4, 4, 7);
        assertThat(q.latencyPs(d64)).isEqualTo(1_500L);
    }
}
