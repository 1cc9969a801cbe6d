package io.ccsim.algorithms.ddp;

import static io.ccsim.algorithms.ddp.Fixtures.MIB;
import static io.ccsim.algorithms.ddp.Fixtures.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.CollectiveOp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two buckets with known ready times and all-reduce times, worked out by hand. Forward 1 ms, backward 3.5 ms; gradient
 * g1 (4 MiB) ready at 1 ms, g0 (4 MiB) at 3 ms into backward; one bucket each (cap 4 MiB); an all-reduce of 4 MiB
 * takes 2.5 ms. Times below are from the start of backward unless said.
 */
class DdpStepTest {
    private static final StepProfile P = Fixtures.profile(MS, 3_500_000_000L,
            new Gradient("g0", 4 * MIB, 3 * MS), new Gradient("g1", 4 * MIB, MS));
    private static final CollectiveCosts COSTS = Fixtures.costs(Map.of(CollectiveOp.ALL_REDUCE, Map.of(4 * MIB, 2_500_000_000L)));
    private static final List<Bucket> BUCKETS = BucketAssigner.assign(P, 4 * MIB, 4 * MIB);

    @Test
    void bucketsFollowTheReadyOrder() {
        assertThat(BUCKETS).hasSize(2);
        assertThat(BUCKETS.get(0).params()).containsExactly(1);
        assertThat(BUCKETS.get(1).params()).containsExactly(0);
    }

    @Test
    void fullOverlapHidesTheFirstAllReduceAndExposesTheSecondOnTheOneNcclStream() {
        // AR0 1 -> 3.5; AR1 ready at 3 but the stream is busy: 3.5 -> 6.0; backward ends at 3.5
        DdpResult r = DdpStep.simulate(P, BUCKETS, COSTS, Fixtures.plain(1.0));
        assertThat(r.buckets()).extracting(BucketTiming::startPs).containsExactly(2 * MS, 4_500_000_000L);
        assertThat(r.buckets()).extracting(BucketTiming::endPs).containsExactly(4_500_000_000L, 7 * MS);
        assertThat(r.iterationPs()).isEqualTo(7 * MS);                  // 1 + 6.0
        assertThat(r.computeOnlyPs()).isEqualTo(4_500_000_000L);        // 1 + 3.5
        assertThat(r.exposedCommPs()).isEqualTo(2_500_000_000L);
        assertThat(r.commPs()).isEqualTo(5 * MS);
    }

    @Test
    void noOverlapAddsEveryAllReduceToTheCompute() {
        // compute stalls 1 -> 3.5; g0's 2 ms of work left: ready at 5.5; AR1 5.5 -> 8.0; last 0.5 ms of work -> 8.5
        DdpResult r = DdpStep.simulate(P, BUCKETS, COSTS, Fixtures.plain(0.0));
        assertThat(r.buckets().get(1).readyPs()).isEqualTo(6_500_000_000L);
        assertThat(r.iterationPs()).isEqualTo(9_500_000_000L);          // 1 + 3.5 + 2.5 + 2.5
        assertThat(r.exposedCommPs()).isEqualTo(r.commPs());
    }

    @Test
    void halfSpeedComputeDuringAnAllReduce() {
        // AR0 1 -> 3.5 while compute does 1.25 ms of work (2.25 done); 0.75 more to g0 at 4.25; AR1 4.25 -> 6.75;
        // the last 0.5 ms of work at half speed ends at 5.25, before AR1
        DdpResult r = DdpStep.simulate(P, BUCKETS, COSTS, Fixtures.plain(0.5));
        assertThat(r.buckets().get(1).startPs()).isEqualTo(5_250_000_000L);
        assertThat(r.iterationPs()).isEqualTo(7_750_000_000L);
    }

    @Test
    void theHostLaunchCostDelaysEachCall() {
        // AR0 released 1.1 -> 3.6; AR1 released max(3, 1.1) + 0.1 = 3.1, starts 3.6 -> 6.1
        StepOptions o = new StepOptions(1.0, 100_000_000L, Double.POSITIVE_INFINITY, false);
        DdpResult r = DdpStep.simulate(P, BUCKETS, COSTS, o);
        assertThat(r.buckets()).extracting(BucketTiming::releasePs).containsExactly(2_100_000_000L, 4_100_000_000L);
        assertThat(r.iterationPs()).isEqualTo(7_100_000_000L);
    }

    @Test
    void ddpsCopiesIntoTheBucketsAndBackRunOnTheComputeStream() {
        // a copy of 4 MiB takes 0.25 ms (8 MiB moved at 33.554432 GB/s). g1 ready 1, copied 1 -> 1.25: AR0 1.25 -> 3.75;
        // backward to g0 1.25 -> 3.25, copy -> 3.5; AR1 3.75 -> 6.25; backward tail 3.5 -> 4.0; copy back of bucket 0
        // 4.0 -> 4.25, of bucket 1 after AR1 6.25 -> 6.5
        StepOptions o = new StepOptions(1.0, 0, 2.0 * 4 * MIB / 0.25e-3, false);
        DdpResult r = DdpStep.simulate(P, BUCKETS, COSTS, o);
        assertThat(r.buckets()).extracting(BucketTiming::readyPs).containsExactly(2_250_000_000L, 4_500_000_000L);
        assertThat(r.copyPs()).isEqualTo(MS);
        assertThat(r.iterationPs()).isEqualTo(7_500_000_000L);
        assertThat(r.computeOnlyPs()).isEqualTo(5_500_000_000L);
        StepOptions view = new StepOptions(1.0, 0, 2.0 * 4 * MIB / 0.25e-3, true);
        assertThat(DdpStep.simulate(P, BUCKETS, COSTS, view).iterationPs()).isEqualTo(7_250_000_000L);
    }

    @Test
    void aBucketReadyBeforeAnEarlierOneWaitsForItsTurn() {
        // bucket 0 holds g0 (ready 3), bucket 1 g1 (ready 1): AR0 3 -> 5.5, then AR1 5.5 -> 8.0
        List<Bucket> swapped = List.of(new Bucket(0, new int[] {0}, 4 * MIB, 3 * MS), new Bucket(1, new int[] {1}, 4 * MIB, MS));
        DdpResult r = DdpStep.simulate(P, swapped, COSTS, Fixtures.plain(1.0));
        assertThat(r.buckets()).extracting(BucketTiming::startPs).containsExactly(4 * MS, 6_500_000_000L);
        assertThat(r.iterationPs()).isEqualTo(9 * MS);
    }

    @Test
    void bucketsMustHoldEveryParameterOnce() {
        List<Bucket> missing = List.of(new Bucket(0, new int[] {0}, 4 * MIB, 3 * MS));
        assertThatThrownBy(() -> DdpStep.simulate(P, missing, COSTS, Fixtures.plain(1)))
                .hasMessageContaining("parameter 1 is in no bucket");
        List<Bucket> twice = List.of(new Bucket(0, new int[] {0, 1}, 8 * MIB, 3 * MS), new Bucket(1, new int[] {1}, 4 * MIB, MS));
        assertThatThrownBy(() -> DdpStep.simulate(P, twice, COSTS, Fixtures.plain(1)))
                .hasMessageContaining("already in bucket 0");
    }

    @Test
    void theSweepNamesTheCapWithTheShortestStep() {
        // cap 4 MiB: two buckets, 7.0 ms (above); cap 8 MiB: one bucket of 8 MiB ready at 3, 3 -> 4.5: 1 + 4.5 = 5.5 ms
        CollectiveCosts costs = Fixtures.costs(Map.of(CollectiveOp.ALL_REDUCE,
                Map.of(4 * MIB, 2_500_000_000L, 8 * MIB, 1_500_000_000L)));
        List<DdpSweep.Point> points = DdpSweep.run(P, new double[] {4, 8}, costs, Fixtures.plain(1.0));
        assertThat(points).extracting(p -> p.result().iterationPs()).containsExactly(7 * MS, 5_500_000_000L);
        assertThat(DdpSweep.best(points).capMb()).isEqualTo(8);
        assertThat(DdpSweep.bestMeasured(points)).isEmpty();
    }
}
