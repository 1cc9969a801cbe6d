package io.ccsim.algorithms.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.Protocol;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The optional {@code sim.<family>.<protocol>.lane_shares}: round trip, default, and errors naming the JSON path. */
class LaneSharesJsonTest {

    /** The h200 profile's JSON with {@code sim.tree.LL.lane_shares} set to {@code value} (raw JSON). */
    static String withTreeLlShares(String value) {
        JsonObject o = JsonParser.parseString(CalibrationProfile.builtin("h200").toJson()).getAsJsonObject();
        JsonObject ll = o.getAsJsonObject("sim").getAsJsonObject("tree").getAsJsonObject("LL");
        ll.remove("lane_shares");
        ll.add("lane_shares", JsonParser.parseString(value));
        return o.toString();
    }

    @Test
    void sharesRoundTripAndAbsentMeansTheWholeBlock() {
        CalibrationProfile p = CalibrationProfile.parse(withTreeLlShares("[0.7, 0.3]"), "x.json");
        SimProtocolCosts ll = p.sim().get(SimCosts.Family.TREE, Protocol.LL);
        assertThat(ll.laneShares()).containsExactly(0.7, 0.3);
        assertThat(ll.laneShare(0)).isEqualTo(0.7);
        assertThat(ll.laneShare(1)).isEqualTo(0.3);
        assertThat(CalibrationProfile.parse(p.toJson(), "round trip")).isEqualTo(p);
        // absent: no shares, every lane runs on the whole block, and nothing is written
        SimProtocolCosts ring = p.sim().get(SimCosts.Family.RING, Protocol.LL);
        assertThat(ring.laneShares()).isEmpty();
        assertThat(ring.laneShare(0)).isEqualTo(1.0);
        assertThat(ring.laneShare(1)).isEqualTo(1.0);
        JsonObject ringJson = JsonParser.parseString(p.toJson()).getAsJsonObject().getAsJsonObject("sim")
                .getAsJsonObject("ring").getAsJsonObject("LL");
        assertThat(ringJson.has("lane_shares")).isFalse();
    }

    @Test
    void sharesMustBeFractionsOfTheBlock() {
        assertThatThrownBy(() -> CalibrationProfile.parse(withTreeLlShares("[0.7, 0]"), "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("x.json").hasMessageContaining("$.sim.tree.LL.lane_shares[1]").hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> CalibrationProfile.parse(withTreeLlShares("[1.5, 0.3]"), "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.tree.LL.lane_shares[0]").hasMessageContaining("got 1.5");
        assertThatThrownBy(() -> CalibrationProfile.parse(withTreeLlShares("[0.7, \"a\"]"), "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.tree.LL.lane_shares[1]").hasMessageContaining("expected a number");
    }

    @Test
    void sharesListTwoOrThreeLanes() {
        assertThatThrownBy(() -> CalibrationProfile.parse(withTreeLlShares("[0.7]"), "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.tree.LL.lane_shares").hasMessageContaining("expected 2 or 3 fractions").hasMessageContaining("got 1");
        assertThatThrownBy(() -> CalibrationProfile.parse(withTreeLlShares("[0.5, 0.5, 0.5, 0.5]"), "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.tree.LL.lane_shares").hasMessageContaining("expected 2 or 3 fractions").hasMessageContaining("got 4");
        // three: all-to-all's point-to-point plan has a third lane (the own block's copy)
        CalibrationProfile three = CalibrationProfile.parse(withTreeLlShares("[0.5, 0.4, 1.0]"), "x.json");
        assertThat(three.sim().get(SimCosts.Family.TREE, Protocol.LL).laneShares()).containsExactly(0.5, 0.4, 1.0);
        assertThat(CalibrationProfile.parse(three.toJson(), "round trip")).isEqualTo(three);
        assertThatThrownBy(() -> CalibrationProfile.parse(withTreeLlShares("0.7"), "x.json"))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("$.sim.tree.LL.lane_shares").hasMessageContaining("expected an array");
    }

    @Test
    void recordRejectsBadShares() {
        SimProtocolCosts c = CalibrationProfile.builtin("h200").sim().get(SimCosts.Family.RING, Protocol.LL);
        assertThatThrownBy(() -> c.withLaneShares(List.of(0.5, -0.1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("laneShares[1]").hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> c.withLaneShares(List.of(0.5)).laneShare(1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lane 1 has no share");
        // the copies keep the shares
        SimProtocolCosts s = c.withLaneShares(SimProtocolCosts.NCCL_TREE_LL_SHARES);
        assertThat(s.withMaxChannelBwGbps(3).withStepOverheadNs(1).withPipelineBytes(7).laneShares()).containsExactly(0.7, 0.3);
        // NCCL's split (runTreeSplit): 448 and 192 of 640 threads; Simple 384 and 256
        assertThat(SimProtocolCosts.NCCL_TREE_LL_SHARES).containsExactly(0.7, 0.3);
        assertThat(SimProtocolCosts.NCCL_TREE_SIMPLE_SHARES).containsExactly(0.6, 0.4);
    }
}
