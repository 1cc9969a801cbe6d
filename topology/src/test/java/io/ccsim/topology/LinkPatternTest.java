package io.ccsim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Globs match whole ids; suggestions are the named node's links, else the ids at the least edit distance. */
class LinkPatternTest {
    private static final Topology TWO = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));

    @Test
    void globsMatchWholeIdsWithStarAndQuestionMark() {
        assertThat(LinkPattern.glob("n1.nic?~*").matcher("n1.nic3~leaf.r3.0").matches()).isTrue();
        assertThat(LinkPattern.glob("n1.nic?~*").matcher("n1.nic10~leaf.r3.0").matches()).isFalse();
        assertThat(LinkPattern.glob("leaf.r3.0~spine.*").matcher("xleaf.r3.0~spine.1").matches()).isFalse();
        assertThat(LinkPattern.glob("a.b").matcher("aXb").matches()).as("dots are literal").isFalse();
        assertThat(new LinkPattern("n1.nic3~*").match(TWO)).hasSize(2);
        assertThat(new LinkPattern("n1.nic3~leaf.r3.0").isGlob()).isFalse();
    }

    @Test
    void theEditDistanceIsLevenshteinsAndStopsPastItsBound() {
        assertThat(LinkPattern.distance("kitten", "sitting", Integer.MAX_VALUE)).isEqualTo(3);
        assertThat(LinkPattern.distance("", "abc", Integer.MAX_VALUE)).isEqualTo(3);
        assertThat(LinkPattern.distance("kitten", "sitting", 1)).isGreaterThan(1);
    }

    @Test
    void aTypoIsAnsweredWithTheClosestIds() {
        assertThat(new LinkPattern("n1.nic3~leaf.r3.O").nearest(TWO)).first().isEqualTo("n1.nic3~leaf.r3.0");
        assertThat(new LinkPattern("n1.gpu9~n1.nvs0").nearest(TWO)).first().isEqualTo("n1.gpu0~n1.nvs0");
        assertThat(new LinkPattern("n1.nic3~leaf.r3.O").nearest(TWO)).hasSizeLessThanOrEqualTo(LinkPattern.SUGGESTIONS);
    }
}
