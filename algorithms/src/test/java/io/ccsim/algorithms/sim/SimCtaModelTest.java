package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.fit.FitParameter;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.TopologyCatalog;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The thread-block stream model ({@code sim.cta}): a step's rate is 1 / (sum of the costs of the streams its
 * primitive touches), src/dst costs scaled when the working set misses L2. Latencies are zeroed and the
 * forwarding unit is larger than the step, so that the times below are the stream costs alone, written out.
 */
class SimCtaModelTest {
    // ns per KiB: recv, src, dst, send, reduce (all far slower than an NVLink, so the block sets the rate)
    static final double RECV = 300, SRC = 200, DST = 100, SEND = 400, RED = 50;
    static final long BYTES = 256L << 10; // one Simple step per rank at 1 channel (the slot holds 512 KiB)

    static CalibrationProfile profile(CtaCosts cta) {
        CalibrationProfile p = CalibrationProfile.builtin("h200");
        SimCosts s = p.sim();
        Map<LinkClass, Double> zero = new EnumMap<>(LinkClass.class);
        for (LinkClass c : LinkClass.values()) zero.put(c, 0.0);
        for (SimCosts.Family f : SimCosts.Family.values()) {
            SimProtocolCosts c = s.get(f, Protocol.SIMPLE).withLatencies(0, zero).withStepOverheadNs(0)
                    .withPipelineBytes(1L << 30).withMaxChannelBwGbps(400);
            s = s.with(f, Protocol.SIMPLE, c);
        }
        return p.withSim(s.withCta(Protocol.SIMPLE, cta));
    }

    static double timeUs(CalibrationProfile p, CollectiveOp op, int n) {
        return timeUs(p, op, n, 1);
    }

    static double timeUs(CalibrationProfile p, CollectiveOp op, int n, int channels) {
        PerfRunner r = new PerfRunner(TopologyCatalog.build("hgx-h200", BuildOptions.of(n, 1)), n, p, NcclEnv.empty(), 1);
        long count = op == CollectiveOp.ALL_GATHER ? BYTES / 4 / n : BYTES / 4;
        return r.simulate(op, count, DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.RING, Protocol.SIMPLE, channels).timeUs();
    }

    /** µs for {@code bytes} at {@code nsPerKiB}. */
    static double us(double bytes, double nsPerKiB) { return bytes / 1024.0 * nsPerKiB / 1000.0; }

    @Test
    void broadcastOfTwoRanksIsTheRootsSendThenThePeersRecv() {
        CalibrationProfile p = profile(new CtaCosts(RECV, SRC, DST, SEND, RED));
        // root: COPY_SEND reads src, writes its own dst (out of place) and one peer's slot; rank 1: RECV reads the
        // slot and writes dst
        double expect = us(BYTES, SRC + DST + SEND) + us(BYTES, RECV + DST);
        assertThat(timeUs(p, CollectiveOp.BROADCAST, 2)).isCloseTo(expect, within(1e-3));
    }

    @Test
    void reduceOfTwoRanksPaysTheReductionOnTheRoot() {
        CalibrationProfile p = profile(new CtaCosts(RECV, SRC, DST, SEND, RED));
        // rank 1: SEND (src + send); root 0: RECV_REDUCE_COPY (recv + src + dst + reduce)
        double expect = us(BYTES, SRC + SEND) + us(BYTES, RECV + SRC + DST + RED);
        assertThat(timeUs(p, CollectiveOp.REDUCE, 2)).isCloseTo(expect, within(1e-3));
    }

    @Test
    void aWorkingSetBeyondL2MakesSrcAndDstDearer() {
        double miss = 2.5;
        // l2 of 1 kB: the broadcast's 512 KiB working set (input + output) misses all but (1/(1+(W/l2)^8)) of it
        CalibrationProfile p = profile(new CtaCosts(RECV, SRC, DST, SEND, RED, 1e3, miss));
        double w = 2.0 * BYTES;
        double f = 1 + (miss - 1) * (1 - 1 / (1 + Math.pow(w / 1e3, 8)));
        double expect = us(BYTES, (SRC + DST) * f + SEND) + us(BYTES, RECV + DST * f);
        assertThat(timeUs(p, CollectiveOp.BROADCAST, 2)).isCloseTo(expect, within(1e-3));
        // and with a working set far below l2 nothing changes
        CalibrationProfile big = profile(new CtaCosts(RECV, SRC, DST, SEND, RED, 1e12, miss));
        assertThat(timeUs(big, CollectiveOp.BROADCAST, 2)).isCloseTo(us(BYTES, SRC + DST + SEND) + us(BYTES, RECV + DST), within(1e-3));
    }

    @Test
    void aSendOverlapNarrowedToTheStoresLeavesALoadOnlySendUnhidden() {
        // overlap o = 0.5. k = 1 (all local work): the peer's SEND (src + send) hides o x min(src, send) = 100 of
        // its send; k = 0 (output stores only): it writes no output, so nothing is hidden. The root's
        // RECV_REDUCE_COPY sends nothing: the same either way.
        double o = 0.5;
        CalibrationProfile all = profile(new CtaCosts(RECV, SRC, DST, SEND, RED, CtaCosts.DEFAULT_L2_BYTES, 1.0, 0.0, o, 0.0, 0.0, 1.0));
        CalibrationProfile stores = profile(new CtaCosts(RECV, SRC, DST, SEND, RED, CtaCosts.DEFAULT_L2_BYTES, 1.0, 0.0, o, 0.0, 0.0, 0.0));
        double root = us(BYTES, RECV + SRC + DST + RED);
        assertThat(timeUs(all, CollectiveOp.REDUCE, 2)).isCloseTo(us(BYTES, SRC + SEND - o * Math.min(SRC, SEND)) + root, within(1e-3));
        assertThat(timeUs(stores, CollectiveOp.REDUCE, 2)).isCloseTo(us(BYTES, SRC + SEND) + root, within(1e-3));
        // the broadcast root's COPY_SEND writes output: k = 0 hides o x min(dst, send), k = 1 o x min(src + dst, send);
        // k = 0.25 overlaps dst + 0.25 x src
        double peer = us(BYTES, RECV + DST);
        assertThat(timeUs(stores, CollectiveOp.BROADCAST, 2))
                .isCloseTo(us(BYTES, SRC + DST + SEND - o * Math.min(DST, SEND)) + peer, within(1e-3));
        assertThat(timeUs(all, CollectiveOp.BROADCAST, 2))
                .isCloseTo(us(BYTES, SRC + DST + SEND - o * Math.min(SRC + DST, SEND)) + peer, within(1e-3));
        CalibrationProfile quarter = profile(new CtaCosts(RECV, SRC, DST, SEND, RED, CtaCosts.DEFAULT_L2_BYTES, 1.0, 0.0, o, 0.0, 0.0, 0.25));
        assertThat(timeUs(quarter, CollectiveOp.BROADCAST, 2))
                .isCloseTo(us(BYTES, SRC + DST + SEND - o * Math.min(DST + 0.25 * SRC, SEND)) + peer, within(1e-3));
    }

    @Test
    void aFitMovesTheOverlapsShareOfTheLoadsOnlyWhereTheProfileNarrowsIt() {
        String key = "sim.cta.Simple.send_overlap_loads";
        assertThat(FitParameter.cta(Protocol.SIMPLE, true, false, false).stream().map(FitParameter::name)).doesNotContain(key);
        FitParameter k = FitParameter.cta(Protocol.SIMPLE, true, false, true).stream().filter(f -> f.name().equals(key)).findFirst().orElseThrow();
        CalibrationProfile base = profile(new CtaCosts(RECV, SRC, DST, SEND, RED, CtaCosts.DEFAULT_L2_BYTES, 1.0, 0.0, 0.5, 0.0, 0.0, 0.2));
        assertThat(k.get().applyAsDouble(base)).isEqualTo(0.2);
        CtaCosts moved = k.set().apply(base, 0.7).sim().ctaOf(Protocol.SIMPLE);
        assertThat(moved.sendOverlapLoads()).isEqualTo(0.7);
        assertThat(moved.with(CtaCosts.OVERLAP_LOADS, 0.2)).isEqualTo(base.sim().ctaOf(Protocol.SIMPLE));
    }

    @Test
    void moreThreadBlocksPerGpuMakeEveryBlockSlower() {
        // 4 channels: each carries a quarter of the broadcast, one step each; with channel_load k every cost is
        // (1 + 3k) dearer. One channel: no other block, no change.
        double quarter = BYTES / 4.0;
        double alone = us(quarter, SRC + DST + SEND) + us(quarter, RECV + DST);
        for (double k : new double[] {0.0, 0.05, 0.2}) {
            CalibrationProfile p = profile(new CtaCosts(RECV, SRC, DST, SEND, RED, CtaCosts.DEFAULT_L2_BYTES, 1.0, k));
            assertThat(timeUs(p, CollectiveOp.BROADCAST, 2, 4)).as("k = " + k).isCloseTo(alone * (1 + 3 * k), within(1e-3));
            assertThat(timeUs(p, CollectiveOp.BROADCAST, 2, 1)).as("k = " + k)
                    .isCloseTo(us(BYTES, SRC + DST + SEND) + us(BYTES, RECV + DST), within(1e-3));
        }
    }

    @Test
    void aCostOnlyTheRingsStepsTouchMovesOnlyThem() {
        // a dearer reduction slows reduce-scatter (its steps reduce) and leaves all-gather (no step reduces) alone
        CalibrationProfile base = profile(new CtaCosts(RECV, SRC, DST, SEND, RED));
        CalibrationProfile dear = profile(new CtaCosts(RECV, SRC, DST, SEND, RED * 10));
        assertThat(timeUs(dear, CollectiveOp.ALL_GATHER, 4)).isEqualTo(timeUs(base, CollectiveOp.ALL_GATHER, 4));
        assertThat(timeUs(dear, CollectiveOp.REDUCE_SCATTER, 4)).isGreaterThan(timeUs(base, CollectiveOp.REDUCE_SCATTER, 4) * 1.2);
    }

    static double backToBackUs(CalibrationProfile p, CollectiveOp op, int n, int iterations) {
        PerfRunner r = new PerfRunner(TopologyCatalog.build("hgx-h200", BuildOptions.of(n, 1)), n, p, NcclEnv.empty(), 1);
        long count = op == CollectiveOp.ALL_GATHER ? BYTES / 4 / n : BYTES / 4;
        return r.simulate(op, count, DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.RING, Protocol.SIMPLE, 1, iterations).timeUs();
    }

    @Test
    void backToBackBroadcastsOverlapTheRootsNextCallWithThePeersTail() {
        CalibrationProfile p = profile(new CtaCosts(RECV, SRC, DST, SEND, RED));
        double t1 = us(BYTES, SRC + DST + SEND); // the root's COPY_SEND
        double t2 = us(BYTES, RECV + DST);       // rank 1's RECV, shorter: rank 1 keeps up with the root
        // call k ends on rank 1 at k·t1 + t2, so K calls take K·t1 + t2: mean t1 + t2 / K
        for (int k : new int[] {2, 3, 10, 50}) {
            assertThat(backToBackUs(p, CollectiveOp.BROADCAST, 2, k)).as("K = " + k).isCloseTo(t1 + t2 / k, within(1e-3));
        }
        assertThat(backToBackUs(p, CollectiveOp.BROADCAST, 2, 1)).isCloseTo(t1 + t2, within(1e-3));
    }

    @Test
    void backToBackRingCallsCannotOverlap() {
        // in a ring every rank's last step waits for data that went all the way round: no call starts early
        CalibrationProfile p = profile(new CtaCosts(RECV, SRC, DST, SEND, RED));
        double one = timeUs(p, CollectiveOp.ALL_REDUCE, 4);
        assertThat(backToBackUs(p, CollectiveOp.ALL_REDUCE, 4, 20)).isCloseTo(one, within(one * 0.02));
        assertThatThrownBy(() -> new PerfRunner(TopologyCatalog.build("hgx-h200", BuildOptions.of(2, 1)), 2, p, NcclEnv.empty(), 1)
                .simulate(CollectiveOp.BROADCAST, 1024, DataType.FLOAT32, ReduceOp.SUM, 0, Algorithm.RING, Protocol.SIMPLE, 1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("iterations must be >= 1");
        assertThat(PerfRunner.cudaPerfIterations(1L << 20)).isEqualTo(50);
        assertThat(PerfRunner.cudaPerfIterations(16L << 20)).isEqualTo(20);
        assertThat(PerfRunner.cudaPerfIterations(256L << 20)).isEqualTo(10);
    }
}
