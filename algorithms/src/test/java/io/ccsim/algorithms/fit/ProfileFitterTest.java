package io.ccsim.algorithms.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;
import io.ccsim.algorithms.measurements.Measurements;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ProfileFitter's options: fitting {@code sim.cta} per protocol, chosen blocks only, per-protocol forwarding-unit
 * floors, the kernel fit's blocks.
 */
class ProfileFitterTest {
    /** The NCCL calibration fixtures (graph replay on 4 × H200). */
    static final Path FIXTURES = Path.of("target", "test-classes", "experiments", "nccl-h200");
    /** The CudaExecutor's fidelity sweep on 4 × H200 and the profile fitted to it. */
    static final Path FIDELITY = Path.of("target", "test-classes", "experiments", "h200x4-fidelity");

    /** The forced Ring/LL all-gather rows of n = 2 from 1 MiB to 16 MiB (5 rows, bandwidth-bound). */
    static List<MeasuredRow> ringLlRows() throws IOException {
        return Measurements.calibrationFixture(FIXTURES.resolve("nccl-2.28.9-h200-n2.json")).stream()
                .filter(r -> r.forced() && r.op() == CollectiveOp.ALL_GATHER && r.forcedAlgo().get() == Algorithm.RING
                        && r.forcedProto().get() == Protocol.LL && r.bytes() >= 1 << 20 && r.bytes() <= 16 << 20)
                .toList();
    }

    @Test
    void ctaBlockFitsOnlyTheStreamCostsAndLowersTheLoss() throws IOException {
        List<MeasuredRow> rows = ringLlRows();
        assertThat(rows).hasSize(5);
        CalibrationProfile builtin = CalibrationProfile.builtin("h200");
        CtaCosts c = builtin.sim().ctaOf(Protocol.LL);
        // twice the fitted send cost: the rows become slower than measured, which the cta block must undo
        CalibrationProfile start = builtin.withSim(builtin.sim().withCta(Protocol.LL, c.with(3, 2 * c.sendNsPerKiB())));
        double before = FitObjective.loss(new FixturePredictor().predictAll(start, rows));
        ProfileFitter.Result r = new ProfileFitter(20, x -> true, ErrorTable.LARGE_BYTES).fit(start, rows, 1, "cta LL"::equals, step -> { });
        assertThat(r.loss()).isLessThan(before);
        assertThat(r.profile().sim().ctaOf(Protocol.LL)).isNotEqualTo(start.sim().ctaOf(Protocol.LL));
        // no other block ran: the ring LL family and everything outside sim.cta are as they were
        assertThat(r.profile().sim().get(SimCosts.Family.RING, Protocol.LL)).isEqualTo(start.sim().get(SimCosts.Family.RING, Protocol.LL));
        assertThat(r.profile().withSim(start.sim())).isEqualTo(start);
    }

    @Test
    void ctaSeedsOnlyTheNamedProtocolsAndLiftTheirLimits() {
        CalibrationProfile h200 = CalibrationProfile.builtin("h200");
        CalibrationProfile none = h200.withSim(new SimCosts(h200.sim().ring(), h200.sim().tree(), h200.sim().p2p(), h200.sim().chain(),
                h200.sim().duplexEfficiency(), java.util.Map.of()));
        CalibrationProfile seeded = KernelFit.withCtaSeeds(none, java.util.EnumSet.of(Protocol.LL128));
        assertThat(seeded.sim().cta().keySet()).containsExactly(Protocol.LL128);
        assertThat(seeded.sim().ctaOf(Protocol.LL128)).isEqualTo(KernelFit.CTA_SEEDS.get(Protocol.LL128));
        for (SimCosts.Family f : SimCosts.Family.values()) {
            assertThat(seeded.sim().get(f, Protocol.LL128).maxChannelBwGbps()).isEqualTo(400.0);
            assertThat(seeded.sim().get(f, Protocol.SIMPLE)).isEqualTo(none.sim().get(f, Protocol.SIMPLE));
        }
    }

    @Test
    void minPipelineBytesIsPerProtocolAndChecked() {
        assertThatThrownBy(() -> new ProfileFitter(20).withMinPipelineBytes(Protocol.LL, 512))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LL").hasMessageContaining("[1024, 4194304)");
        ProfileFitter f = new ProfileFitter(20).withMinPipelineBytes(Protocol.LL, 4096);
        CalibrationProfile p = CalibrationProfile.builtin("h200");
        List<FitParameter> ps = f.parameters(p);
        assertThat(ps).filteredOn(x -> x.name().equals("sim.chain.LL.pipeline_bytes")).singleElement()
                .extracting(FitParameter::lower).isEqualTo(4096.0);
        assertThat(ps).filteredOn(x -> x.name().equals("sim.ring.Simple.pipeline_bytes")).singleElement()
                .extracting(FitParameter::lower).isEqualTo(FitBlocks.NCCL_MIN_PIPELINE_BYTES);
        // the built-in has LL stream costs, so the NCCL fit has a "cta LL" block and none for LL128 or Simple
        assertThat(ps).anyMatch(x -> x.name().equals("sim.cta.LL.send_ns_per_kib"));
        assertThat(ps).noneMatch(x -> x.name().startsWith("sim.cta.Simple") || x.name().startsWith("sim.cta.LL128"));
    }

    @Test
    void aProtocolWithoutCacheEffectFitsNoL2Parameters() throws IOException {
        CalibrationProfile k = CalibrationProfile.load(FIDELITY.resolve("profile-fitted.json"));
        ProfileFitter f = ProfileFitter.forKernelTimings(20);
        // every protocol of the kernel profile has stream costs; Simple's miss factor is 1 (no cache effect)
        assertThat(k.sim().ctaOf(Protocol.SIMPLE).l2MissFactor()).isEqualTo(1.0);
        List<FitParameter> ps = f.parameters(k);
        assertThat(ps).anyMatch(x -> x.name().equals("sim.cta.Simple.send_ns_per_kib"));
        assertThat(ps).noneMatch(x -> x.name().startsWith("sim.cta.Simple.l2_"));
        assertThat(ps).anyMatch(x -> x.name().equals("sim.cta.LL128.l2_miss_factor"));
        // with a cache effect the block fits its step too
        CtaCosts withL2 = k.sim().ctaOf(Protocol.SIMPLE).with(6, 1.5);
        assertThat(f.parameters(k.withSim(k.sim().withCta(Protocol.SIMPLE, withL2))))
                .anyMatch(x -> x.name().equals("sim.cta.Simple.l2_miss_factor"))
                .anyMatch(x -> x.name().equals("sim.cta.Simple.l2_bytes"));
    }

    /**
     * The kernel fit's first block ("launch": every family's launch latency on the rows below 1 MiB) recovers a known
     * latency: rows "measured" as the predictions of the fitted profile with the measured graph launch costs (send/recv
     * Simple, n = 2 and 4, below 1 MiB), the fit starting with that family's launch latency 3 µs too high.
     */
    @Test
    void launchBlockRecoversAKnownLaunchLatency() throws IOException {
        CalibrationProfile truth = CalibrationProfile.load(FIDELITY.resolve("profile-fitted.json"));
        truth = truth.withSim(truth.sim().withGraphLaunch(10.3, 1.29));
        List<MeasuredRow> measured = Measurements.kernelTimings(FIDELITY.resolve("timing.json")).stream()
                .filter(r -> r.op() == CollectiveOp.SEND_RECV && r.forcedProto().get() == Protocol.SIMPLE && r.bytes() < (1 << 20)
                        && Long.bitCount(r.bytes()) == 1 && (Long.numberOfTrailingZeros(r.bytes()) % 4 == 0))
                .toList();
        assertThat(measured).extracting(MeasuredRow::n).contains(2, 4);
        FixturePredictor pred = new FixturePredictor();
        List<MeasuredRow> rows = new ArrayList<>();
        for (Prediction p : pred.predictAll(truth, measured)) rows.add(p.row().withTime(p.row().where(), p.timeUs()));
        SimProtocolCosts c = truth.sim().get(SimCosts.Family.P2P, Protocol.SIMPLE);
        CalibrationProfile start = truth.withSim(truth.sim().with(SimCosts.Family.P2P, Protocol.SIMPLE,
                c.withLatencies(c.launchLatencyUs() + 3, c.hopLatencyUs())));
        ProfileFitter.Result r = ProfileFitter.forKernelTimings(20).fit(start, rows, 1, "launch"::equals, step -> { });
        assertThat(r.profile().sim().get(SimCosts.Family.P2P, Protocol.SIMPLE).launchLatencyUs()).isCloseTo(c.launchLatencyUs(), within(0.3));
        assertThat(r.loss()).isLessThan(FitObjective.loss(pred.predictAll(start, rows)) / 10);
        // the graph launch costs are measured, not fitted
        assertThat(r.profile().sim().graphLaunchUs()).isEqualTo(10.3);
    }
}
