package io.ccsim.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bootstrap retries, watchdog wording and polling, GPU memory accounting, units. */
class SystemLayerTest {

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

    @Test
    void ncclCannotUseMemoryCachedByPyTorch() {
        GpuMemory m = new GpuMemory(140 * Units.GIB);
        assertThat(m.allocTorch(128 * Units.GIB, 11 * Units.GIB)).isTrue();
        assertThat(m.freeForCudaMalloc()).isEqualTo(Units.GIB);
        long buffers = Communicator.bufferBytes(16);
        // 16 channels x 2 peers x (512 KiB LL + 4 915 200 B LL128 + 4 MiB Simple)
        assertThat(buffers).isEqualTo(16L * 2 * (524_288 + 4_915_200 + 4_194_304));
        assertThat(m.cudaMallocNccl(buffers)).isTrue();
        assertThat(m.cudaMallocNccl(Units.GIB)).as("the cache is not NCCL's").isFalse();
        // PyTorch itself can still allocate from its cache
        assertThat(m.allocTorch(10 * Units.GIB, 0)).isTrue();
        assertThat(m.cached()).isEqualTo(Units.GIB);
        assertThat(m.allocTorch(2 * Units.GIB, 0)).as("out of memory after emptying the cache").isFalse();
    }

    @Test
    void ibGiveUpTimeFollowsNcclIbTimeoutAndRetryCount() {
        Settings s = Settings.defaults();
        // 4.096 us x 2^20 per try, 1 + 7 tries
        assertThat(s.ibAckTimeoutPs()).isEqualTo(4_096_000L * (1L << 20));
        assertThat(s.ibGiveUpPs()).isEqualTo(8 * 4_096_000L * (1L << 20));
    }

    @Test
    void unitsParseAndRejectWithValidForms() {
        assertThat(Units.parseDuration("2.5us")).isEqualTo(2_500_000L);
        assertThat(Units.parseDuration("10min")).isEqualTo(600 * Units.PS_PER_S);
        assertThat(Units.parseBytes("1GiB")).isEqualTo(1L << 30);
        assertThat(Units.parseBytes("4MB")).isEqualTo(4_000_000L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Units.parseDuration("3 parsecs"))
                .hasMessageContaining("valid: a number followed by one of ps, ns, us, ms, s, min, h");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Units.parseBytes("1GB!"))
                .hasMessageContaining("KiB, MiB, GiB");
    }
}
