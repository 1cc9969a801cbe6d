package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RouteTest {

    @Test
    void hopsEncodeGroupAndDirection() {
        Route r = new Route(new int[] {Route.hop(7, false), Route.hop(3, true)}, 500, List.of("a", "b"));
        assertThat(r.length()).isEqualTo(2);
        assertThat(r.groupAt(0)).isEqualTo(7);
        assertThat(r.reverseAt(0)).isFalse();
        assertThat(r.groupAt(1)).isEqualTo(3);
        assertThat(r.reverseAt(1)).isTrue();
        assertThat(Route.hop(3, true)).isEqualTo(7);
    }

    @Test
    void equalityIsByContent() {
        Route a = new Route(new int[] {2}, 5, List.of("x"));
        assertThat(a).isEqualTo(new Route(new int[] {2}, 5, List.of("x"))).hasSameHashCodeAs(
                new Route(new int[] {2}, 5, List.of("x")));
        assertThat(a).isNotEqualTo(new Route(new int[] {3}, 5, List.of("x")));
        assertThat(a.toString()).isEqualTo("Route[x] 5 ps");
    }

    @Test
    void localRouteIsEmpty() {
        assertThat(Route.local().length()).isZero();
        assertThat(Route.local().latencyPs()).isZero();
        assertThat(Route.local().linkIds()).isEmpty();
    }
}
