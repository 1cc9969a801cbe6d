package io.ccsim.algorithms.sim;

import static io.ccsim.algorithms.sim.SimCtaModelTest.BYTES;
import static io.ccsim.algorithms.sim.SimCtaModelTest.DST;
import static io.ccsim.algorithms.sim.SimCtaModelTest.RECV;
import static io.ccsim.algorithms.sim.SimCtaModelTest.RED;
import static io.ccsim.algorithms.sim.SimCtaModelTest.SEND;
import static io.ccsim.algorithms.sim.SimCtaModelTest.SRC;
import static io.ccsim.algorithms.sim.SimCtaModelTest.profile;
import static io.ccsim.algorithms.sim.SimCtaModelTest.timeUs;
import static io.ccsim.algorithms.sim.SimCtaModelTest.us;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/**
 * The send limit a rank's thread blocks share ({@code sim.cta.<proto>.gpu_send_gbps} and {@code gpu_send_gbps_per_block},
 * {@link CtaCosts#limitsGpuSend}): one flow-network constraint per rank, of {@code a + b × B} GB/s for B sending
 * blocks, crossed by every flow the rank sends over NVLink. Latencies are zeroed as in {@link SimCtaModelTest}, so
 * the times below are the stream costs and the limit, written out.
 */
class SimGpuSendLimitTest {

    private static CtaCosts costs(double a, double b) {
        return new CtaCosts(RECV, SRC, DST, SEND, RED, CtaCosts.DEFAULT_L2_BYTES, 1.0, 0.0, 0.0, a, b);
    }

    @Test
    void theLimitBindsWhenTheRootsBlocksTogetherOutrunIt() {
        // broadcast n = 2 on 4 channels: the root's 4 blocks copy-send a quarter each, at 1 / (src + dst + send)
        // each, 4 × 1.395 = 5.58 GB/s together; a limit of 2 + 0.5 × 4 = 4 GB/s holds them to 4 GB/s in all, so
        // the root's phase takes BYTES / 4 GB/s; then rank 1 receives its quarters (local work, no flow)
        double quarter = BYTES / 4.0;
        double free = us(quarter, SRC + DST + SEND) + us(quarter, RECV + DST);
        double limited = BYTES / 4e9 * 1e6 + us(quarter, RECV + DST);
        assertThat(limited).isGreaterThan(free * 1.1);
        assertThat(timeUs(profile(costs(2, 0.5)), CollectiveOp.BROADCAST, 2, 4)).isCloseTo(limited, within(1e-3));
        // the same limit with one block: 2.5 GB/s, above the lone block's 1.395, so it never binds
        assertThat(timeUs(profile(costs(2, 0.5)), CollectiveOp.BROADCAST, 2, 1))
                .isCloseTo(us(BYTES, SRC + DST + SEND) + us(BYTES, RECV + DST), within(1e-3));
        // and a limit far above the blocks changes nothing at 4 channels either
        assertThat(timeUs(profile(costs(500, 1)), CollectiveOp.BROADCAST, 2, 4)).isCloseTo(free, within(1e-3));
    }

    @Test
    void onlyNvlinkSendsCrossIt() {
        // the same 4 GB/s limit on a PCIe box: the root's stores cross PCIe, not the SMs' NVLink path, so the 4 blocks
        // run at their own rate (5.58 GB/s together, below the PCIe link)
        PerfRunner r = new PerfRunner(TopologyCatalog.build("pcie-8gpu", BuildOptions.of(2, 1)), 2, profile(costs(2, 0.5)), NcclEnv.empty(), 1);
        double t = r.simulate(CollectiveOp.BROADCAST, BYTES / 4, DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.RING, Protocol.SIMPLE, 4).timeUs();
        double quarter = BYTES / 4.0;
        assertThat(t).isCloseTo(us(quarter, SRC + DST + SEND) + us(quarter, RECV + DST), within(1e-3));
    }

    @Test
    void theLimitGrowsWithTheSendingBlocks() {
        // 8 channels, a = 0: the limit is b × 8; at b = 0.5 (4 GB/s) the 8 blocks (11.2 GB/s) are held to 4 GB/s,
        // at b = 1 to 8 GB/s
        double eighth = BYTES / 8.0;
        for (double b : new double[] {0.5, 1.0}) {
            CtaCosts c = new CtaCosts(RECV, SRC, DST, SEND, RED, CtaCosts.DEFAULT_L2_BYTES, 1.0, 0.0, 0.0, 1e-9, b);
            double expect = BYTES / (b * 8 * 1e9) * 1e6 + us(eighth, RECV + DST);
            assertThat(timeUs(profile(c), CollectiveOp.BROADCAST, 2, 8)).as("b = " + b).isCloseTo(expect, within(1e-3));
        }
    }

    @Test
    void theJsonKeysGoTogetherAndRoundTrip() {
        CalibrationProfile p = profile(costs(289.6, 1.06));
        CalibrationProfile back = CalibrationProfile.parse(p.toJson(), "round trip");
        assertThat(back.sim().ctaOf(Protocol.SIMPLE)).isEqualTo(p.sim().ctaOf(Protocol.SIMPLE));
        // a profile without the limit writes neither key
        String without = profile(new CtaCosts(RECV, SRC, DST, SEND, RED)).toJson();
        assertThat(without).doesNotContain("gpu_send_gbps");
        String one = p.toJson().replaceFirst("\"gpu_send_gbps\": [0-9.]+,\\s*", "");
        assertThatThrownBy(() -> CalibrationProfile.parse(one, "one key"))
                .hasMessageContaining("gpu_send_gbps and gpu_send_gbps_per_block go together");
        assertThatThrownBy(() -> costs(-1, 1)).hasMessageContaining("gpuSendGbps must be");
        assertThatThrownBy(() -> costs(10, Double.NaN)).hasMessageContaining("gpuSendGbpsPerBlock must be");
    }
}
