package io.ccsim.algorithms.profile;

import io.ccsim.algorithms.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.within;

class CalibrationProfileTest {

    private static final double EPS = 1e-12;

    @Test
    void builtinProfilesCarryNcclHopperConstants() {
        for (String name : new String[] {"h100", "H200"}) {
            CalibrationProfile p = CalibrationProfile.builtin(name);
            assertThat(p.computeCapability()).isEqualTo(90);
            // tuning.cc line 151: Ring baseLat {6.6, 14.0, 8.4}, Tree {6.8, 14.0, 8.4}
            assertThat(p.protocol(Protocol.LL).baseLatencyUs()).isEqualTo(6.6);
            assertThat(p.protocol(Protocol.LL128).baseLatencyUs()).isEqualTo(14.0);
            assertThat(p.protocol(Protocol.SIMPLE).baseLatencyUs()).isEqualTo(8.4);
            assertThat(p.treeLatencies().get(Protocol.LL).baseLatencyUs()).isEqualTo(6.8);
            // line 159/165/171: Ring hwLat NVLINK {0.6,1.9,3.4}, PCI {1.0,2.5,5.7}, NET {2.7,4.0,14.0}
            assertThat(p.protocol(Protocol.SIMPLE).hopLatencyUs(LinkClass.NVLINK)).isEqualTo(3.4);
            assertThat(p.protocol(Protocol.LL128).hopLatencyUs(LinkClass.PCIE)).isEqualTo(2.5);
            assertThat(p.protocol(Protocol.LL).hopLatencyUs(LinkClass.NET)).isEqualTo(2.7);
            // Tree hwLat NVLINK {0.6,1.25,4.0}, NET {5.0,8.5,14}
            assertThat(p.treeLatencies().get(Protocol.LL128).hopLatencyUs(LinkClass.NVLINK)).isEqualTo(1.25);
            assertThat(p.treeLatencies().get(Protocol.LL).hopLatencyUs(LinkClass.NET)).isEqualTo(5.0);
            // line 188: ring LL128 per-channel cap 36.7 after the 0.92 factor
            assertThat(p.protocol(Protocol.LL128).maxChannelBwGbps() * p.tuner().ll128Efficiency())
                    .isCloseTo(36.7, within(EPS));
            TunerConstants t = p.tuner();
            assertThat(t.llMaxBwGbps()).isEqualTo(new ByNodeCount(141.0, 39.0, 20.4));
            assertThat(t.treeMaxChannelBwGbps()).isEqualTo(new ByNodeCount(38.7, 41.4, 36.0));
            assertThat(t.treeLl128MaxChannelBwGbps()).isEqualTo(new ByNodeCount(36.7, 36.7, 29.0));
            assertThat(t.treeLlFactor()).isCloseTo(1.0 / 3.8, within(EPS));
            assertThat(t.treeLl128IntraEfficiency()).isCloseTo(7.0 / 9.0, within(EPS));
            assertThat(t.treeLl128InterEfficiency()).isCloseTo(120.0 / 128.0, within(EPS));
            assertThat(t.treeCorrection(Protocol.LL, 12)).isEqualTo(.4);
            assertThat(t.treeCorrection(Protocol.SIMPLE, 0)).isEqualTo(.9);
            // the launch is part of the base latency
            for (Protocol pr : Protocol.values()) {
                assertThat(p.kernelLaunchUs()).isLessThanOrEqualTo(p.protocol(pr).baseLatencyUs());
            }
            assertThat(p.fit()).isPresent();
            assertThat(p.fit().get().source()).contains("tuning.cc");
        }
        assertThat(CalibrationProfile.builtin("h100")).isEqualTo(builtinFromConstants("H100"));
    }

    /**
     * The B200 profile (B200 and GB200) reads NCCL's Blackwell rows (tuning.cc v2.28.9): the tree caps, the ring and
     * tree LL128 caps by node count, one node's LL cap; the rest of its tuner is Hopper's, as in NCCL.
     */
    @Test
    void theB200ProfileCarriesNcclsBlackwellTunerConstants() {
        CalibrationProfile p = CalibrationProfile.builtin("b200");
        assertThat(p.computeCapability()).isEqualTo(100);
        TunerConstants t = p.tuner();
        assertThat(t).isEqualTo(NcclBlackwellConstants.tunerConstants());
        assertThat(t.treeMaxChannelBwGbps()).isEqualTo(new ByNodeCount(70.0, 42.8, 24.0));
        assertThat(t.ringLl128MaxChannelBwGbps()).isEqualTo(new ByNodeCount(73.4, 34.6, 73.4));
        assertThat(t.treeLl128MaxChannelBwGbps()).isEqualTo(new ByNodeCount(55.6, 31.67, 20.0));
        assertThat(t.llMaxBwGbps()).isEqualTo(new ByNodeCount(282.0, 39.0, 20.4));
        assertThat(p.fit().get().source()).contains("Blackwell (sm100)");
    }

    /**
     * A profile written before {@code ring_ll128_max_channel_bw_gbps} existed reads its ring LL128 cap as it did: the
     * LL128 protocol's per-channel limit times the LL128 efficiency at every node count.
     */
    @Test
    void aProfileWithoutTheRingLl128CapKeepsItsProtocolLimit(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("p.json");
        CalibrationProfile.builtin("h100").write(f);
        String json = Files.readString(f).replaceAll("\"ring_ll128_max_channel_bw_gbps\":\\s*\\{[^}]*\\},?\\s*", "");
        assertThat(json).doesNotContain("ring_ll128");
        Files.writeString(f, json);
        CalibrationProfile p = CalibrationProfile.load(f);
        double cap = p.protocol(Protocol.LL128).maxChannelBwGbps() * p.tuner().ll128Efficiency();
        assertThat(p.tuner().ringLl128MaxChannelBwGbps()).isEqualTo(new ByNodeCount(cap, cap, cap));
    }

    /** The built-in file equals what NcclHopperConstants builds, so the resource carries the cited numbers. */
    private static CalibrationProfile builtinFromConstants(String gpu) {
        CalibrationProfile file = CalibrationProfile.builtin(gpu);
        return new CalibrationProfile(gpu, 90, file.kernelLaunchUs(),
                NcclHopperConstants.ringProtocols(
                        new double[] {file.protocol(Protocol.LL).maxChannelBwGbps(), 0,
                                file.protocol(Protocol.SIMPLE).maxChannelBwGbps()}),
                NcclHopperConstants.treeLatencies(), file.reduceBwGbps(), file.copyBwGbps(), file.linkEfficiency(),
                NcclHopperConstants.tunerConstants(), file.sim(), file.fit());
    }

    @Test
    void unknownBuiltinNamesTheValidOnes() {
        assertThatThrownBy(() -> CalibrationProfile.builtin("a100"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a100").hasMessageContaining("h100, h200");
    }

    @Test
    void writeThenLoadIsIdentity(@TempDir Path dir) throws Exception {
        CalibrationProfile p = CalibrationProfile.builtin("h200");
        Path f = dir.resolve("p.json");
        p.write(f);
        CalibrationProfile back = CalibrationProfile.load(f);
        assertThat(back).isEqualTo(p);
        assertThat(back.toJson()).isEqualTo(p.toJson());
    }

    private static final CalibrationProfile H200 = CalibrationProfile.builtin("h200");

    private static String h200Json() { return H200.toJson(); }

    private static ProfileException parseError(String json) {
        return catchThrowableOfType(ProfileException.class, () -> CalibrationProfile.parse(json, "test.json"));
    }

    @Test
    void invalidJsonNamesTheSource() {
        ProfileException e = parseError("{ \"gpu\": ");
        assertThat(e.source()).isEqualTo("test.json");
        assertThat(e.jsonPath()).isEqualTo("$");
        assertThat(e).hasMessage("test.json: $: malformed JSON at line 1 column 10: the document ends early");
    }

    @Test
    void unknownKeyIsAnErrorListingValidKeys() {
        ProfileException e = parseError(h200Json().replace("\"max_channel_bw_gbps\"", "\"max_channel_bw_gbs\""));
        assertThat(e.jsonPath()).isEqualTo("$.protocols.LL.max_channel_bw_gbs");
        assertThat(e).hasMessageContaining("valid keys here: base_latency_us, max_channel_bw_gbps");
    }

    @Test
    void missingKeyIsNamed() {
        ProfileException e = parseError(h200Json().replace("\"copy_bw_gbps\": " + H200.copyBwGbps() + ",", ""));
        assertThat(e.jsonPath()).isEqualTo("$");
        assertThat(e).hasMessageContaining("missing required key 'copy_bw_gbps'");
    }

    @Test
    void wrongTypeAndRangeAreNamedWithPath() {
        ProfileException t = parseError(h200Json().replace("\"reduce_bw_gbps\": " + H200.reduceBwGbps(), "\"reduce_bw_gbps\": \"fast\""));
        assertThat(t.jsonPath()).isEqualTo("$.reduce_bw_gbps");
        assertThat(t).hasMessageContaining("expected a number, got the string \"fast\"");

        ProfileException r = parseError(h200Json().replace("\"nvlink\": " + H200.linkEfficiency(LinkClass.NVLINK), "\"nvlink\": 1.5"));
        assertThat(r.jsonPath()).isEqualTo("$.link_efficiency.nvlink");
        assertThat(r).hasMessageContaining("(0, 1]");

        ProfileException n = parseError(h200Json().replaceFirst("\"base_latency_us\": 6.6", "\"base_latency_us\": -1"));
        assertThat(n.jsonPath()).isEqualTo("$.protocols.LL.base_latency_us");

        ProfileException cc = parseError(h200Json().replace("\"compute_capability\": 90", "\"compute_capability\": 9.5"));
        assertThat(cc.jsonPath()).isEqualTo("$.compute_capability");
        assertThat(cc).hasMessageContaining("integer");
    }

    @Test
    void launchLargerThanBaseLatencyIsRejected() {
        ProfileException e = parseError(h200Json().replace("\"kernel_launch_us\": 2.5", "\"kernel_launch_us\": 7.0"));
        assertThat(e.jsonPath()).isEqualTo("$.protocols.LL.base_latency_us");
        assertThat(e).hasMessageContaining("kernel_launch_us");
    }

    @Test
    void treeCorrectionMustHave24Factors() {
        String json = h200Json().replaceFirst("\"LL\": \\[\\s*1.0,", "\"LL\": [");
        ProfileException e = parseError(json);
        assertThat(e.jsonPath()).isEqualTo("$.tuner.tree_correction.LL");
        assertThat(e).hasMessageContaining("expected 24 factors").hasMessageContaining("got 23");
    }

    @Test
    void fitIsOptional() {
        String json = h200Json();
        int i = json.indexOf(",\n  \"fit\"");
        String noFit = json.substring(0, i) + "\n}\n";
        CalibrationProfile p = CalibrationProfile.parse(noFit, "nofit.json");
        assertThat(p.fit()).isEmpty();
        assertThat(CalibrationProfile.parse(p.toJson(), "again")).isEqualTo(p);
    }

    @Test
    void loadNamesTheFileInErrors(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.json");
        Files.writeString(f, "[]");
        assertThatThrownBy(() -> CalibrationProfile.load(f)).isInstanceOf(ProfileException.class)
                .hasMessageStartingWith(f + ": $: expected a JSON object, got an array");
    }

    @Test
    void recordsValidateTheirContracts() {
        assertThatThrownBy(() -> new ProtocolCosts(1, 0, Profiles.linkMap(1, 1, 1)))
                .hasMessageContaining("maxChannelBwGbps");
        assertThatThrownBy(() -> new LatencyCosts(1, java.util.Map.of(LinkClass.NVLINK, 1.0)))
                .hasMessageContaining("pcie");
        assertThatThrownBy(() -> new ByNodeCount(1, 2, 3).forNodes(0)).hasMessageContaining("nNodes");
        assertThat(new ByNodeCount(1, 2, 3).forNodes(1)).isEqualTo(1);
        assertThat(new ByNodeCount(1, 2, 3).forNodes(2)).isEqualTo(2);
        assertThat(new ByNodeCount(1, 2, 3).forNodes(64)).isEqualTo(3);
        assertThatThrownBy(() -> LinkClass.parse("ib")).hasMessageContaining("nvlink, pcie, net");
    }
}
