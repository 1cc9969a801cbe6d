package io.ccsim.sim.flow;

import io.ccsim.sim.Sharing;
import org.junit.jupiter.api.Test;

import static io.ccsim.sim.flow.FlowNetwork.hop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Routes into distinct constraints with weights (crossings x multiplicity), and the twin groups they leave. */
class PathResolverTest {
    private final LinkTable links = new LinkTable();
    private final PathResolver resolver = new PathResolver(links);

    @Test
    void aConstraintCrossedKTimesByAPathOfMultiplicityMWeighsKM() {
        int sh = links.add("sh", 1e9, Sharing.SHARED);
        int fd = links.add("fd", 1e9, Sharing.FULL_DUPLEX);
        int[] route = {hop(fd, false), hop(sh, false), hop(fd, true), hop(sh, true), hop(fd, false)};
        FlowNetwork.Path p = resolver.resolve(route, 3, true);
        // in order of first crossing: fd forward (twice), sh (both ways: one constraint), fd reverse (once)
        assertThat(p.cons).containsExactly(links.forward(fd), links.forward(sh), links.reverse(fd));
        assertThat(p.weights).containsExactly(6, 6, 3);
        assertThat(p.multiplicity()).isEqualTo(3);
        assertThat(p.route).containsExactly(route).isNotSameAs(route);
        assertThat(p.regIds).containsExactly(hop(fd, false), sh << 1, hop(fd, true));
    }

    @Test
    void setupPathsShareWeightArraysAndPerFlowPathsDoNot() {
        int a = links.add("a", 1e9, Sharing.FULL_DUPLEX);
        int b = links.add("b", 1e9, Sharing.FULL_DUPLEX);
        FlowNetwork.Path ab = resolver.resolve(new int[] {hop(a, false), hop(b, false)}, 2, true);
        FlowNetwork.Path ba = resolver.resolve(new int[] {hop(b, true), hop(a, true)}, 2, true);
        FlowNetwork.Path fresh = resolver.resolve(new int[] {hop(b, true), hop(a, true)}, 2, false);
        assertThat(ab.weights).containsExactly(2, 2).isSameAs(ba.weights);
        assertThat(fresh.weights).containsExactly(2, 2).isNotSameAs(ab.weights);
    }

    @Test
    void twinsAreTheSharedConstraintsOfTheSamePathsWithTheSameWeights() {
        int a = links.add("a", 1e9, Sharing.FULL_DUPLEX);
        int b = links.add("b", 2e9, Sharing.FULL_DUPLEX);
        int c = links.add("c", 3e9, Sharing.FULL_DUPLEX);
        int fp = links.add("fp", 4e9, Sharing.FAT_PIPE);
        Constraint ca = links.forward(a);
        Constraint cb = links.forward(b);
        Constraint cc = links.forward(c);
        assertThat(ca.twins).as("crossed by no path yet").isNull();
        resolver.resolve(new int[] {hop(a, false), hop(b, false), hop(c, false), hop(fp, false)}, 1, true);
        assertThat(ca.twins).isSameAs(cb.twins).isSameAs(cc.twins);
        assertThat(ca.twins.n).isEqualTo(3);
        assertThat(links.forward(fp).twins).as("a per-flow bound is no shared constraint").isNull();
        // a path over b and c only: a parts from them
        resolver.resolve(new int[] {hop(b, false), hop(c, false)}, 1, true);
        assertThat(cb.twins).isSameAs(cc.twins).isNotSameAs(ca.twins);
        assertThat(ca.twins.n).isEqualTo(1);
        // a path over b and c with other weights (c twice): b and c part
        resolver.resolve(new int[] {hop(b, false), hop(c, false), hop(c, false)}, 1, true);
        assertThat(cb.twins).isNotSameAs(cc.twins);
        assertThat(cb.twins.n).isEqualTo(1);
        assertThat(cc.twins.n).isEqualTo(1);
        // first crossed with different weights: no twins
        int d = links.add("d", 1e9, Sharing.FULL_DUPLEX);
        int e = links.add("e", 1e9, Sharing.FULL_DUPLEX);
        resolver.resolve(new int[] {hop(d, false), hop(e, false), hop(e, false)}, 1, true);
        assertThat(links.forward(d).twins).isNotSameAs(links.forward(e).twins);
    }

    @Test
    void rejectsBadRoutes() {
        int a = links.add("a", 1e9, Sharing.FULL_DUPLEX);
        assertThatThrownBy(() -> resolver.resolve(new int[] {hop(a, false), hop(4, true)}, 1, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("start: route[1] = 9 names link 4, valid links are 0..0 (encode hops with FlowNetwork.hop)");
        assertThatThrownBy(() -> resolver.resolve(new int[] {-1}, 1, true)).hasMessageContaining("route[0] = -1");
        assertThatThrownBy(() -> resolver.resolve(new int[0], 0, true)).hasMessageContaining("multiplicity must be >= 1");
        assertThatThrownBy(() -> resolver.resolve(null, 1, true)).isInstanceOf(NullPointerException.class);
        assertThat(resolver.resolve(new int[0], 1, true).cons).isEmpty();
    }
}
