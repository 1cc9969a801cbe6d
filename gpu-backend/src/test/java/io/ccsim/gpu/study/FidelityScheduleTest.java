package io.ccsim.gpu.study;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.plan.Planners;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fidelity sweep's sizes, rank counts, trials and order, without a GPU. */
class FidelityScheduleTest {

    @Test
    void fidelitySizesAre4KiBTo512MiBByTwo() {
        long[] s = FidelitySchedule.fidelitySizes();
        assertThat(s).hasSize(18);
        assertThat(s[0]).isEqualTo(4L * 1024);
        assertThat(s[17]).isEqualTo(512L * 1024 * 1024);
        for (int i = 1; i < s.length; i++) assertThat(s[i]).isEqualTo(2 * s[i - 1]);
        // 8 sizes below 1 MiB (4 KiB .. 512 KiB), 10 from 1 MiB (1 .. 512 MiB)
        assertThat(java.util.Arrays.stream(s).filter(b -> b >= (1L << 20)).count()).isEqualTo(18 - 8);
    }

    @Test
    void channelSweepSizesGoByFourThenEndAt512MiB() {
        long[] s = FidelitySchedule.channelSweepSizes();
        assertThat(s).containsExactly(64L << 10, 256L << 10, 1L << 20, 4L << 20, 16L << 20, 64L << 20, 256L << 20, 512L << 20);
    }

    @Test
    void ranksAreTwoAndTheLargestPowerOfTwo() {
        assertThat(FidelitySchedule.ranks(2)).containsExactly(2);
        assertThat(FidelitySchedule.ranks(3)).containsExactly(2);
        assertThat(FidelitySchedule.ranks(4)).containsExactly(2, 4);
        assertThat(FidelitySchedule.ranks(7)).containsExactly(2, 4);
        assertThat(FidelitySchedule.ranks(8)).containsExactly(2, 8);
        assertThatThrownBy(() -> FidelitySchedule.ranks(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 2 GPUs").hasMessageContaining("found 1");
    }

    @Test
    void everyGroupRunsOncePerTrialAndTrialsAreWholeSweepsApart() {
        List<FidelitySchedule.Item> items = FidelitySchedule.forRanks(2);
        int groups = 0;
        for (CollectiveOp op : CollectiveOp.values()) groups += Planners.standard().supportedOnKernels(op).size() * Protocol.values().length;
        int sweepGroups = FidelitySchedule.SWEEP_CHANNELS.length * 2 * Protocol.values().length;
        assertThat(items).hasSize(FidelitySchedule.TRIALS * groups + sweepGroups);
        assertThat(FidelitySchedule.rows(items)).isEqualTo(FidelitySchedule.TRIALS * groups * 18 + sweepGroups * 8);

        Map<String, Integer> seen = new HashMap<>();
        int lastTrial = 1;
        for (int i = 0; i < FidelitySchedule.TRIALS * groups; i++) {
            FidelitySchedule.Item it = items.get(i);
            assertThat(it.set()).isEqualTo("fidelity");
            assertThat(it.n()).isEqualTo(2);
            assertThat(it.channels()).isEqualTo(FidelitySchedule.FIDELITY_CHANNELS);
            assertThat(it.sizes()).containsExactly(FidelitySchedule.fidelitySizes());
            // trials in order: the i-th item belongs to trial i / groups + 1
            assertThat(it.trial()).isEqualTo(i / groups + 1).isGreaterThanOrEqualTo(lastTrial);
            lastTrial = it.trial();
            seen.merge(it.op() + "/" + it.algo() + "/" + it.proto(), 1, Integer::sum);
        }
        assertThat(seen).hasSize(groups);
        assertThat(seen.values()).allMatch(c -> c == FidelitySchedule.TRIALS);
        // the same group sits exactly one sweep later in the next trial
        for (int i = 0; i + groups < FidelitySchedule.TRIALS * groups; i++) {
            FidelitySchedule.Item a = items.get(i), b = items.get(i + groups);
            assertThat(List.of(b.op(), b.algo(), b.proto())).isEqualTo(List.of(a.op(), a.algo(), a.proto()));
            assertThat(b.trial()).isEqualTo(a.trial() + 1);
        }
        for (FidelitySchedule.Item it : items.subList(FidelitySchedule.TRIALS * groups, items.size())) {
            assertThat(it.set()).isEqualTo("fidelity_channels");
            assertThat(it.op()).isEqualTo(CollectiveOp.ALL_REDUCE);
            assertThat(it.algo()).isIn(Algorithm.RING, Algorithm.TREE);
            assertThat(it.channels()).isIn(4, 64);
            assertThat(it.trial()).isEqualTo(1);
        }
    }

    @Test
    void aHostOfFourRunsBothRankCountsInOrder() {
        List<FidelitySchedule.Item> items = FidelitySchedule.forHost(4);
        int half = FidelitySchedule.forRanks(2).size();
        assertThat(items).hasSize(2 * half);
        assertThat(items.subList(0, half)).allMatch(i -> i.n() == 2);
        assertThat(items.subList(half, items.size())).allMatch(i -> i.n() == 4);
    }

    @Test
    void itemsCopyTheirSizes() {
        long[] s = {4096, 8192};
        FidelitySchedule.Item it = new FidelitySchedule.Item("fidelity", 1, 2, CollectiveOp.ALL_REDUCE, Algorithm.RING,
                Protocol.LL, 16, s);
        s[0] = 1;
        it.sizes()[1] = 1;
        assertThat(it.sizes()).containsExactly(4096, 8192);
        assertThatThrownBy(() -> new FidelitySchedule.Item("fidelity", 0, 2, CollectiveOp.ALL_REDUCE, Algorithm.RING,
                Protocol.LL, 16, s)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trial");
    }
}
