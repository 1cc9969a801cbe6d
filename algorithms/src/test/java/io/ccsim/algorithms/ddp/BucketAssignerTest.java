package io.ccsim.algorithms.ddp;

import static io.ccsim.algorithms.ddp.Fixtures.MIB;
import static io.ccsim.algorithms.ddp.Fixtures.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** compute_bucket_assignment_by_size over the ready order, as PyTorch's reducer rebuilds its buckets. */
class BucketAssignerTest {
    // registration order a, b, c, d; ready order (by time) a, b, c, d
    private static final StepProfile P = Fixtures.profile(0, 4 * MS,
            new Gradient("a", 3 * MIB, 1 * MS), new Gradient("b", 1 * MIB, 2 * MS),
            new Gradient("c", 2 * MIB, 3 * MS), new Gradient("d", 5 * MIB, 4 * MS));

    @Test
    void firstBucketClosesAtItsOwnLimitThenTheCapApplies() {
        // first limit 1 MiB: a (3 >= 1) closes bucket 0; then b 1, +c 3 < 4, +d 8 >= 4 closes bucket 1
        List<Bucket> b = BucketAssigner.assign(P, 4 * MIB, 1 * MIB);
        assertThat(b).extracting(Bucket::bytes).containsExactly(3 * MIB, 8 * MIB);
        assertThat(b.get(1).params()).containsExactly(1, 2, 3);
        assertThat(b).extracting(Bucket::readyPs).containsExactly(1 * MS, 4 * MS);
    }

    @Test
    void anExplicitCapAppliesToTheFirstBucketTooAndABucketReachingItCloses() {
        // limit 4 MiB throughout: a + b = 4 >= 4 closes; c + d = 7 closes
        List<Bucket> b = BucketAssigner.assign(P, 4 * MIB, 4 * MIB);
        assertThat(b).extracting(Bucket::bytes).containsExactly(4 * MIB, 7 * MIB);
        assertThat(b).extracting(Bucket::index).containsExactly(0, 1);
    }

    @Test
    void aTensorLargerThanTheCapIsABucketOfItsOwnAndTheRestIsTheLastBucket() {
        List<Bucket> b = BucketAssigner.assign(P, 2 * MIB, 2 * MIB);
        // a 3 closes; b 1, +c 3 closes; d 5 closes
        assertThat(b).extracting(Bucket::bytes).containsExactly(3 * MIB, 3 * MIB, 5 * MIB);
        List<Bucket> one = BucketAssigner.assign(P, 100 * MIB, 100 * MIB);
        assertThat(one).hasSize(1);
        assertThat(one.get(0).params()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void equalReadyTimesGoLaterRegisteredFirstAsBackwardRunsTheModelInReverse() {
        StepProfile p = Fixtures.profile(0, MS, new Gradient("l.weight", 4 * MIB, MS), new Gradient("l.bias", 4, MS));
        assertThat(p.readyOrder()).containsExactly(1, 0);
        assertThat(BucketAssigner.assign(p, MIB, MIB).get(0).params()).containsExactly(1, 0);
    }

    @Test
    void capBytesIsDdpsIntOfMbTimesMiB() {
        assertThat(BucketAssigner.capBytes(25)).isEqualTo(26_214_400L);
        assertThat(BucketAssigner.capBytes(0.5)).isEqualTo(524_288L);
        assertThat(BucketAssigner.capBytes(1.0000001)).isEqualTo(1_048_576L);
        assertThatThrownBy(() -> BucketAssigner.capBytes(0)).hasMessageContaining("bucket_cap_mb must be a number > 0");
        assertThatThrownBy(() -> BucketAssigner.capBytes(Double.NaN)).hasMessageContaining("> 0");
    }

    @Test
    void theMeasuredMlpGetsTheBucketCountsOfItsLayerSizes() throws IOException {
        // 24 blocks: per block a 16 MiB weight with a 16 KiB bias and a 16 MiB weight with a 4 KiB bias, ready order
        // bias, weight per layer. Caps up to 16 MiB: one weight (+ its bias) per bucket, 48; 25: two weights, 24;
        // 50: four (48 MiB + biases < 50), 12; 100: seven, 7 (6 x 112 + 96 MiB); 200: thirteen, 4 (3 x 208 + 144)
        StepProfile p = measured("ddp-n4-L24-d1024-B4096.json");
        int[] caps = {1, 2, 5, 10, 25, 50, 100, 200};
        int[] buckets = {48, 48, 48, 48, 24, 12, 7, 4};
        for (int i = 0; i < caps.length; i++) {
            long cap = BucketAssigner.capBytes(caps[i]);
            assertThat(BucketAssigner.assign(p, cap, cap)).as("cap %d", caps[i]).hasSize(buckets[i]);
        }
        long cap = BucketAssigner.capBytes(200);
        // the last bucket: the first 9 linears (blocks 0-3 and block 4's first): 9 weights, 4 x (16 + 4) KiB + 16 KiB of biases
        assertThat(BucketAssigner.assign(p, cap, cap).get(3).bytes()).isEqualTo(9 * 16 * MIB + 4 * (16384 + 4096) + 16384);
    }

    static StepProfile measured(String name) throws IOException {
        try (InputStream in = BucketAssignerTest.class.getResourceAsStream("/experiments/ddp-h100x4/" + name)) {
            return StepProfileJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), name);
        }
    }
}
