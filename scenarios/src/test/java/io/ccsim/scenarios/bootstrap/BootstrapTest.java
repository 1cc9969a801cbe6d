package io.ccsim.scenarios.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.format.Units;
import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NCCL's socket connects: 34 retries with linear sleeps, success once the root listens. */
class BootstrapTest {

    @Test
    void refusedConnectRetries34TimesWithLinearSleepsThenFails() {
        Simulator sim = new Simulator(7);
        SimHost host = new SimHost(sim);
        Settings s = Settings.defaults();
        List<String> refused = new ArrayList<>();
        Bootstrap b = new Bootstrap(host, s, 0, (rank, message) -> refused.add(message));
        List<String> errors = new ArrayList<>();
        List<Long> at = new ArrayList<>();
        b.connect(0, "10.0.9.9:1234", () -> errors.add("connected?"), e -> {
            errors.add(e);
            at.add(host.now());
        });
        sim.run();
        assertThat(errors).containsExactly("socketPollConnect: connect to 10.0.9.9:1234 returned Connection refused,"
                + " exceeded error retry count (35)");
        // 35 attempts, each one round trip; sleeps of k x 100 ms for k = 1..34
        long sleeps = 0;
        for (int k = 1; k <= 34; k++) sleeps += k * Units.ms(100);
        assertThat(sleeps).isEqualTo(Units.ms(59_500));
        assertThat(at).containsExactly(35 * 2 * s.bootstrapLatencyPs() + sleeps);
        assertThat(refused).hasSize(34)
                .last().satisfies(m -> assertThat(m).endsWith("retrying (34/34) after sleep for 3400 msec"));
    }

    @Test
    void connectSucceedsOnceTheRootListens() {
        Simulator sim = new Simulator(7);
        SimHost host = new SimHost(sim);
        Settings s = Settings.defaults();
        Bootstrap b = new Bootstrap(host, s, 0, (rank, message) -> { });
        String[] id = new String[1];
        List<Long> connected = new ArrayList<>();
        // the root appears 250 ms after the first attempt: attempts at 0, +100 ms, +200 ms (+ round trips) are refused
        host.after(Units.ms(250), () -> id[0] = b.createRoot(0, 0, 0, "g", 0, 0, 1, List.of(0, 1)));
        b.connect(1, "10.0.0.10:40000", () -> connected.add(host.now()), e -> connected.add(-1L));
        sim.run();
        long rtt = 2 * s.bootstrapLatencyPs();
        // attempt 1 at 0 and attempt 2 at rtt + 100 ms are refused; attempt 3 starts at 2 rtt + 300 ms,
        // after the root opened at 250 ms: accepted one round trip later
        assertThat(connected).containsExactly(3 * rtt + Units.ms(300));
        assertThat(Bootstrap.addressOf(id[0])).isEqualTo("10.0.0.10:40000");
    }
}
