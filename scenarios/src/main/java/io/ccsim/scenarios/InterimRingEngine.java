package io.ccsim.scenarios;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.topology.Route;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * INTERIM collective engine, to be replaced by an adapter over {@code SimExecutor}: it times a
 * collective as NCCL's ring would run it, from the slowest constraint on the rings' routes, and it
 * moves synthetic data around the ring so that checksums and bit flips are real.
 *
 * <p>Rings: communicator ranks in order; {@code channels} rings share the data equally. A hop
 * between GPUs of one host follows the topology's route (NVLink through NVSwitch). A hop between
 * hosts uses rail {@code channel % nicsPerHost}: as NCCL's PXN does (NCCL 2.12+, NCCL_PXN_DISABLE=0),
 * the sender relays over NVLink to its host's GPU on that rail, which sends through its NIC to the
 * same rail's GPU on the next host, which relays to the receiver. The rate of a hop is the least,
 * over the link groups on its route, of capacity / (number of ring hops crossing that group);
 * a channel runs at its slowest hop (a ring is a pipeline); the collective ends with its slowest
 * channel. Time = busBwFactor(n) x bytes/channels / channelRate + hops' latency x ring steps, with
 * nccl-tests' bus-bandwidth factors (2(n-1)/n for all-reduce).
 *
 * <p>Health changes re-solve executions in flight: progress is integrated piecewise. A channel
 * whose route has a link down stalls; if the link stays down longer than the IB give-up time
 * (NCCL_IB_TIMEOUT, NCCL_IB_RETRY_CNT) the transport fails with IBV_WC_RETRY_EXC_ERR (status 12).
 *
 * <p>Data: every rank holds n chunks of 64-bit values (its "gradient"); the ring reduce-scatter
 * then all-gather is executed step by step with wrapping integer sums, so output checksums equal
 * the sum of input checksums unless a bit flipped. A flip hits the chunk that crosses the flipped
 * link group at the step in progress.
 */
final class InterimRingEngine implements CollectiveEngine {
    private final SimHost host;
    private final Fabric fabric;
    private final long ibAckTimeoutPs;
    private final long ibGiveUpPs;
    private final List<Exec> running = new ArrayList<>();

    /**
     * @param ibAckTimeoutPs the transport's retransmission timeout (4.096 us x 2^NCCL_IB_TIMEOUT), ps
     * @param ibGiveUpPs     how long a stalled transfer retries before failing, ps
     */
    InterimRingEngine(SimHost host, Fabric fabric, long ibAckTimeoutPs, long ibGiveUpPs) {
        this.host = host;
        this.fabric = fabric;
        this.ibAckTimeoutPs = ibAckTimeoutPs;
        this.ibGiveUpPs = ibGiveUpPs;
    }

    @Override
    public Execution start(Spec spec, int[] gpuOfRank, int[] globalRankOf, Listener listener) {
        return new Exec(spec, gpuOfRank.clone(), globalRankOf.clone(), listener);
    }

    @Override
    public void healthChanged() {
        for (Exec e : new ArrayList<>(running)) e.resolve();
    }

    @Override
    public void bitFlip(int groupIndex) {
        for (Exec e : running) e.flip(groupIndex);
    }

    /** One hop of one channel's ring: comm rank {@code from} sends to {@code from + 1}. */
    private record Hop(int channel, int from, int to, int[] groups, boolean[] reverse, long latencyPs, List<String> links) {}

    private final class Exec implements Execution {
        final Spec spec;
        final int[] gpu;
        final int[] global;
        final Listener listener;
        final int n;
        final boolean[] launched;
        final boolean[] done;
        int launchedCount;
        boolean finished, aborted;
        List<Hop> hops;
        long startPs = -1;
        double fraction;          // of the whole collective done
        double ratePerPs;         // fraction per ps at current health (0 = stalled)
        long lastPs;
        long endHandle = -1, giveUpHandle = -1;
        long stallStartPs = -1;
        long healthyPs;
        final List<long[]> flips = new ArrayList<>(); // {step, fromRank, channel}

        Exec(Spec spec, int[] gpu, int[] global, Listener listener) {
            this.spec = spec;
            this.gpu = gpu;
            this.global = global;
            this.listener = listener;
            this.n = gpu.length;
            this.launched = new boolean[n];
            this.done = new boolean[n];
        }

        @Override
        public void launch(int r) {
            if (aborted || launched[r]) return;
            launched[r] = true;
            if (++launchedCount == n) begin();
        }

        @Override
        public boolean isRankDone(int r) { return done[r]; }

        @Override
        public void abort() {
            aborted = true;
            cancelTimers();
            running.remove(this);
        }

        private void cancelTimers() {
            if (endHandle >= 0) host.cancel(endHandle);
            if (giveUpHandle >= 0) host.cancel(giveUpHandle);
            endHandle = giveUpHandle = -1;
        }

        private void begin() {
            startPs = host.now();
            lastPs = startPs;
            if (n == 1) {
                finish();
                return;
            }
            hops = buildHops();
            healthyPs = duration(true);
            running.add(this);
            resolve();
        }

        /** Re-solves the rate at the current health and reschedules completion. */
        void resolve() {
            if (finished || aborted) return;
            long now = host.now();
            fraction = Math.min(1.0, fraction + (now - lastPs) * ratePerPs);
            lastPs = now;
            cancelTimers();
            long d = duration(false);
            if (d == Long.MAX_VALUE) {
                // a link on a ring is down: the transfer stalls; the sender's queue pair retransmits every
                // ACK timeout and gives up after NCCL_IB_RETRY_CNT retries
                ratePerPs = 0;
                if (stallStartPs < 0) stallStartPs = now;
                giveUpHandle = host.after(Math.max(0, stallStartPs + ibGiveUpPs - now), this::giveUp);
                return;
            }
            if (stallStartPs >= 0) {
                // the link is back, but traffic resumes only at the next retransmission
                long periods = (now - stallStartPs + ibAckTimeoutPs - 1) / ibAckTimeoutPs;
                long resume = stallStartPs + Math.max(1, periods) * ibAckTimeoutPs;
                if (resume > now) {
                    ratePerPs = 0;
                    endHandle = host.after(resume - now, () -> {
                        endHandle = -1;
                        stallStartPs = -1;
                        resolve();
                    });
                    return;
                }
                stallStartPs = -1;
            }
            ratePerPs = 1.0 / d;
            long remaining = (long) Math.ceil((1.0 - fraction) * d);
            endHandle = host.after(Math.max(0, remaining), this::finish);
        }

        private void giveUp() {
            giveUpHandle = -1;
            if (finished || aborted) return;
            aborted = true;
            running.remove(this);
            // The first stalled hop's sender sees the completion error.
            for (Hop h : hops) {
                if (hopRate(h, false, null) == 0.0) {
                    String dead = deadLink(h);
                    listener.onNetworkError(global[h.from], "NET/IB : Got completion from peer (rank " + global[h.to]
                            + ") with status=12 (IBV_WC_RETRY_EXC_ERR) opcode=0 len=0 vendor err 129 on link " + dead
                            + " after " + Units.formatDuration(ibGiveUpPs) + " of retries");
                    return;
                }
            }
        }

        private String deadLink(Hop h) {
            for (int g : h.groups) {
                if (fabric.groupCapacity(g) == 0.0) return fabric.worstMember(g);
            }
            return "?";
        }

        void flip(int groupIndex) {
            if (finished || aborted || hops == null) return;
            long now = host.now();
            double f = Math.min(1.0, fraction + (now - lastPs) * ratePerPs);
            int steps = 2 * (n - 1);
            long step = Math.min(steps - 1, (long) Math.floor(f * steps));
            for (Hop h : hops) {
                for (int g : h.groups) {
                    if (g == groupIndex) {
                        flips.add(new long[] {step, h.from, h.channel});
                        return;
                    }
                }
            }
        }

        private void finish() {
            endHandle = -1;
            if (aborted || finished) return;
            finished = true;
            running.remove(this);
            long now = host.now();
            for (int r = 0; r < n; r++) {
                done[r] = true;
                listener.onRankDone(r, now);
            }
            listener.onAllDone(stats(now));
        }

        private List<Hop> buildHops() {
            int nics = fabric.nicsPerHost();
            Map<Long, Integer> gpuAt = new HashMap<>();
            for (int g = 0; g < fabric.gpuCount(); g++) gpuAt.put(((long) fabric.hostOf(g) << 20) | fabric.localOf(g), g);
            Map<Long, Route> memo = new HashMap<>();
            List<Hop> out = new ArrayList<>();
            for (int c = 0; c < spec.channels(); c++) {
                for (int r = 0; r < n; r++) {
                    int to = (r + 1) % n;
                    int a = gpu[r], b = gpu[to];
                    boolean sameHost = fabric.hostOf(a) == fabric.hostOf(b);
                    int rail = sameHost || nics == 0 ? -1 : c % nics;
                    long key = ((long) a << 40) ^ ((long) b << 16) ^ (rail + 1);
                    Route route = memo.computeIfAbsent(key, k -> path(a, b, rail, gpuAt));
                    int[] groups = new int[route.length()];
                    boolean[] rev = new boolean[route.length()];
                    for (int i = 0; i < route.length(); i++) {
                        groups[i] = route.groupAt(i);
                        rev[i] = route.reverseAt(i);
                    }
                    out.add(new Hop(c, r, to, groups, rev, route.latencyPs(), route.linkIds()));
                }
            }
            return out;
        }

        /**
         * The data path of a ring hop: over the board's NVSwitch fabric inside a host (GPU to GPU
         * P2P over NVLink, as NCCL's P2P transport does), and across hosts through the NIC of
         * {@code rail} on both ends, relaying over NVLink to and from the rail's GPU (PXN).
         */
        private Route path(int a, int b, int rail, Map<Long, Integer> gpuAt) {
            if (rail < 0) return local(a, b);
            Integer ra = gpuAt.get(((long) fabric.hostOf(a) << 20) | rail);
            Integer rb = gpuAt.get(((long) fabric.hostOf(b) << 20) | rail);
            String nicA = "n" + fabric.hostOf(a) + ".nic" + rail, nicB = "n" + fabric.hostOf(b) + ".nic" + rail;
            if (ra == null || rb == null || !fabric.hasNode(nicA) || !fabric.hasNode(nicB)) return fabric.route(a, b, rail);
            List<Route> parts = new ArrayList<>();
            if (ra != a) parts.add(local(a, ra));
            parts.add(fabric.route(fabric.gpuId(ra), nicA, rail));
            parts.add(fabric.route(nicA, nicB, rail));
            parts.add(fabric.route(nicB, fabric.gpuId(rb), rail));
            if (rb != b) parts.add(local(rb, b));
            return Fabric.concat(parts);
        }

        private Route local(int a, int b) {
            String sw = "n" + fabric.hostOf(a) + ".nvs0";
            if (!fabric.hasNode(sw)) return fabric.route(a, b, 0);
            return Fabric.concat(List.of(fabric.route(fabric.gpuId(a), sw, 0), fabric.route(sw, fabric.gpuId(b), 0)));
        }

        /** Load per (group, direction): how many ring hops cross it. */
        private Map<Integer, Integer> loads() {
            Map<Integer, Integer> load = new HashMap<>();
            for (Hop h : hops) {
                for (int i = 0; i < h.groups.length; i++) load.merge(h.groups[i] * 2 + (h.reverse[i] ? 1 : 0), 1, Integer::sum);
            }
            return load;
        }

        private Map<Integer, Integer> loadCache;

        private double hopRate(Hop h, boolean nominal, int[] worstGroup) {
            if (loadCache == null) loadCache = loads();
            double rate = Double.POSITIVE_INFINITY;
            for (int i = 0; i < h.groups.length; i++) {
                int g = h.groups[i];
                double cap = nominal ? fabric.groupNominal(g) : fabric.groupCapacity(g);
                double r = cap / loadCache.get(g * 2 + (h.reverse[i] ? 1 : 0));
                if (r < rate) {
                    rate = r;
                    if (worstGroup != null) worstGroup[0] = g;
                }
            }
            return rate;
        }

        /** Duration of the whole collective at current (or nominal) rates, ps; MAX_VALUE if stalled. */
        long duration(boolean nominal) {
            double factor = spec.op().busBwFactor(n);
            double perChannelBytes = spec.bytes() / (double) spec.channels();
            double worst = 0;
            long maxLat = 0;
            double[] chanRate = new double[spec.channels()];
            java.util.Arrays.fill(chanRate, Double.POSITIVE_INFINITY);
            for (Hop h : hops) {
                chanRate[h.channel] = Math.min(chanRate[h.channel], hopRate(h, nominal, null));
                maxLat = Math.max(maxLat, h.latencyPs);
            }
            for (double r : chanRate) {
                if (r == 0.0) return Long.MAX_VALUE;
                worst = Math.max(worst, factor * perChannelBytes / r);
            }
            long steps = spec.op() == CollectiveOp.ALL_REDUCE ? 2L * (n - 1) : (n - 1);
            return (long) Math.ceil(worst * Units.PS_PER_S) + steps * maxLat;
        }

        private CollectiveStats stats(long now) {
            String bottleneck = null;
            double health = 1.0;
            List<Integer> senders = new ArrayList<>(), receivers = new ArrayList<>();
            long[] in = null, out = null;
            List<List<String>> hopLinks = new ArrayList<>();
            if (hops != null) {
                // the slowest hop of all channels, and every hop crossing its worst group
                double slowest = Double.POSITIVE_INFINITY;
                int[] wg = {-1};
                int worstGroup = -1;
                for (Hop h : hops) {
                    double r = hopRate(h, false, wg);
                    if (r < slowest) { slowest = r; worstGroup = wg[0]; }
                }
                if (worstGroup >= 0) {
                    bottleneck = fabric.worstMember(worstGroup);
                    double nom = fabric.groupNominal(worstGroup);
                    health = nom == 0 ? 0 : fabric.groupCapacity(worstGroup) / nom;
                    java.util.Set<Long> seen = new java.util.HashSet<>();
                    for (Hop h : hops) {
                        for (int g : h.groups) {
                            if (g == worstGroup && seen.add(((long) h.from << 32) | h.to)) {
                                senders.add(global[h.from]);
                                receivers.add(global[h.to]);
                                break;
                            }
                        }
                    }
                }
                int chan = flips.isEmpty() ? 0 : (int) flips.get(0)[2];
                for (int r = 0; r < n; r++) {
                    int from = (r - 1 + n) % n;
                    hopLinks.add(fabric.memberLinks(hops.get(chan * n + from).groups));
                }
                if (spec.op() == CollectiveOp.ALL_REDUCE) {
                    // checksums are modelled for all-reduce (the sum of outputs is the sum of inputs)
                    long[][] data = RingData.checksums(global, spec.dataSeed(), flips);
                    in = data[0];
                    out = data[1];
                }
            }
            return new CollectiveStats(spec.seqLabel(), spec.op().cliName(), spec.bytes(), global.clone(), startPs, now,
                    hops == null ? 0 : healthyPs, bottleneck, health, senders, receivers, in, out, hopLinks);
        }
    }

    /** SplitMix64 finalizer: a well-mixed deterministic value. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
