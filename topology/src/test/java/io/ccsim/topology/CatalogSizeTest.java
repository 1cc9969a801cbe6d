package io.ccsim.topology;

import io.ccsim.sim.RunControl;
import io.ccsim.sim.RunStoppedException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CatalogSizeTest {

    /** size() counts what build() makes, for every board and cluster shape it lays out differently. */
    @Test
    void sizeCountsWhatTheBuildMakes() {
        BuildOptions[] shapes = {
            BuildOptions.of(0, 1), BuildOptions.of(4, 1), BuildOptions.of(0, 2), BuildOptions.of(0, 33),
            BuildOptions.of(0, 70).withNicsPerNode(4), new BuildOptions(0, 40, 3.0, 0L), BuildOptions.of(1, 64),
        };
        for (String name : TopologyCatalog.names()) {
            for (BuildOptions o : shapes) {
                Topology t;
                try {
                    t = TopologyCatalog.build(name, o);
                } catch (IllegalArgumentException e) {
                    assertThatThrownBy(() -> TopologyCatalog.size(name, o)).as(name + " " + o)
                            .isInstanceOf(IllegalArgumentException.class);
                    continue;
                }
                assertThat(TopologyCatalog.fullName(name, o)).as(name + " " + o).isEqualTo(t.name());
                TopologyCatalog.BuildSize s = TopologyCatalog.size(name, o);
                assertThat(s).as(name + " " + o).isEqualTo(new TopologyCatalog.BuildSize(t.nodes().size(), t.links().size(),
                        t.gpus().size()));
            }
        }
    }

    /** hostsPerLeaf() is the host count from which a rail's hosts spread over a second leaf. */
    @Test
    void hostsPerLeafIsWhereASecondLeafBegins() {
        for (double o : new double[] {1.0, 2.0, 3.0}) {
            BuildOptions opts = new BuildOptions(1, 2, o, 0L);
            int g = TopologyCatalog.hostsPerLeaf(opts);
            assertThat(leavesOfRail0(TopologyCatalog.build("hgx-h100", opts.withNodes(g)))).as("o=" + o).isEqualTo(1);
            assertThat(leavesOfRail0(TopologyCatalog.build("hgx-h100", opts.withNodes(g + 1)))).as("o=" + o).isEqualTo(2);
        }
        assertThat(TopologyCatalog.hostsPerLeaf(BuildOptions.of(0, 2))).isEqualTo(32); // radix 64 at 1:1: 32 down, 32 up
    }

    private static long leavesOfRail0(Topology t) {
        return t.nodes().stream().filter(n -> n.id().startsWith("leaf.r0.")).count();
    }

    @Test
    void aStopRequestEndsTheBuild() {
        RunControl control = new RunControl();
        control.requestStop("test");
        assertThatThrownBy(() -> TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4), control))
                .isInstanceOf(RunStoppedException.class);
        // without a request the same build completes, equal to one built without a control
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4), new RunControl());
        assertThat(t).isEqualTo(TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4)));
    }

    @Test
    void theStructureChecksTheControlToo() {
        RunControl control = new RunControl();
        Topology.Builder b = Topology.builder("t", 0).stopWith(control);
        b.node(new Node("a", NodeKind.GPU, 0, 0)).node(new Node("b", NodeKind.GPU, 0, 1));
        control.requestStop("test");
        assertThatThrownBy(b::build).isInstanceOf(RunStoppedException.class);
    }
}
