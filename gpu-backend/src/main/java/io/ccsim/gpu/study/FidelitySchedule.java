package io.ccsim.gpu.study;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.plan.Planners;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link DeviceStudies#fidelity} measures, in the order it runs: the rows the simulator is fitted to and
 * scored against. The fidelity bounds, a median error per (op, algorithm, protocol, n) of at most 15 % below 1 MiB
 * and 5 % from 1 MiB, need many sizes per group on both sides of 1 MiB, and repeated trials to know the noise.
 * <ul>
 *   <li>{@code "fidelity"}: for every n of {@link #ranks}, {@link #TRIALS} trials; in each trial every op, every
 *       algorithm {@link Planners#supported} lists for it, every protocol, at {@link #FIDELITY_CHANNELS} channels,
 *       sizes {@link #fidelitySizes()} (4 KiB .. 512 MiB by 2×). Trial t of every op runs before trial t + 1 of
 *       any, so the trials of one group are a whole sweep apart and drift shows as trial-to-trial spread.</li>
 *   <li>{@code "fidelity_channels"}: once per n (trial 1), all-reduce Ring and Tree × every protocol at
 *       {@link #SWEEP_CHANNELS} channels, sizes {@link #channelSweepSizes()}.</li>
 * </ul>
 * Every timed call is float32 sum, root 0 (what {@code KernelTimings} predicts).
 */
final class FidelitySchedule {
    /** Repeats of the whole fidelity sweep. */
    static final int TRIALS = 3;
    /** Channels of the fidelity sweep (as the timing study's ops_sweep). */
    static final int FIDELITY_CHANNELS = 16;
    /** Channel counts of the all-reduce channel sweep. */
    static final int[] SWEEP_CHANNELS = {4, 64};

    /**
     * One group of timed sizes.
     *
     * @param set      the row's {@code "set"}: "fidelity" or "fidelity_channels"
     * @param trial    1-based trial number
     * @param n        ranks (GPUs 0..n−1)
     * @param op       collective
     * @param algo     algorithm
     * @param proto    protocol
     * @param channels channels
     * @param sizes    nccl-tests sizes, bytes, ascending
     */
    record Item(String set, int trial, int n, CollectiveOp op, Algorithm algo, Protocol proto, int channels, long[] sizes) {
        Item {
            if (trial < 1) throw new IllegalArgumentException("trial must be >= 1, got " + trial);
            if (n < 2) throw new IllegalArgumentException("n must be >= 2, got " + n);
            sizes = sizes.clone();
        }

        @Override
        public long[] sizes() { return sizes.clone(); }

        @Override
        public String toString() {
            return set + " trial " + trial + " n=" + n + " " + op.cliName() + " " + algo.ncclName() + "/" + proto.ncclName()
                    + " ch=" + channels + " " + sizes.length + " sizes";
        }
    }

    private FidelitySchedule() { }

    /** 4 KiB .. 512 MiB by factors of 2 (18 sizes), bytes. */
    static long[] fidelitySizes() {
        long[] s = new long[18];
        for (int i = 0; i < s.length; i++) s[i] = 4096L << i;
        return s;
    }

    /** 64 KiB .. 256 MiB by factors of 4, then 512 MiB (8 sizes), bytes: 4× steps from 64 KiB miss 512 MiB itself. */
    static long[] channelSweepSizes() {
        long[] s = new long[8];
        for (int i = 0; i < 7; i++) s[i] = 65536L << (2 * i);
        s[7] = 512L << 20;
        return s;
    }

    /**
     * The rank counts measured on a host of {@code gpus} devices: 2, and the largest power of two ≤ gpus if that
     * is larger.
     *
     * @throws IllegalArgumentException if {@code gpus < 2}
     */
    static int[] ranks(int gpus) {
        if (gpus < 2) throw new IllegalArgumentException("the fidelity sweep needs at least 2 GPUs, found " + gpus);
        int big = Integer.highestOneBit(gpus);
        return big > 2 ? new int[] {2, big} : new int[] {2};
    }

    /** Every group for one n, in run order: {@link #TRIALS} fidelity trials, then the channel sweep. */
    static List<Item> forRanks(int n) {
        List<Item> items = new ArrayList<>();
        long[] sizes = fidelitySizes();
        for (int trial = 1; trial <= TRIALS; trial++) {
            for (CollectiveOp op : CollectiveOp.values()) {
                for (Algorithm a : Planners.standard().supportedOnKernels(op)) {
                    for (Protocol p : Protocol.values()) {
                        items.add(new Item("fidelity", trial, n, op, a, p, FIDELITY_CHANNELS, sizes));
                    }
                }
            }
        }
        for (int ch : SWEEP_CHANNELS) {
            for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE}) {
                for (Protocol p : Protocol.values()) {
                    items.add(new Item("fidelity_channels", 1, n, CollectiveOp.ALL_REDUCE, a, p, ch, channelSweepSizes()));
                }
            }
        }
        return items;
    }

    /** The whole schedule on a host of {@code gpus} devices. */
    static List<Item> forHost(int gpus) {
        List<Item> all = new ArrayList<>();
        for (int n : ranks(gpus)) all.addAll(forRanks(n));
        return all;
    }

    /** Number of timed sizes in {@code items}. */
    static int rows(List<Item> items) {
        return items.stream().mapToInt(i -> i.sizes.length).sum();
    }
}
