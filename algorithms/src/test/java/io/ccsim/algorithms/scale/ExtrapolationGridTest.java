package io.ccsim.algorithms.scale;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.perf.PerfRow;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The validation grid: the extrapolated time of every law against the simulated (folded, exact) time of the target,
 * over ops, algorithms, sizes and node counts (nodes of 2 H100 GPUs and 2 NICs on the rail-optimized fat-tree, 32 hosts
 * per leaf, so targets of 40 and 48 nodes cross the spines), each within its law's stated bound.
 */
class ExtrapolationGridTest {
    private static final CalibrationProfile H100 = CalibrationProfile.builtin("h100");
    private static final long[] SIZES = {1L << 20, 64L << 20};

    /** A cluster of 2-GPU nodes, with SHARP switches or without, per node count (built once). */
    private static final class Clusters {
        final boolean sharp;
        final int gpus;
        final Map<Integer, Topology> built = new HashMap<>();

        Clusters(boolean sharp) { this(sharp, 2); }

        Clusters(boolean sharp, int gpus) {
            this.sharp = sharp;
            this.gpus = gpus;
        }

        Topology at(int nodes) {
            return built.computeIfAbsent(nodes, n -> TopologyCatalog.build("hgx-h100", new BuildOptions(gpus, n, 1.0, 0L, 0, sharp)));
        }
    }

    private static final Clusters PLAIN = new Clusters(false);
    private static final Clusters SHARP = new Clusters(true);
    /** HGX H100 nodes of 8 GPUs and 8 NICs, for chains: their trains need chains of hundreds of ranks. */
    private static final Clusters HGX = new Clusters(false, 8);

    /** One point: the extrapolation and the simulation at the target, and the relative error in per cent. */
    private record Point(String what, Extrapolation ex, PerfRow sim, double errPct) { }

    private static Point point(Clusters c, Map<String, String> vars, CollectiveOp op, long bytes, int nodes) {
        NcclEnv env = NcclEnv.parse(vars);
        Topology target = c.at(nodes);
        Extrapolator x = new Extrapolator(c::at, nodes, target.name(), 32, H100, env, 0);
        Extrapolation e = x.run(op, bytes, DataType.FLOAT32, ReduceOp.SUM, 0);
        PerfRow sim = new PerfRunner(target, target.gpus().size(), H100, env, 0).run(op, bytes, DataType.FLOAT32, ReduceOp.SUM, 0);
        return new Point(vars + " " + op.cliName() + " " + bytes + " B on " + nodes + " nodes: " + e, e, sim,
                100 * (e.row().timeUs() - sim.timeUs()) / sim.timeUs());
    }

    private static void assertWithinBounds(List<Point> points) {
        for (Point p : points) {
            assertThat(List.of(p.ex().row().bytes(), p.ex().row().count(), p.ex().row().algo(), p.ex().row().proto(),
                    p.ex().row().channels())).as(p.what()).isEqualTo(List.of(p.sim().bytes(), p.sim().count(), p.sim().algo(),
                    p.sim().proto(), p.sim().channels()));
            assertThat(Math.abs(p.errPct())).as(p.what() + " against " + p.sim().timeUs() + " us")
                    .isLessThanOrEqualTo(p.ex().errorBoundPct());
        }
    }

    /** Rings (all-reduce, all-gather, reduce-scatter), within a leaf and across, up to 4 leaf groups. */
    @Test
    void rings() {
        List<Point> points = new ArrayList<>();
        CollectiveOp[] ops = {CollectiveOp.ALL_REDUCE, CollectiveOp.ALL_GATHER, CollectiveOp.REDUCE_SCATTER};
        for (CollectiveOp op : ops) {
            for (long bytes : SIZES) {
                for (int nodes : new int[] {12, 40, 128}) points.add(point(PLAIN, Map.of("NCCL_ALGO", "Ring"), op, bytes, nodes));
            }
        }
        assertThat(points).extracting(p -> p.ex().law()).containsOnly(ScalingLaw.RING);
        assertWithinBounds(points);
    }

    /**
     * NCCL's trees (Tree, NVLSTree) and NCCL's default choice, which is a tree here, across leaves: 80 nodes (depth 7)
     * from 20 and 40, 100 nodes from 25 and 50; and two of the grid's worst points, beyond the scale goals' 2 %: TREE's
     * bounds for Tree and for NVLSTree hold them.
     */
    @Test
    void trees() {
        List<Point> points = new ArrayList<>();
        for (long bytes : SIZES) {
            points.add(point(PLAIN, Map.of("NCCL_ALGO", "Tree"), CollectiveOp.ALL_REDUCE, bytes, 80));
            points.add(point(PLAIN, Map.of("NCCL_ALGO", "NVLSTree"), CollectiveOp.ALL_REDUCE, bytes, 80));
        }
        points.add(point(PLAIN, Map.of("NCCL_ALGO", "Tree"), CollectiveOp.ALL_REDUCE, 1L << 20, 100));
        points.add(point(PLAIN, Map.of(), CollectiveOp.ALL_REDUCE, 64L << 10, 80));
        // the law's worst point: Tree/LL128 at 4 MiB on 600 nodes, from 18 and 37 (+6.1 %)
        Point worst = point(PLAIN, Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "LL128"), CollectiveOp.ALL_REDUCE, 4L << 20, 600);
        assertThat(worst.errPct()).as(worst.what()).isGreaterThan(6.0);
        points.add(worst);
        // NVLSTree at 8 MiB on 600 nodes, from 18 and 37 (+7.95 %; its bound, 8.4 %, is 32 MiB on 600 HGX nodes)
        Point nvls = point(PLAIN, Map.of("NCCL_ALGO", "NVLSTree"), CollectiveOp.ALL_REDUCE, 8L << 20, 600);
        assertThat(nvls.errPct()).as(nvls.what()).isGreaterThan(7.0);
        points.add(nvls);
        assertThat(points).extracting(p -> p.ex().law()).containsOnly(ScalingLaw.TREE);
        assertWithinBounds(points);
    }

    /** CollNet Direct and Chain: constant within a leaf (8 nodes from 2) and across leaves (40 from 33). */
    @Test
    void collNet() {
        List<Point> points = new ArrayList<>();
        for (String algo : new String[] {"CollNetDirect", "CollNetChain"}) {
            for (long bytes : SIZES) {
                for (int nodes : new int[] {8, 40}) {
                    points.add(point(SHARP, Map.of("NCCL_ALGO", algo, "NCCL_COLLNET_ENABLE", "1"), CollectiveOp.ALL_REDUCE,
                            bytes, nodes));
                }
            }
        }
        assertThat(points).extracting(p -> p.ex().law()).containsOnly(ScalingLaw.SWITCH_LEVELS);
        assertWithinBounds(points);
    }

    /**
     * Chains (ring broadcast and reduce) on HGX nodes: 64 MiB (Ring/Simple x16, a train of 64 units) on 256 nodes from
     * trains of 32 and 64 units on 16 to 128 nodes; 1 MiB (Ring/LL128, a train of one unit) on 128 nodes from 8 to 64
     * nodes. NCCL's own choices there are LL128 and LL (rail rings are not sameChannels, so a ring broadcast pays
     * every step's latency); the protocols are forced to keep the two kinds of train. Ring/LL between one train and
     * two, which CHAIN serves under LL alone.
     */
    @Test
    void chains() {
        List<Point> points = new ArrayList<>();
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.BROADCAST, CollectiveOp.REDUCE}) {
            points.add(point(HGX, Map.of("NCCL_PROTO", "Simple"), op, 64L << 20, 256));
            points.add(point(HGX, Map.of("NCCL_PROTO", "LL128"), op, 1L << 20, 128));
        }
        // Ring/LL x1 at 6 MiB on 256 nodes: 2,048 ranks, a train of 1,536 units, between one train and two
        points.add(point(HGX, Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL", "NCCL_MAX_NCHANNELS", "1"),
                CollectiveOp.BROADCAST, 6L << 20, 256));
        assertThat(points).extracting(p -> p.ex().law()).containsOnly(ScalingLaw.CHAIN);
        assertWithinBounds(points);
    }

    /**
     * Chains no longer than their train on HGX nodes, from samples of 2, 4 and 8 nodes: NCCL's Ring/LL128 x16 at 256 MiB
     * on 32 nodes (256 ranks, a train of 263 units: the regime's far end), Ring/Simple x16 at 1 GiB on 32 nodes, and
     * Ring/LL x2 at 1 GiB on 16 nodes, whose samples run 8 and 16 MiB at the target's cost per byte.
     */
    @Test
    void trains() {
        Map<String, String> ll = Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL", "NCCL_MAX_NCHANNELS", "2");
        List<Point> points = new ArrayList<>();
        points.add(point(HGX, Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL128"), CollectiveOp.BROADCAST, 256L << 20, 32));
        points.add(point(HGX, Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"), CollectiveOp.REDUCE, 1L << 30, 32));
        points.add(point(HGX, ll, CollectiveOp.REDUCE, 1L << 30, 16));
        assertThat(points).extracting(p -> p.ex().law()).containsOnly(ScalingLaw.TRAIN);
        assertThat(points.get(2).ex().sampleBytes()).containsExactly(1L << 23, 1L << 23, 1L << 23, 1L << 24, 1L << 24, 1L << 24);
        assertWithinBounds(points);
    }

    /** The same inputs give the same extrapolation, bit for bit. */
    @Test
    void deterministic() {
        Point a = point(PLAIN, Map.of("NCCL_ALGO", "Ring"), CollectiveOp.ALL_GATHER, 1L << 20, 40);
        Point b = point(PLAIN, Map.of("NCCL_ALGO", "Ring"), CollectiveOp.ALL_GATHER, 1L << 20, 40);
        assertThat(b.ex()).isEqualTo(a.ex());
    }
}
