package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.sim.RunControl;
import io.ccsim.sim.RunStoppedException;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/**
 * Building a fabric polls its simulator's stop request (a 100,000-GPU cluster's 0.9 M link groups take a second or
 * more), so a stop asked for then ends the run there.
 */
class FabricStopTest {
    private final Topology topo = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 128));
    private final CalibrationProfile prof = CalibrationProfile.builtin("h100");

    @Test
    void aStopRequestedBeforeTheBuildEndsIt() {
        assertThat(topo.fabric().size()).as("groups, more than one poll's worth").isGreaterThan(4096);
        RunControl control = new RunControl();
        control.requestStop("test");
        Simulator sim = new Simulator(0);
        sim.setRunControl(control);
        assertThatThrownBy(() -> new Fabric(sim, topo, prof, false)).isInstanceOf(RunStoppedException.class);
    }

    @Test
    void withoutAStopTheBuildCompletes() {
        Simulator sim = new Simulator(0);
        sim.setRunControl(new RunControl());
        assertThat(new Fabric(sim, topo, prof, false).network().linkCount()).isGreaterThanOrEqualTo(topo.fabric().size());
    }
}
