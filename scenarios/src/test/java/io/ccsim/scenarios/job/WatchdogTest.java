package io.ccsim.scenarios.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.format.Units;
import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The watchdog's wording and its 100 ms polling. */
class WatchdogTest {

    @Test
    void watchdogMessageIsPyTorchsAndFiresAtTheFirstPollAfterTheTimeout() {
        assertThat(Watchdog.timeoutMessage(3, 7, "ALLREDUCE", 1024, 1024, Units.s(600), Units.ms(600_050)))
                .isEqualTo("[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE,"
                        + " NumelIn=1024, NumelOut=1024, Timeout(ms)=600000) ran for 600050 milliseconds before timing out.");
        Simulator sim = new Simulator(1);
        SimHost host = new SimHost(sim);
        Watchdog w = new Watchdog(host, 0);
        List<Long> fired = new ArrayList<>();
        host.after(Units.ms(1234), () -> w.arm(Units.s(10), fired::add));
        sim.run();
        // created at 1.234 s; times out at 11.234 s; the 100 ms poll after that is at 11.3 s
        assertThat(fired).containsExactly(Units.ms(11_300));
    }
}
