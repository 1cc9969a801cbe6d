package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.within;

class TunerTest {
    private static final CalibrationProfile H200 = CalibrationProfile.builtin("h200");
    private static final double EPS = 1e-9;
    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;
    private static final long GIB = 1024 * MIB;

    /** One HGX H200 board: 8 GPUs on NVSwitch, 24 channels of 20 GB/s each. */
    private static TuneInput hgx(CollectiveOp op, long bytes) {
        return TuneInput.of(op, bytes, 8, 1, 20.0, 0, LinkClass.NVLINK, 24);
    }

    /** 8 nodes × 8 GPUs, 16 channels; 20 GB/s NVLink and 12 GB/s network per channel. */
    private static TuneInput cluster(CollectiveOp op, long bytes) {
        return TuneInput.of(op, bytes, 64, 8, 20.0, 12.0, LinkClass.NVLINK, 16);
    }

    private static Tuner tuner(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return new Tuner(H200, NcclEnv.parse(m));
    }

    @Test
    void llAtTinySizesSimpleAtLargeSizesOnAnHgxBoard() {
        Tuner t = tuner();
        TuneResult tiny = t.tune(hgx(CollectiveOp.ALL_REDUCE, 8));
        assertThat(tiny.winner().protocol()).isEqualTo(Protocol.LL);
        TuneResult large = t.tune(hgx(CollectiveOp.ALL_REDUCE, GIB));
        assertThat(large.winner().protocol()).isEqualTo(Protocol.SIMPLE);
        assertThat(large.winner().channels()).isEqualTo(24);
        // all six (algorithm, protocol) pairs are candidates for all-reduce on NVLink
        assertThat(large.candidates()).hasSize(6);
    }

    @Test
    void ringSimpleAllReduceFormulaWrittenOut() {
        long bytes = 64 * MIB;
        Candidate c = tuner().tune(hgx(CollectiveOp.ALL_REDUCE, bytes)).candidate(Algorithm.RING, Protocol.SIMPLE)
                .orElseThrow();
        int n = 8;
        int nsteps = 2 * (n - 1);
        double latency = 8.4 /* baseLat Ring/Simple */ + nsteps * 3.4 /* hwLat NVLink Ring/Simple */;
        double bandwidth = 24 * Math.min(20.0, 52.0 /* h200 Simple per-channel cap */) * n / (double) nsteps;
        assertThat(c.latencyUs()).isCloseTo(latency, within(EPS));
        assertThat(c.bandwidthGBs()).isCloseTo(bandwidth, within(EPS));
        assertThat(c.costUs()).isCloseTo(latency + bytes / (1000 * bandwidth), within(EPS));
        // with 10 channels the bandwidth term scales by 10/24
        assertThat(c.timeUs(10)).isCloseTo(latency + bytes / (1000 * bandwidth * 10 / 24), within(EPS));
    }

    @Test
    void treeLl128MultiNodeFormulaWrittenOut() {
        long bytes = MIB;
        Candidate c = tuner().tune(cluster(CollectiveOp.ALL_REDUCE, bytes)).candidate(Algorithm.TREE, Protocol.LL128)
                .orElseThrow();
        int nc = 16;
        double busBw = Math.min(nc * 12.0 /* interBw, 8 > 2 nodes */ * 0.92, nc * 36.0 /* perChMaxTreeBw N4 */);
        busBw = Math.min(busBw * 120.0 / 128.0, nc * 29.0 /* perChMaxTreeLL128Bw N4 */);
        double bandwidth = busBw * 0.5;
        double latency = 14.0 + 2 * ((8 - 1) * 1.25 /* tree NVLink LL128 */ + 3 /* log2 8 */ * 8.5 /* tree NET */);
        int logSize = 14; // log2(1 MiB / 64)
        double correction = 0.6; // treeCorrectionFactor[LL128][14]
        assertThat(63 - Long.numberOfLeadingZeros(bytes >> 6)).isEqualTo(logSize);
        assertThat(c.latencyUs()).isCloseTo(latency, within(EPS));
        assertThat(c.bandwidthGBs()).isCloseTo(bandwidth, within(EPS));
        assertThat(c.costUs()).isCloseTo(latency + bytes / (1000 * bandwidth * correction), within(EPS));
    }

    @Test
    void ringMultiNodeLatencyAndPlateauWrittenOut() {
        Tuner t = tuner();
        // LL, 8 B: no plateau; intra hops max(0.6, netOverhead 1.0), inter hops 2.7
        Candidate ll = t.tune(cluster(CollectiveOp.ALL_REDUCE, 8)).candidate(Algorithm.RING, Protocol.LL).orElseThrow();
        int nsteps = 2 * 63;
        int nInter = 2 * (8 - 1);
        assertThat(ll.latencyUs()).isCloseTo(6.6 + (nsteps - nInter) * Math.max(0.6, 1.0) + nInter * 2.7, within(EPS));
        double llBw = Math.min(20.4 /* llMaxBw N4, Intel */, 16 * 12.0 * 0.5) * 64 / nsteps;
        assertThat(ll.costUs()).isCloseTo(ll.latencyUs() + 8 / (1000 * llBw), within(EPS));
        // Simple, 64 MiB: nBytes / (16 × 64) >= 64, so the latency is multiplied by 1.4
        long bytes = 64 * MIB;
        Candidate s = t.tune(cluster(CollectiveOp.ALL_REDUCE, bytes)).candidate(Algorithm.RING, Protocol.SIMPLE)
                .orElseThrow();
        double lat = 8.4 + (nsteps - nInter) * Math.max(3.4, 3 * 1.0) + nInter * 14.0;
        assertThat(s.latencyUs()).isCloseTo(lat, within(EPS));
        double bw = 16 * 12.0 * 64 / nsteps;
        assertThat(s.costUs()).isCloseTo(lat * 1.4 + bytes / (1000 * bw), within(EPS));
    }

    @Test
    void ringTreeCrossoverExistsOnMultiNode() {
        TuneTable table = TuneTable.sweep(tuner(), cluster(CollectiveOp.ALL_REDUCE, 0),
                TuneTable.geometricSizes(8, 4 * GIB, 2));
        assertThat(table.rows().get(0).winner().algorithm()).isEqualTo(Algorithm.TREE);
        assertThat(table.rows().get(table.rows().size() - 1).winner().algorithm()).isEqualTo(Algorithm.RING);
        assertThat(table.crossovers()).anySatisfy(x -> {
            assertThat(x.fromAlgorithm()).isEqualTo(Algorithm.TREE);
            assertThat(x.toAlgorithm()).isEqualTo(Algorithm.RING);
        });
    }

    @Test
    void ncclAlgoTreeForcesTree() {
        TuneResult r = tuner("NCCL_ALGO", "tree").tune(hgx(CollectiveOp.ALL_REDUCE, GIB));
        assertThat(r.candidates()).allSatisfy(c -> assertThat(c.algorithm()).isEqualTo(Algorithm.TREE));
        assertThat(r.winner().algorithm()).isEqualTo(Algorithm.TREE);
        assertThat(tuner().tune(hgx(CollectiveOp.ALL_REDUCE, GIB)).winner().algorithm()).isEqualTo(Algorithm.RING);
    }

    @Test
    void caretRingExcludesRing() {
        TuneResult r = tuner("NCCL_ALGO", "^ring").tune(hgx(CollectiveOp.ALL_REDUCE, MIB));
        assertThat(r.candidates()).noneMatch(c -> c.algorithm() == Algorithm.RING);
        assertThat(r.unavailable()).anySatisfy(u -> {
            assertThat(u.algorithm()).isEqualTo(Algorithm.RING);
            assertThat(u.reason()).contains("NCCL_ALGO=\"^ring\"");
        });
    }

    @Test
    void allGatherWithTreeIsAClearError() {
        TunerException e = catchThrowableOfType(TunerException.class,
                () -> tuner("NCCL_ALGO", "tree").tune(hgx(CollectiveOp.ALL_GATHER, MIB)));
        assertThat(e).hasMessageContaining("AllGather").hasMessageContaining("NCCL_ALGO=\"tree\"")
                .hasMessageContaining("AllGather supports Ring")
                .hasMessageContaining("PAT");
        // a per-function setting that leaves all-gather alone is fine
        assertThat(tuner("NCCL_ALGO", "allreduce:tree").tune(hgx(CollectiveOp.ALL_GATHER, MIB)).winner().algorithm())
                .isEqualTo(Algorithm.RING);
    }

    @Test
    void protocolsExcludedByNcclProtoAndErrorWhenNoneLeft() {
        TuneResult r = tuner("NCCL_PROTO", "^LL").tune(hgx(CollectiveOp.ALL_REDUCE, 8));
        assertThat(r.candidates()).noneMatch(c -> c.protocol() == Protocol.LL);
        assertThat(r.winner().protocol()).isNotEqualTo(Protocol.LL);
        assertThatThrownBy(() -> tuner("NCCL_ALGO", "tree", "NCCL_PROTO", "allreduce:,")
                .tune(hgx(CollectiveOp.ALL_REDUCE, 8))).isInstanceOf(TunerException.class)
                .hasMessageContaining("NCCL_PROTO=\"allreduce:,\"");
    }

    @Test
    void nvlsIsReportedUnavailableWithoutAGraphAndAnErrorWhenItIsAllThatIsLeft() {
        TuneResult r = tuner("NCCL_ALGO", "ring,nvls").tune(hgx(CollectiveOp.ALL_REDUCE, MIB));
        assertThat(r.unavailable()).anySatisfy(u -> {
            assertThat(u.algorithm()).isEqualTo(Algorithm.NVLS);
            assertThat(u.reason()).contains("no NVLS graph");
        });
        assertThatThrownBy(() -> tuner("NCCL_ALGO", "allreduce:nvls").tune(hgx(CollectiveOp.ALL_REDUCE, MIB)))
                .isInstanceOf(TunerException.class).hasMessageContaining("NVLS (no NVLS graph");
        assertThat(tuner("NCCL_NVLS_ENABLE", "0").tune(hgx(CollectiveOp.ALL_REDUCE, MIB)).unavailable())
                .anySatisfy(u -> assertThat(u.reason()).isEqualTo("disabled by NCCL_NVLS_ENABLE=0"));
        assertThatThrownBy(() -> tuner("NCCL_NVLS_ENABLE", "1").tune(hgx(CollectiveOp.ALL_REDUCE, MIB)))
                .isInstanceOf(TunerException.class).hasMessageContaining("NCCL_NVLS_ENABLE=1 forces NVLS");
    }

    /** 8 × H100 as NCCL's graphs see it: rings of 24 × 15.45 GB/s; NVLS 8 heads, bwIntra 40, bwInter 60, 16 CTAs. */
    private static TuneInput hgxNvls(CollectiveOp op, long bytes) {
        return TuneInput.of(op, bytes, 8, 1, 370.8 / 24, 0, LinkClass.NVLINK, 24)
                .withNvls(new NvlsGraph(8, 40, 60, 16, 90, java.util.Optional.empty()));
    }

    @Test
    void nvlsFollowsNcclsModelOnAnHgxBoard() {
        Tuner t = tuner();
        // busBw = 8 × min(40 × 0.85 × 7/8 × 2, 60) = 476 GB/s; algorithm bandwidth 476 × 8/14 = 272 GB/s
        Candidate nvls = t.tune(hgxNvls(CollectiveOp.ALL_REDUCE, GIB)).candidate(Algorithm.NVLS, Protocol.SIMPLE).orElseThrow();
        assertThat(nvls.bandwidthGBs()).isCloseTo(476.0 * 8 / 14, within(1e-9));
        assertThat(nvls.latencyUs()).isEqualTo(25.0);
        assertThat(nvls.timeUs()).isCloseTo(25.0 + GIB / (1000.0 * 476 * 8 / 14), within(1e-6));
        assertThat(nvls.channels()).isEqualTo(16);
        assertThat(t.tune(hgxNvls(CollectiveOp.ALL_REDUCE, GIB)).winner().algorithm()).isEqualTo(Algorithm.NVLS);
        // small sizes stay Ring/LL: NVLS pays its 25 us
        assertThat(t.tune(hgxNvls(CollectiveOp.ALL_REDUCE, 64 * KIB)).winner().algorithm()).isEqualTo(Algorithm.RING);
        // Simple only; the switch cannot reduce int8 or a product
        assertThat(t.tune(hgxNvls(CollectiveOp.ALL_REDUCE, GIB)).unavailable())
                .anySatisfy(u -> assertThat(u.label()).isEqualTo("NVLS/LL"));
        assertThat(t.tune(hgxNvls(CollectiveOp.ALL_REDUCE, GIB).withData(DataType.INT8, ReduceOp.SUM)).unavailable())
                .anySatisfy(u -> assertThat(u.reason()).contains("NVLS cannot reduce sum of int8"));
        assertThat(t.tune(hgxNvls(CollectiveOp.ALL_REDUCE, GIB).withData(DataType.FLOAT32, ReduceOp.PROD)).winner().algorithm())
                .isNotEqualTo(Algorithm.NVLS);
        // all-gather: busBw 8 × 40 × 0.85 × 7/8 × 7/8 = 208.25 GB/s, not converted; the ring wins on one node
        Candidate ag = t.tune(hgxNvls(CollectiveOp.ALL_GATHER, GIB)).candidate(Algorithm.NVLS, Protocol.SIMPLE).orElseThrow();
        assertThat(ag.bandwidthGBs()).isCloseTo(208.25, within(1e-9));
        assertThat(tuner("NCCL_NVLS_ENABLE", "0").tune(hgxNvls(CollectiveOp.ALL_REDUCE, GIB)).winner().algorithm())
                .isEqualTo(Algorithm.RING);
        assertThat(tuner("NCCL_PROTO", "LL,LL128").tune(hgxNvls(CollectiveOp.ALL_REDUCE, GIB)).unavailable())
                .anySatisfy(u -> assertThat(u.label()).isEqualTo("NVLS/Simple"));
    }

    /** N × 8 H100 as NCCL's graphs see them across nodes: NVLS heads 8, bwIntra 40, bwInter 48 (NDR), 16 CTAs. */
    private static TuneInput nodesNvls(int nNodes, long bytes) {
        return TuneInput.of(CollectiveOp.ALL_REDUCE, bytes, 8 * nNodes, nNodes, 25.0, 25.0, LinkClass.NVLINK, 16)
                .withNvls(new NvlsGraph(8, 40, 48, 16, 90, java.util.Optional.empty()));
    }

    @Test
    void nvlsTreeFollowsNcclsModelAcrossNodes() {
        Tuner t = tuner();
        // 2 nodes: busBw = 8 × min(59.5, 2 × 48, 57.7) = 461.6; latency 25 + 2 × log2(2) × 20.9 = 66.8 us
        Candidate two = t.tune(nodesNvls(2, GIB)).candidate(Algorithm.NVLS_TREE, Protocol.SIMPLE).orElseThrow();
        assertThat(two.bandwidthGBs()).isCloseTo(461.6 * 16 / 30, within(1e-9));
        assertThat(two.latencyUs()).isCloseTo(66.8, within(1e-9));
        // 4 nodes: busBw = 8 × min(59.5, 48, 45.5) = 364; latency 25 + 2 × 2 × 20.9 = 108.6 us
        Candidate four = t.tune(nodesNvls(4, GIB)).candidate(Algorithm.NVLS_TREE, Protocol.SIMPLE).orElseThrow();
        assertThat(four.bandwidthGBs()).isCloseTo(364.0 * 32 / 62, within(1e-9));
        assertThat(four.latencyUs()).isCloseTo(108.6, within(1e-9));
        // plain NVLS across nodes needs CollNet; NVLSTree is off on one node and for other collectives
        assertThat(t.tune(nodesNvls(2, GIB)).unavailable())
                .anySatisfy(u -> assertThat(u.reason()).contains("NVLS across nodes runs with IB SHARP through CollNet"));
        assertThat(t.tune(hgxNvls(CollectiveOp.ALL_REDUCE, GIB)).unavailable())
                .anySatisfy(u -> assertThat(u.reason()).isEqualTo("NCCL runs NVLSTree across nodes only"));
        assertThat(tuner("NCCL_NVLS_ENABLE", "0").tune(nodesNvls(2, GIB)).candidate(Algorithm.NVLS_TREE, Protocol.SIMPLE))
                .isEmpty();
    }

    @Test
    void channelBoundsAreHonoured() {
        Tuner t = tuner("NCCL_MIN_NCHANNELS", "4", "NCCL_MAX_NCHANNELS", "8");
        for (long bytes : new long[] {8, 64 * KIB, GIB}) {
            for (Candidate c : t.tune(hgx(CollectiveOp.ALL_REDUCE, bytes)).candidates()) {
                assertThat(c.minChannels()).isEqualTo(4);
                assertThat(c.maxChannels()).isEqualTo(8);
                assertThat(c.channels()).isBetween(4, 8);
            }
        }
        // NCCL would drop a tiny message to 1 channel; the floor keeps 4
        assertThat(t.tune(hgx(CollectiveOp.ALL_REDUCE, 8)).winner().channels()).isEqualTo(4);
        assertThat(t.tune(hgx(CollectiveOp.ALL_REDUCE, GIB)).winner().channels()).isEqualTo(8);
        // the minimum raises the communicator's channels above the graph's
        Candidate c = tuner("NCCL_MIN_NCHANNELS", "32").tune(hgx(CollectiveOp.ALL_REDUCE, GIB)).winner();
        assertThat(c.maxChannels()).isEqualTo(32);
        assertThatThrownBy(() -> c.timeUs(33)).hasMessageContaining("32..32");
    }

    @Test
    void ncclChannelChoiceFollowsThreadThresholds() {
        // Ring/Simple: nThreads 512, threshold 64 → keep nc while nBytes >= nc × 512 × 64
        Tuner t = tuner();
        long bytes = 10 * 512 * 64;
        assertThat(t.tune(hgx(CollectiveOp.ALL_REDUCE, bytes)).candidate(Algorithm.RING, Protocol.SIMPLE)
                .orElseThrow().channels()).isEqualTo(10);
        assertThat(t.tune(hgx(CollectiveOp.ALL_REDUCE, bytes - 1)).candidate(Algorithm.RING, Protocol.SIMPLE)
                .orElseThrow().channels()).isEqualTo(9);
        // Ring/LL: threshold 8 × nRanks; NCCL_NTHREADS=256 halves the work per channel
        Tuner t256 = tuner("NCCL_NTHREADS", "256");
        long llBytes = 3L * 256 * 8 * 8;
        assertThat(t256.tune(hgx(CollectiveOp.ALL_REDUCE, llBytes)).candidate(Algorithm.RING, Protocol.LL)
                .orElseThrow().channels()).isEqualTo(3);
        // LL128 ignores NCCL_NTHREADS (640 threads, threshold 8)
        long ll128Bytes = 5L * 640 * 8;
        assertThat(t256.tune(hgx(CollectiveOp.ALL_REDUCE, ll128Bytes)).candidate(Algorithm.RING, Protocol.LL128)
                .orElseThrow().channels()).isEqualTo(5);
    }

    @Test
    void predictionsAreMonotoneInSize() {
        Tuner t = tuner();
        for (TuneInput base : new TuneInput[] {hgx(CollectiveOp.ALL_REDUCE, 0), cluster(CollectiveOp.ALL_REDUCE, 0),
                hgx(CollectiveOp.ALL_GATHER, 0), cluster(CollectiveOp.BROADCAST, 0), hgx(CollectiveOp.SEND_RECV, 0)}) {
            TuneResult prev = null;
            for (long bytes = 1; bytes <= 4 * GIB; bytes *= 2) {
                TuneResult r = t.tune(base.withBytes(bytes));
                if (prev != null) {
                    for (Candidate c : r.candidates()) {
                        Candidate p = prev.candidate(c.algorithm(), c.protocol()).orElseThrow();
                        assertThat(c.costUs()).as("%s %s at %d B", base.op(), c.label(), bytes)
                                .isGreaterThanOrEqualTo(p.costUs());
                        for (int nc = c.minChannels(); nc <= c.maxChannels(); nc++) {
                            if (c.algorithm() == Algorithm.RING) {
                                assertThat(c.timeUs(nc)).isGreaterThanOrEqualTo(p.timeUs(nc));
                            }
                        }
                    }
                    assertThat(r.winner().costUs()).isGreaterThanOrEqualTo(prev.winner().costUs());
                }
                prev = r;
            }
        }
    }

    @Test
    void winnerIsTheFirstCheapestInNcclOrder() {
        Tuner t = tuner();
        for (long bytes = 1; bytes <= GIB; bytes *= 4) {
            TuneResult r = t.tune(cluster(CollectiveOp.ALL_REDUCE, bytes));
            double min = r.candidates().stream().mapToDouble(Candidate::costUs).min().orElseThrow();
            assertThat(r.winner().costUs()).isEqualTo(min);
            for (Candidate c : r.candidates()) {
                if (c == r.winner()) break;
                assertThat(c.costUs()).isGreaterThan(min);
            }
        }
        // NCCL order: Tree before Ring, LL before LL128 before Simple
        assertThat(t.tune(hgx(CollectiveOp.ALL_REDUCE, 8)).candidates()).extracting(Candidate::label).containsExactly(
                "Tree/LL", "Tree/LL128", "Tree/Simple", "Ring/LL", "Ring/LL128", "Ring/Simple");
    }

    @Test
    void ll128IsOffByDefaultOnPcieAndWithP2pDisabledButCanBeForced() {
        TuneInput pcie = TuneInput.of(CollectiveOp.ALL_REDUCE, MIB, 4, 1, 10.0, 0, LinkClass.PCIE, 4);
        TuneResult r = tuner().tune(pcie);
        assertThat(r.candidates()).noneMatch(c -> c.protocol() == Protocol.LL128);
        assertThat(r.unavailable()).anySatisfy(u -> assertThat(u.label()).isEqualTo("Ring/LL128"));
        assertThat(tuner("NCCL_PROTO", "LL128").tune(pcie).winner().protocol()).isEqualTo(Protocol.LL128);

        TuneResult p2pOff = tuner("NCCL_P2P_DISABLE", "1").tune(hgx(CollectiveOp.ALL_REDUCE, 8));
        assertThat(p2pOff.candidates()).noneMatch(c -> c.protocol() == Protocol.LL128);
        // the PCI hop latency replaces NVLink's: Ring/LL 6.6 + 14 × 1.0
        assertThat(p2pOff.candidate(Algorithm.RING, Protocol.LL).orElseThrow().latencyUs())
                .isCloseTo(6.6 + 14 * 1.0, within(EPS));
    }

    @Test
    void otherCollectivesUseRingWithTheirStepCounts() {
        Tuner t = tuner();
        Candidate ag = t.tune(hgx(CollectiveOp.ALL_GATHER, 64 * MIB)).candidate(Algorithm.RING, Protocol.SIMPLE)
                .orElseThrow();
        assertThat(ag.latencyUs()).isCloseTo(8.4 + 7 * 3.4, within(EPS));
        assertThat(ag.bandwidthGBs()).isCloseTo(24 * 20.0 * 8 / 7.0, within(EPS));
        // broadcast with duplicated channels: one hop; without: nsteps × tree's Simple hop latency
        Candidate bc = t.tune(hgx(CollectiveOp.BROADCAST, MIB)).candidate(Algorithm.RING, Protocol.SIMPLE).orElseThrow();
        assertThat(bc.latencyUs()).isCloseTo(8.4 + 3.4, within(EPS));
        TuneInput h = hgx(CollectiveOp.BROADCAST, MIB);
        TuneInput notSame = new TuneInput(h.op(), h.bytes(), 8, 1, 8, 20.0, 0, LinkClass.NVLINK, 24, 0, false);
        assertThat(t.tune(notSame).candidate(Algorithm.RING, Protocol.SIMPLE).orElseThrow().latencyUs())
                .isCloseTo(8.4 + 8 * 4.0, within(EPS));
        assertThat(t.tune(hgx(CollectiveOp.REDUCE_SCATTER, MIB)).candidates())
                .allSatisfy(c -> assertThat(c.algorithm()).isEqualTo(Algorithm.RING));
    }

    @Test
    void p2pFollowsNcclsChannelRuleAndLlThreshold() {
        Tuner t = tuner();
        // 8 ranks, 24 channels of 20 GB/s NVLink (480 GB/s: 23 links of 20.6 GB/s): p2pnChannels = pow2Up(24) = 32,
        // per peer pow2Up(min(32, 2 × 23)) = 32, nChannelsMin halved while × 8 ranks > 32: 4. An operation of B bytes
        // gets min(4, ceil(B / 64 KiB)) channels, doubled while B / channels > 16 MiB (512 KiB chunk × 32).
        assertThat(t.p2pOpChannels(hgx(CollectiveOp.SEND_RECV, 1), Protocol.SIMPLE, 1, 32)).isEqualTo(1);
        assertThat(t.p2pOpChannels(hgx(CollectiveOp.SEND_RECV, 1), Protocol.SIMPLE, 3 * 65536, 32)).isEqualTo(3);
        assertThat(t.p2pOpChannels(hgx(CollectiveOp.SEND_RECV, 1), Protocol.SIMPLE, 64 * MIB, 32)).isEqualTo(4);
        assertThat(t.p2pOpChannels(hgx(CollectiveOp.SEND_RECV, 1), Protocol.SIMPLE, 64 * MIB + 1, 32)).isEqualTo(8);
        assertThat(t.p2pOpChannels(hgx(CollectiveOp.SEND_RECV, 1), Protocol.SIMPLE, 1L << 40, 32)).isEqualTo(32);
        // LL's step is its slot (512 KiB LL buffer / 8): one channel per 8 KiB
        assertThat(t.p2pOpChannels(hgx(CollectiveOp.SEND_RECV, 1), Protocol.LL, 3 * 8192, 32)).isEqualTo(3);
        assertThat(t.tune(hgx(CollectiveOp.SEND_RECV, 64 * MIB)).winner().channels()).isEqualTo(4);
        assertThat(t.tune(hgx(CollectiveOp.SEND_RECV, 256 * MIB)).winner().channels()).isEqualTo(16);
        // LL while an operation's bytes <= p2pnChannelsPerPeer × 16384 = 512 KiB (enqueue.cc thresholdLL)
        assertThat(t.tune(hgx(CollectiveOp.SEND_RECV, 512 * 1024)).winner().protocol()).isEqualTo(Protocol.LL);
        assertThat(t.tune(hgx(CollectiveOp.SEND_RECV, 512 * 1024 + 1)).winner().protocol()).isEqualTo(Protocol.SIMPLE);
        // all-to-all: the operations are nBytes / n each (LL up to 8 × 512 KiB); the plan spans the 32 p2p channels
        assertThat(t.tune(hgx(CollectiveOp.ALL_TO_ALL, 4 * MIB)).winner().protocol()).isEqualTo(Protocol.LL);
        assertThat(t.tune(hgx(CollectiveOp.ALL_TO_ALL, 4 * MIB + 8)).winner().protocol()).isEqualTo(Protocol.SIMPLE);
        long bytes = 8 * MIB;
        Candidate a2a = t.tune(hgx(CollectiveOp.ALL_TO_ALL, bytes)).candidate(Algorithm.P2P, Protocol.SIMPLE)
                .orElseThrow();
        assertThat(a2a.channels()).isEqualTo(32);
        double lat = 8.4 + 3.4;
        assertThat(a2a.costUs()).isCloseTo(lat + bytes * 7.0 / 8 / (1000 * 32 * 20.0), within(EPS));
        // across nodes (16 p2p channels): a network peer gets 2 channels, halved while 2 × nRanks > 4 × 16
        assertThat(t.p2pChannelsPerPeer(cluster(CollectiveOp.ALL_TO_ALL, MIB), 16)).isEqualTo(1); // 64 ranks
        assertThat(t.p2pChannelsPerPeer(TuneInput.of(CollectiveOp.ALL_TO_ALL, MIB, 16, 2, 20.0, 12.0, LinkClass.NVLINK, 16),
                16)).isEqualTo(2);
        assertThat(t.p2pSettings(cluster(CollectiveOp.ALL_TO_ALL, MIB), 16).chunkBytes()).isEqualTo(128 * 1024);
        // NCCL_NCHANNELS_PER_NET_PEER replaces the network rule (no halving); the NVLink peers' count still bounds it
        assertThat(tuner("NCCL_NCHANNELS_PER_NET_PEER", "4").p2pChannelsPerPeer(cluster(CollectiveOp.ALL_TO_ALL, MIB), 16))
                .isEqualTo(4);
        assertThat(tuner("NCCL_NCHANNELS_PER_NET_PEER", "3").p2pChannelsPerPeer(cluster(CollectiveOp.ALL_TO_ALL, MIB), 16))
                .isEqualTo(4); // a power of two, as NCCL's pow2Up
        assertThat(t.p2pSettings(hgx(CollectiveOp.ALL_TO_ALL, MIB), 32).chunkBytes()).isEqualTo(512 * 1024);
        // NCCL_ALGO does not apply to point-to-point
        assertThat(tuner("NCCL_ALGO", "tree").tune(hgx(CollectiveOp.SEND_RECV, MIB)).winner().algorithm())
                .isEqualTo(Algorithm.P2P);
    }

    @Test
    void oneRankIsALocalCopyOfZeroCost() {
        TuneResult r = tuner().tune(TuneInput.of(CollectiveOp.ALL_REDUCE, MIB, 1, 1, 20.0, 0, LinkClass.NVLINK, 4));
        assertThat(r.candidates()).hasSize(1);
        assertThat(r.winner().label()).isEqualTo("Ring/Simple");
        assertThat(r.winner().costUs()).isZero();
    }

    @Test
    void sameInputsGiveIdenticalResults() {
        TuneResult a = tuner().tune(cluster(CollectiveOp.ALL_REDUCE, 3 * MIB + 7));
        TuneResult b = tuner().tune(cluster(CollectiveOp.ALL_REDUCE, 3 * MIB + 7));
        assertThat(a.winner().toString()).isEqualTo(b.winner().toString());
        assertThat(a.candidates().toString()).isEqualTo(b.candidates().toString());
    }

    @Test
    void inputValidation() {
        assertThatThrownBy(() -> TuneInput.of(CollectiveOp.ALL_REDUCE, -1, 8, 1, 20, 0, LinkClass.NVLINK, 24))
                .hasMessageContaining("bytes");
        assertThatThrownBy(() -> TuneInput.of(CollectiveOp.ALL_REDUCE, 8, 12, 5, 20, 10, LinkClass.NVLINK, 24))
                .hasMessageContaining("nNodes (5) × gpusPerNode (2)");
        assertThatThrownBy(() -> TuneInput.of(CollectiveOp.ALL_REDUCE, 8, 16, 2, 20, 0, LinkClass.NVLINK, 24))
                .hasMessageContaining("interBwGBs");
        assertThatThrownBy(() -> TuneInput.of(CollectiveOp.ALL_REDUCE, 8, 8, 1, 20, 0, LinkClass.NET, 24))
                .hasMessageContaining("NVLINK or PCIE");
        assertThatThrownBy(() -> TuneInput.of(CollectiveOp.ALL_REDUCE, 8, 8, 1, 20, 0, LinkClass.NVLINK, 65))
                .hasMessageContaining("1..64");
    }
}
