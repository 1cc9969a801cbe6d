package io.ccsim.algorithms.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import org.junit.jupiter.api.Test;

/**
 * {@code sim.graph_launch_us} and {@code sim.graph_call_launch_us}: the CudaExecutor's host graph launch costs.
 * Optional (0), round trip, errors naming the JSON path, and their one effect: a predicted graph-replay time grows
 * by exactly (n − 1) × (per call + per graph / iterations), where a simulated call ({@code ccsim perf}) does not
 * change.
 */
class GraphLaunchCostsTest {

    static String withSim(String key, String value) {
        JsonObject o = JsonParser.parseString(CalibrationProfile.builtin("h200").toJson()).getAsJsonObject();
        o.getAsJsonObject("sim").add(key, JsonParser.parseString(value));
        return o.toString();
    }

    @Test
    void absentIsZeroAndNotWritten() {
        CalibrationProfile p = CalibrationProfile.builtin("h200");
        assertThat(p.sim().graphLaunchUs()).isZero();
        assertThat(p.sim().graphCallLaunchUs()).isZero();
        assertThat(p.sim().graphTimingSkewUs(4, 50)).isZero();
        JsonObject sim = JsonParser.parseString(p.toJson()).getAsJsonObject().getAsJsonObject("sim");
        assertThat(sim.has("graph_launch_us") || sim.has("graph_call_launch_us")).isFalse();
    }

    @Test
    void roundTripsAndSurvivesTheCopies() {
        CalibrationProfile p = CalibrationProfile.parse(withSim("graph_call_launch_us", "1.25"), "x.json");
        assertThat(p.sim().graphCallLaunchUs()).isEqualTo(1.25);
        assertThat(p.sim().graphLaunchUs()).isZero();
        assertThat(CalibrationProfile.parse(p.toJson(), "round trip")).isEqualTo(p);
        p = p.withSim(p.sim().withGraphLaunch(10, 1.25));
        assertThat(CalibrationProfile.parse(p.toJson(), "round trip")).isEqualTo(p);
        // (n − 1) × (per call + per graph / iterations)
        assertThat(p.sim().graphTimingSkewUs(4, 50)).isCloseTo(3 * (1.25 + 10.0 / 50), within(1e-12));
        assertThat(p.sim().graphTimingSkewUs(1, 50)).isZero();
        SimCosts s = p.sim().withDuplexEfficiency(LinkClass.NVLINK, 0.5)
                .with(SimCosts.Family.RING, Protocol.LL, p.sim().get(SimCosts.Family.RING, Protocol.LL).withStepOverheadNs(3))
                .withCta(Protocol.LL, null);
        assertThat(s.graphLaunchUs()).isEqualTo(10);
        assertThat(s.graphCallLaunchUs()).isEqualTo(1.25);
    }

    @Test
    void badValuesNameThePath() {
        for (String key : new String[] {"graph_launch_us", "graph_call_launch_us"}) {
            assertThatThrownBy(() -> CalibrationProfile.parse(withSim(key, "-1"), "x.json"))
                    .isInstanceOf(ProfileException.class).hasMessageContaining("x.json")
                    .hasMessageContaining("$.sim." + key).hasMessageContaining(">= 0");
            assertThatThrownBy(() -> CalibrationProfile.parse(withSim(key, "2e6"), "x.json"))
                    .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim." + key).hasMessageContaining("[0, 1e6)");
            assertThatThrownBy(() -> CalibrationProfile.parse(withSim(key, "\"a\""), "x.json"))
                    .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim." + key);
        }
        assertThatThrownBy(() -> CalibrationProfile.builtin("h200").sim().withGraphLaunch(Double.NaN, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sim.graph_launch_us");
        assertThatThrownBy(() -> CalibrationProfile.builtin("h200").sim().withGraphLaunch(1, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sim.graph_call_launch_us");
    }

    static PerfRunner runner(int n, double perGraph, double perCall) {
        CalibrationProfile p = CalibrationProfile.builtin("h200");
        p = p.withSim(p.sim().withGraphLaunch(perGraph, perCall));
        return new PerfRunner(TopologyCatalog.build("hgx-h200", BuildOptions.of(n, 1)), n, p, NcclEnv.empty(), 1);
    }

    @Test
    void graphReplayAddsTheLaterRanksLaunchesAndPerfNothing() {
        for (int n : new int[] {2, 4}) {
            for (long count : new long[] {1024, 4L << 20}) {
                PerfRow base = runner(n, 0, 0).simulateGraphReplay(CollectiveOp.ALL_GATHER, count, DataType.FLOAT32, ReduceOp.SUM, 0,
                        Algorithm.RING, Protocol.SIMPLE, 4);
                PerfRow skewed = runner(n, 10, 1.5).simulateGraphReplay(CollectiveOp.ALL_GATHER, count, DataType.FLOAT32, ReduceOp.SUM, 0,
                        Algorithm.RING, Protocol.SIMPLE, 4);
                int iters = PerfRunner.cudaPerfIterations(base.bytes());
                assertThat(skewed.timeUs() - base.timeUs()).as("n=%d count=%d", n, count).isCloseTo((n - 1) * (1.5 + 10.0 / iters), within(1e-9));
                assertThat(skewed.busbwGbps()).isLessThan(base.busbwGbps());
                assertThat(skewed.algbwGbps()).isCloseTo(skewed.bytes() / (skewed.timeUs() * 1e3), within(1e-9));
                // the simulated call itself (ccsim perf) knows nothing of the harness
                PerfRow call = runner(n, 10, 1.5).simulate(CollectiveOp.ALL_GATHER, count, DataType.FLOAT32, ReduceOp.SUM, 0,
                        Algorithm.RING, Protocol.SIMPLE, 4, PerfRunner.cudaPerfIterations(base.bytes()));
                assertThat(call.timeUs()).isEqualTo(base.timeUs());
            }
        }
    }
}
