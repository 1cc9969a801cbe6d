package io.ccsim.algorithms.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.Protocol;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** The profile's {@code sim} section: round trip, strict validation with JSON paths, separation from the Tuner's constants. */
class SimSectionJsonTest {

    @Test
    void builtinProfilesRoundTrip() {
        for (String name : CalibrationProfile.BUILTIN_NAMES) {
            CalibrationProfile p = CalibrationProfile.builtin(name);
            assertThat(CalibrationProfile.parse(p.toJson(), "round trip")).isEqualTo(p);
        }
    }

    @Test
    void tunerSectionsKeepNcclConstants() {
        // NCCL src/graph/tuning.cc (compCap 90): ring baseLat {6.6, 14.0, 8.4}, NVLink hwLat {0.6, 1.9, 3.4}
        for (String name : CalibrationProfile.BUILTIN_NAMES) {
            CalibrationProfile p = CalibrationProfile.builtin(name);
            assertThat(p.protocol(Protocol.LL).baseLatencyUs()).isEqualTo(6.6);
            assertThat(p.protocol(Protocol.LL128).baseLatencyUs()).isEqualTo(14.0);
            assertThat(p.protocol(Protocol.SIMPLE).baseLatencyUs()).isEqualTo(8.4);
            assertThat(p.protocol(Protocol.SIMPLE).hopLatencyUs(LinkClass.NVLINK)).isEqualTo(3.4);
            assertThat(p.treeLatencies()).isEqualTo(NcclHopperConstants.treeLatencies());
            assertThat(p.protocol(Protocol.LL128).maxChannelBwGbps()).isEqualTo(36.7 / 0.92);
        }
    }

    @Test
    void simSectionIsRequired() {
        String json = CalibrationProfile.builtin("h200").toJson().replaceFirst("\"sim\"", "\"simulator\"");
        assertThatThrownBy(() -> CalibrationProfile.parse(json, "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("x.json").hasMessageContaining("$.simulator").hasMessageContaining("sim");
    }

    @Test
    void pipelineBytesMustBeAWholePositiveNumber() {
        String good = CalibrationProfile.builtin("h200").toJson();
        long pb = CalibrationProfile.builtin("h200").sim().get(SimCosts.Family.RING, Protocol.LL).pipelineBytes();
        String bad = good.replaceFirst("\"pipeline_bytes\": " + pb, "\"pipeline_bytes\": 0.5");
        assertThat(bad).isNotEqualTo(good);
        assertThatThrownBy(() -> CalibrationProfile.parse(bad, "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.ring.LL.pipeline_bytes").hasMessageContaining("whole number of bytes");
    }

    @Test
    void unknownSimKeyNamesTheValidOnes() {
        String bad = CalibrationProfile.builtin("h200").toJson().replaceFirst("\"launch_latency_us\"", "\"launch_us\"");
        assertThatThrownBy(() -> CalibrationProfile.parse(bad, "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.ring.LL.launch_us").hasMessageContaining("launch_latency_us, step_overhead_ns");
    }

    @Test
    void simFamiliesAreRequired() {
        String bad = CalibrationProfile.builtin("h200").toJson().replaceFirst("\"p2p\"", "\"pp\"");
        assertThatThrownBy(() -> CalibrationProfile.parse(bad, "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.pp").hasMessageContaining("ring, tree, p2p");
    }

    @Test
    void chainIsOptionalAndThenEqualsTheRing() {
        CalibrationProfile h = CalibrationProfile.builtin("h200");
        com.google.gson.JsonObject o = com.google.gson.JsonParser.parseString(h.toJson()).getAsJsonObject();
        assertThat(o.getAsJsonObject("sim").remove("chain")).isNotNull();
        CalibrationProfile p = CalibrationProfile.parse(o.toString(), "no-chain.json");
        for (Protocol pr : Protocol.values()) {
            assertThat(p.sim().get(SimCosts.Family.CHAIN, pr)).isEqualTo(h.sim().get(SimCosts.Family.RING, pr));
            assertThat(p.sim().get(SimCosts.Family.RING, pr)).isEqualTo(h.sim().get(SimCosts.Family.RING, pr));
        }
        // written back, the chain is explicit and reads back equal
        assertThat(p.toJson()).contains("\"chain\"");
        assertThat(CalibrationProfile.parse(p.toJson(), "round trip")).isEqualTo(p);
    }

    @Test
    void chainSectionIsValidatedLikeTheOthers() {
        CalibrationProfile h = CalibrationProfile.builtin("h200");
        com.google.gson.JsonObject o = com.google.gson.JsonParser.parseString(h.toJson()).getAsJsonObject();
        o.getAsJsonObject("sim").getAsJsonObject("chain").remove("LL128");
        assertThatThrownBy(() -> CalibrationProfile.parse(o.toString(), "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.chain").hasMessageContaining("LL128");
        String bad = h.toJson().replaceFirst("\"chain\"", "\"chains\"");
        assertThatThrownBy(() -> CalibrationProfile.parse(bad, "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.chains").hasMessageContaining("ring, tree, p2p, chain");
    }

    @Test
    void simCostsRejectBadValues() {
        assertThatThrownBy(() -> new SimProtocolCosts(1, 1, Profiles.linkMap(1, 1, 1), 10, 0))
                .hasMessageContaining("pipelineBytes must be >= 1");
        assertThatThrownBy(() -> new SimProtocolCosts(-1, 1, Profiles.linkMap(1, 1, 1), 10, 1))
                .hasMessageContaining("launchLatencyUs");
    }

    /** The built-in h200 JSON with its {@code sim.duplex_efficiency} object replaced by {@code replacement} ("" drops it). */
    private static String withDuplex(String replacement) {
        String json = CalibrationProfile.builtin("h200").toJson();
        String out = json.replaceFirst(",\\s*\"duplex_efficiency\": \\{[^}]*\\}", replacement);
        assertThat(out).isNotEqualTo(json);
        return out;
    }

    @Test
    void duplexEfficiencyIsOptionalAndDefaultsToIndependentDirections() {
        CalibrationProfile p = CalibrationProfile.parse(withDuplex(""), "x.json");
        for (LinkClass c : LinkClass.values()) assertThat(p.sim().duplexEfficiency(c)).isEqualTo(1.0);
        assertThat(p.sim().duplexEfficiency()).isEqualTo(SimCosts.INDEPENDENT_DIRECTIONS);
        // the built-in h200 carries the fitted NVLink value, strictly inside (0, 1)
        double nvl = CalibrationProfile.builtin("h200").sim().duplexEfficiency(LinkClass.NVLINK);
        assertThat(nvl).isGreaterThan(0.5).isLessThan(1.0);
        for (String name : CalibrationProfile.BUILTIN_NAMES) {
            assertThat(CalibrationProfile.builtin(name).sim().duplexEfficiency(LinkClass.NVLINK)).as(name).isEqualTo(nvl);
        }
    }

    @Test
    void duplexEfficiencyIsValidatedStrictly() {
        assertThatThrownBy(() -> CalibrationProfile.parse(withDuplex(", \"duplex_efficiency\": {\"nvlink\": 1.2, \"pcie\": 1, \"net\": 1}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("x.json")
                .hasMessageContaining("$.sim.duplex_efficiency.nvlink").hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> CalibrationProfile.parse(withDuplex(", \"duplex_efficiency\": {\"nvlink\": 0.9, \"pcie\": 1}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.duplex_efficiency")
                .hasMessageContaining("missing required key 'net'");
        assertThatThrownBy(() -> CalibrationProfile.parse(withDuplex(", \"duplex_efficiency\": {\"nvlnk\": 0.9, \"pcie\": 1, \"net\": 1}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.duplex_efficiency.nvlnk")
                .hasMessageContaining("nvlink, pcie, net");
        assertThatThrownBy(() -> CalibrationProfile.builtin("h200").sim().withDuplexEfficiency(LinkClass.NET, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sim.duplex_efficiency.net must be in (0, 1]");
    }

    /** The built-in h200 JSON with {@code sim.multi_peer_efficiency} set to {@code value} (JSON text; null drops it). */
    private static String withMultiPeer(String value) {
        com.google.gson.JsonObject o = com.google.gson.JsonParser.parseString(CalibrationProfile.builtin("h200").toJson()).getAsJsonObject();
        com.google.gson.JsonObject sim = o.getAsJsonObject("sim");
        assertThat(sim.has("multi_peer_efficiency")).isTrue();
        if (value == null) sim.remove("multi_peer_efficiency");
        else sim.add("multi_peer_efficiency", com.google.gson.JsonParser.parseString(value));
        return o.toString();
    }

    @Test
    void multiPeerEfficiencyIsOptionalPerProtocolAndRoundTrips() {
        CalibrationProfile none = CalibrationProfile.parse(withMultiPeer(null), "x.json");
        for (Protocol p : Protocol.values()) assertThat(none.sim().multiPeerEfficiency(p)).isEqualTo(1.0);
        assertThat(com.google.gson.JsonParser.parseString(none.toJson()).getAsJsonObject().getAsJsonObject("sim").has("multi_peer_efficiency"))
                .isFalse();
        CalibrationProfile p = CalibrationProfile.parse(withMultiPeer("{\"LL\": 0.7, \"LL128\": 0.8, \"Simple\": 1}"), "x.json");
        assertThat(p.sim().multiPeerEfficiency(Protocol.LL)).isEqualTo(0.7);
        assertThat(p.sim().multiPeerEfficiency(Protocol.LL128)).isEqualTo(0.8);
        assertThat(p.sim().multiPeerEfficiency(Protocol.SIMPLE)).isEqualTo(1.0);
        assertThat(CalibrationProfile.parse(p.toJson(), "y.json").sim()).isEqualTo(p.sim());
        // the built-in NCCL profiles carry the fitted values, strictly inside (0, 1)
        for (Protocol q : Protocol.values()) {
            assertThat(CalibrationProfile.builtin("h200").sim().multiPeerEfficiency(q)).as(q.ncclName()).isGreaterThan(0.5).isLessThan(1.0);
        }
    }

    @Test
    void multiPeerEfficiencyIsValidatedStrictly() {
        assertThatThrownBy(() -> CalibrationProfile.parse(withMultiPeer("{\"LL\": 1.5, \"LL128\": 1, \"Simple\": 1}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("x.json")
                .hasMessageContaining("$.sim.multi_peer_efficiency.LL").hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> CalibrationProfile.parse(withMultiPeer("{\"LL\": 1, \"LL128\": 1, \"Simple\": 1, \"nvlink\": 0.9}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.multi_peer_efficiency.nvlink")
                .hasMessageContaining("LL, LL128, Simple");
        assertThatThrownBy(() -> CalibrationProfile.parse(withMultiPeer("{\"LL\": 1, \"Simple\": 1}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("missing required key 'LL128'");
        assertThatThrownBy(() -> CalibrationProfile.builtin("h200").sim().withMultiPeerEfficiency(Protocol.SIMPLE, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sim.multi_peer_efficiency.Simple must be in (0, 1]");
    }

    /** The built-in h200 JSON with {@code sim.cta} set to {@code cta} (a JSON object text). */
    private static String withCta(String cta) {
        String json = CalibrationProfile.builtin("h200").toJson();
        com.google.gson.JsonObject o = com.google.gson.JsonParser.parseString(json).getAsJsonObject();
        o.getAsJsonObject("sim").add("cta", com.google.gson.JsonParser.parseString(cta));
        return o.toString();
    }

    private static final String LL = "\"LL\": {\"recv_ns_per_kib\": 30, \"src_ns_per_kib\": 60, \"dst_ns_per_kib\": 40,"
            + " \"send_ns_per_kib\": 70, \"reduce_ns_per_kib\": 20";

    @Test
    void ctaIsOptionalPerProtocolAndRoundTrips() {
        CalibrationProfile p = CalibrationProfile.parse(withCta("{" + LL + ", \"l2_bytes\": 5e7, \"l2_miss_factor\": 1.4}}"), "x.json");
        assertThat(p.sim().ctaOf(Protocol.LL)).isEqualTo(new CtaCosts(30, 60, 40, 70, 20, 5e7, 1.4));
        assertThat(p.sim().ctaOf(Protocol.SIMPLE)).isNull();
        assertThat(CalibrationProfile.parse(p.toJson(), "round trip")).isEqualTo(p);
        // l2 keys are optional: no cache effect
        CalibrationProfile q = CalibrationProfile.parse(withCta("{" + LL + "}}"), "x.json");
        assertThat(q.sim().ctaOf(Protocol.LL).l2MissFactor()).isEqualTo(1.0);
        assertThat(q.sim().ctaOf(Protocol.LL).bufferFactor(1e12)).isEqualTo(1.0);
        // channel_load is optional (no load effect) and round-trips
        assertThat(q.sim().ctaOf(Protocol.LL).loadFactor(64)).isEqualTo(1.0);
        CalibrationProfile r = CalibrationProfile.parse(withCta("{" + LL + ", \"channel_load\": 0.0125}}"), "x.json");
        assertThat(r.sim().ctaOf(Protocol.LL)).isEqualTo(new CtaCosts(30, 60, 40, 70, 20, CtaCosts.DEFAULT_L2_BYTES, 1.0, 0.0125));
        assertThat(r.sim().ctaOf(Protocol.LL).loadFactor(17)).isEqualTo(1.2);
        assertThat(CalibrationProfile.parse(r.toJson(), "round trip")).isEqualTo(r);
        // send_overlap is optional (0: the streams add up) and round-trips
        assertThat(q.sim().ctaOf(Protocol.LL).sendOverlap()).isZero();
        CalibrationProfile o = CalibrationProfile.parse(withCta("{" + LL + ", \"send_overlap\": 0.4}}"), "x.json");
        assertThat(o.sim().ctaOf(Protocol.LL)).isEqualTo(new CtaCosts(30, 60, 40, 70, 20, CtaCosts.DEFAULT_L2_BYTES, 1.0, 0.0, 0.4));
        assertThat(CalibrationProfile.parse(o.toJson(), "round trip")).isEqualTo(o);
        // send_overlap_loads is optional (1: the send overlaps all local work), round-trips, and is written only below 1
        assertThat(o.sim().ctaOf(Protocol.LL).sendOverlapLoads()).isEqualTo(CtaCosts.ALL_LOCAL_WORK);
        assertThat(o.toJson()).doesNotContain("send_overlap_loads");
        CalibrationProfile k = CalibrationProfile.parse(withCta("{" + LL + ", \"send_overlap\": 0.4, \"send_overlap_loads\": 0.25}}"), "x.json");
        assertThat(k.sim().ctaOf(Protocol.LL))
                .isEqualTo(new CtaCosts(30, 60, 40, 70, 20, CtaCosts.DEFAULT_L2_BYTES, 1.0, 0.0, 0.4, 0.0, 0.0, 0.25));
        assertThat(k.toJson()).contains("\"send_overlap_loads\": 0.25");
        assertThat(CalibrationProfile.parse(k.toJson(), "round trip")).isEqualTo(k);
        // the built-in profiles carry the H200 NCCL fit's LL stream costs only (LL128 and Simple keep per-channel limits)
        for (String name : CalibrationProfile.BUILTIN_NAMES) {
            assertThat(CalibrationProfile.builtin(name).sim().cta().keySet()).as(name).containsExactly(Protocol.LL);
            assertThat(CalibrationProfile.builtin(name).sim()).as(name).isEqualTo(CalibrationProfile.builtin("h200").sim());
        }
    }

    @Test
    void ctaIsValidatedStrictly() {
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{\"LL64\": {}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL64").hasMessageContaining("LL, LL128, Simple");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{\"LL\": {\"recv_ns_per_kib\": 1}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL").hasMessageContaining("missing required key 'src_ns_per_kib'");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL + ", \"l2_miss_factor\": 0.5}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL.l2_miss_factor").hasMessageContaining(">= 1");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL + ", \"channel_load\": -0.01}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL").hasMessageContaining("channel_load");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL + ", \"channel_load\": 2}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL.channel_load").hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL + ", \"send_overlap\": 1.5}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL.send_overlap").hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL + ", \"send_overlap\": -0.1}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL").hasMessageContaining("send_overlap");
        assertThatThrownBy(() -> new CtaCosts(1, 1, 1, 1, 1, 1e6, 1.0, 0.0, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sendOverlap");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL + ", \"send_overlap_loads\": 1.2}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL.send_overlap_loads").hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL + ", \"send_overlap_loads\": -0.5}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL").hasMessageContaining("send_overlap_loads");
        assertThatThrownBy(() -> new CtaCosts(1, 1, 1, 1, 1, 1e6, 1.0, 0.0, 0.5, 0.0, 0.0, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sendOverlapLoads");
        assertThatThrownBy(() -> new CtaCosts(1, 1, 1, 1, 1, 1e6, 1.0, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("channelLoad");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL + ", \"l2_bytes\": 0}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL.l2_bytes");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL.replaceAll("\\d+", "0") + "}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL").hasMessageContaining("all five costs are 0");
        assertThatThrownBy(() -> CalibrationProfile.parse(withCta("{" + LL + ", \"l1_bytes\": 1}}"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.cta.LL.l1_bytes").hasMessageContaining("l2_miss_factor");
    }

    @Test
    void bufferFactorIsASmoothStepAtL2() {
        CtaCosts c = new CtaCosts(1, 1, 1, 1, 1, 1e6, 3.0);
        // 1 + (m - 1)(1 - h), h = 1 / (1 + (W / l2)^8)
        assertThat(c.bufferFactor(1e6)).isCloseTo(1 + 2.0 * 0.5, within(1e-12));
        assertThat(c.bufferFactor(0.5e6)).isCloseTo(1 + 2.0 * (1 - 1 / (1 + Math.pow(0.5, 8))), within(1e-12));
        assertThat(c.bufferFactor(1e9)).isCloseTo(3.0, within(1e-9));
        // ps per byte = ns/KiB * 1000 / 1024, src and dst scaled
        assertThat(c.psPerByte(1, true, true, 2, true, 2.0)).isCloseTo((1 + 2 + 2 + 2 + 1) * 1000.0 / 1024, within(1e-12));
    }

    @Test
    void sendOverlapHidesPartOfTheShorterOfLocalAndRemoteWork() {
        // recv 10, src 20, dst 6, send 30, reduce 2 ns/KiB, overlap 0.4: ns = local + remote - 0.4 min(local, remote)
        CtaCosts c = new CtaCosts(10, 20, 6, 30, 2, 1e6, 1.0, 0.0, 0.4);
        DoubleUnaryOperator ps = ns -> ns * 1000.0 / 1024;
        // send (src + one peer): local 20, remote 30 -> 50 - 0.4 x 20 = 42
        assertThat(c.psPerByte(0, true, false, 1, false, 1.0)).isCloseTo(ps.applyAsDouble(42), within(1e-12));
        // copySend (src + dst + one peer): local 26, remote 30 -> 56 - 0.4 x 26 = 45.6
        assertThat(c.psPerByte(0, true, true, 1, false, 1.0)).isCloseTo(ps.applyAsDouble(45.6), within(1e-12));
        // recvReduceCopySend (recv + src + dst + reduce + one peer): local 38 > remote 30 -> 68 - 0.4 x 30 = 56
        assertThat(c.psPerByte(1, true, true, 1, true, 1.0)).isCloseTo(ps.applyAsDouble(56), within(1e-12));
        // nothing sent: nothing to overlap (recv + dst = 16)
        assertThat(c.psPerByte(1, false, true, 0, false, 1.0)).isCloseTo(ps.applyAsDouble(16), within(1e-12));
        // overlap 0 is the plain sum; overlap 1 the larger of the two
        assertThat(new CtaCosts(10, 20, 6, 30, 2, 1e6, 1.0, 0.0, 0.0).psPerByte(0, true, true, 1, false, 1.0))
                .isCloseTo(ps.applyAsDouble(56), within(1e-12));
        assertThat(new CtaCosts(10, 20, 6, 30, 2, 1e6, 1.0, 0.0, 1.0).psPerByte(0, true, true, 1, false, 1.0))
                .isCloseTo(ps.applyAsDouble(30), within(1e-12));
    }

    @Test
    void sendOverlapLoadsNarrowsWhatTheSendHidesBehind() {
        // recv 10, src 20, dst 6, send 30, reduce 2 ns/KiB, overlap 0.4, k = 0.5:
        // ns = local + remote - 0.4 min(dst + 0.5 (local - dst), remote)
        CtaCosts c = new CtaCosts(10, 20, 6, 30, 2, 1e6, 1.0, 0.0, 0.4, 0.0, 0.0, 0.5);
        DoubleUnaryOperator ps = ns -> ns * 1000.0 / 1024;
        // send (src + one peer): no output store, overlapped 0.5 x 20 = 10 -> 50 - 4 = 46
        assertThat(c.psPerByte(0, true, false, 1, false, 1.0)).isCloseTo(ps.applyAsDouble(46), within(1e-12));
        // recvReduceSend (recv + src + reduce + one peer): overlapped 0.5 x 32 = 16 -> 62 - 6.4 = 55.6
        assertThat(c.psPerByte(1, true, false, 1, true, 1.0)).isCloseTo(ps.applyAsDouble(55.6), within(1e-12));
        // recvReduceCopySend: local 38, overlapped 6 + 0.5 x 32 = 22 -> 68 - 8.8 = 59.2
        assertThat(c.psPerByte(1, true, true, 1, true, 1.0)).isCloseTo(ps.applyAsDouble(59.2), within(1e-12));
        // the output store's L2 factor scales what it overlaps: dst 6 x 2 = 12, src 40: overlapped 12 + 0.5 x 40 = 32,
        // above the remote 30 -> local 52, 82 - 0.4 x 30 = 70; with send 40 the overlapped 32 is the shorter: 92 - 12.8
        assertThat(c.psPerByte(0, true, true, 1, false, 2.0)).isCloseTo(ps.applyAsDouble(70), within(1e-12));
        assertThat(c.with(3, 40).psPerByte(0, true, true, 1, false, 2.0)).isCloseTo(ps.applyAsDouble(92 - 12.8), within(1e-12));
        // k = 0: only the output store; a send step without one pays the plain sum (50)
        CtaCosts k0 = new CtaCosts(10, 20, 6, 30, 2, 1e6, 1.0, 0.0, 0.4, 0.0, 0.0, 0.0);
        assertThat(k0.psPerByte(0, true, false, 1, false, 1.0)).isCloseTo(ps.applyAsDouble(50), within(1e-12));
        assertThat(k0.psPerByte(0, true, true, 1, false, 1.0)).isCloseTo(ps.applyAsDouble(56 - 0.4 * 6), within(1e-12));
        // k = 1 is the form without the key, bit for bit
        CtaCosts k1 = new CtaCosts(10, 20, 6, 30, 2, 1e6, 1.0, 0.0, 0.4, 0.0, 0.0, 1.0);
        CtaCosts plain = new CtaCosts(10, 20, 6, 30, 2, 1e6, 1.0, 0.0, 0.4);
        assertThat(k1).isEqualTo(plain);
        assertThat(k1.narrowsOverlap()).isFalse();
        assertThat(k0.narrowsOverlap()).isTrue();
    }

    @Test
    void channelSkewIsOptionalRoundTripsAndIsValidated() {
        CalibrationProfile h = CalibrationProfile.builtin("h200");
        assertThat(h.sim().channelSkewNs()).isZero();
        assertThat(h.toJson()).doesNotContain("channel_skew_ns");
        CalibrationProfile s = h.withSim(h.sim().withChannelSkew(20));
        assertThat(s.toJson()).contains("\"channel_skew_ns\": 20.0");
        assertThat(CalibrationProfile.parse(s.toJson(), "round trip")).isEqualTo(s);
        String json = s.toJson();
        assertThatThrownBy(() -> CalibrationProfile.parse(json.replace("\"channel_skew_ns\": 20.0", "\"channel_skew_ns\": -1"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.channel_skew_ns");
        assertThatThrownBy(() -> CalibrationProfile.parse(json.replace("\"channel_skew_ns\": 20.0", "\"channel_skew_ns\": 2e6"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.channel_skew_ns").hasMessageContaining("[0, 1e6)");
        assertThatThrownBy(() -> CalibrationProfile.parse(json.replace("\"channel_skew_ns\": 20.0", "\"channel_skew_ns\": \"x\""), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.channel_skew_ns");
        assertThatThrownBy(() -> h.sim().withChannelSkew(Double.NaN)).hasMessageContaining("sim.channel_skew_ns must be in [0, 1e6)");
    }

    /**
     * sim.framework_call_us: the built-in profiles' 5 µs, written back, 0 (and not written) where absent, validated; NCCL's
     * own call is each call less it, never below half the call.
     */
    @Test
    void frameworkCallIsOptionalRoundTripsAndIsValidated() {
        CalibrationProfile h = CalibrationProfile.builtin("h200");
        assertThat(h.sim().frameworkCallUs()).isEqualTo(5.0);
        assertThat(h.toJson()).contains("\"framework_call_us\": 5.0");
        assertThat(CalibrationProfile.parse(h.toJson(), "round trip")).isEqualTo(h);
        CalibrationProfile none = h.withSim(h.sim().withFrameworkCallUs(0));
        assertThat(none.toJson()).doesNotContain("framework_call_us");
        assertThat(CalibrationProfile.parse(none.toJson(), "round trip").sim().frameworkCallUs()).isZero();
        assertThat(h.sim().ownCallUs(12.76)).isCloseTo(7.76, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(h.sim().ownCallUs(6.0)).isEqualTo(3.0);
        assertThat(none.sim().ownCallUs(12.76)).isEqualTo(12.76);
        String json = h.toJson();
        assertThatThrownBy(() -> CalibrationProfile.parse(json.replace("\"framework_call_us\": 5.0", "\"framework_call_us\": -1"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.framework_call_us");
        assertThatThrownBy(() -> CalibrationProfile.parse(json.replace("\"framework_call_us\": 5.0", "\"framework_call_us\": 2e6"), "x.json"))
                .isInstanceOf(ProfileException.class).hasMessageContaining("$.sim.framework_call_us").hasMessageContaining("[0, 1e6)");
        assertThatThrownBy(() -> h.sim().withFrameworkCallUs(Double.NaN)).hasMessageContaining("sim.framework_call_us must be in [0, 1e6)");
    }

    /** sim.p2p.Simple.registered_channel_bw_gbps: read, written back, positive, and nowhere else. */
    @Test
    void registeredChannelBandwidthIsP2pSimplesOnly() {
        CalibrationProfile h200 = CalibrationProfile.builtin("h200");
        SimProtocolCosts p2p = h200.sim().get(SimCosts.Family.P2P, Protocol.SIMPLE);
        assertThat(p2p.hasRegisteredChannelBw()).isTrue();
        assertThat(p2p.registeredChannelBwGbps()).isEqualTo(40.0);
        assertThat(h200.sim().get(SimCosts.Family.RING, Protocol.SIMPLE).hasRegisteredChannelBw()).isFalse();
        String json = h200.toJson();
        assertThat(CalibrationProfile.parse(json, "round trip")).isEqualTo(h200);
        String key = "\"registered_channel_bw_gbps\": 40.0";
        assertThat(json).contains(key);
        assertThatThrownBy(() -> CalibrationProfile.parse(json.replace(key, "\"registered_channel_bw_gbps\": -1"), "x.json"))
                .hasMessageContaining("x.json").hasMessageContaining("$.sim.p2p.Simple.registered_channel_bw_gbps");
        // the ring's Simple section with the key: refused, naming where and where it belongs
        String ring = json.replace("\"max_channel_bw_gbps\": 28.297432643013334,",
                "\"max_channel_bw_gbps\": 28.297432643013334, \"registered_channel_bw_gbps\": 40.0,");
        assertThat(ring).isNotEqualTo(json);
        assertThatThrownBy(() -> CalibrationProfile.parse(ring, "x.json"))
                .hasMessageContaining("$.sim.ring.Simple.registered_channel_bw_gbps").hasMessageContaining("only $.sim.p2p.Simple");
        // without it a profile still parses, and cannot simulate registered buffers
        CalibrationProfile none = CalibrationProfile.parse(json.replace(key + ",", ""), "x.json");
        assertThat(none.sim().get(SimCosts.Family.P2P, Protocol.SIMPLE).hasRegisteredChannelBw()).isFalse();
    }
}
