package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.tuner.NcclEnv;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.Topology;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One all-reduce on every GPU of a topology: its time, the events and flows it took, and (with link traffic tracked)
 * the bytes per link group.
 */
final class RailRun {
    final Topology topo;
    final CommGraph graph;
    final Fabric fabric;
    final long timePs;
    /** simulator events dispatched */
    final long events;
    /** flows started */
    final long flows;

    private RailRun(Topology topo, CommGraph graph, Fabric fabric, long timePs, long events, long flows) {
        this.topo = topo;
        this.graph = graph;
        this.fabric = fabric;
        this.timePs = timePs;
        this.events = events;
        this.flows = flows;
    }

    /** A float32 sum all-reduce of {@code bytes} with {@code algo}/Simple on the graph's channels under {@code vars}. */
    static RailRun allReduce(Topology topo, Map<String, String> vars, long bytes, Algorithm algo) {
        return run(topo, vars, CollectiveOp.ALL_REDUCE, bytes, algo, true);
    }

    /**
     * As {@link #allReduce(Topology, Map, long, Algorithm)}; {@code trackLinkTraffic} false leaves link traffic
     * untracked, as perf does, which lets flows enter their bandwidth phase without an event (then {@link #bytes} reads
     * nothing).
     */
    static RailRun allReduce(Topology topo, Map<String, String> vars, long bytes, Algorithm algo, boolean trackLinkTraffic) {
        return run(topo, vars, CollectiveOp.ALL_REDUCE, bytes, algo, trackLinkTraffic);
    }

    /**
     * A float32 (sum) {@code op} of nccl-tests size {@code bytes} (all-gather, reduce-scatter: the whole buffer) with
     * {@code algo}/Simple on the graph's channels under {@code vars}; CollNet Direct with the graph's heads.
     */
    static RailRun run(Topology topo, Map<String, String> vars, CollectiveOp op, long bytes, Algorithm algo) {
        return run(topo, vars, op, bytes, algo, true);
    }

    private static RailRun run(Topology topo, Map<String, String> vars, CollectiveOp op, long bytes, Algorithm algo,
                               boolean trackLinkTraffic) {
        NcclEnv env = NcclEnv.parse(vars);
        CommGraph g = CommGraph.of(topo, topo.gpus().size(), env.net());
        long count = op == CollectiveOp.ALL_REDUCE ? bytes / 4 : bytes / 4 / g.nRanks();
        CollectiveCall call = new CollectiveCall(op, count, DataType.FLOAT32, ReduceOp.SUM, 0, g.layout());
        PlanOptions opts = PlanOptions.of(algo, Protocol.SIMPLE, g.nChannels());
        if (algo == Algorithm.RING) opts = opts.withRingOrders(g.ringOrders(g.nChannels()));
        if (algo == Algorithm.COLLNET_DIRECT) opts = opts.withNetHeads(g.collNet().headLocals());
        Plan plan = Planners.standard().plan(call, opts);
        Simulator sim = new Simulator(1);
        Fabric f = new Fabric(sim, topo, CalibrationProfile.builtin("h100"), trackLinkTraffic);
        f.setNetPolicy(env.net());
        SimExecution x = new SimExecutor(sim, f).start(plan, g.gpuOfRank(), t -> { });
        x.launchAll();
        sim.run();
        if (!x.isDone()) throw new IllegalStateException("did not complete: " + x.blockedWorkers());
        return new RailRun(topo, g, f, x.endTimePs() - x.startTimePs(), sim.dispatchedCount(), x.flowsStarted());
    }

    /** Bytes carried in both directions by the link groups whose id {@code which} accepts. */
    double bytes(Predicate<String> which) {
        double sum = 0;
        for (LinkGroup grp : topo.fabric()) {
            if (!which.test(grp.id())) continue;
            sum += fabric.network().linkBytes(grp.index(), false) + fabric.network().linkBytes(grp.index(), true);
        }
        return sum;
    }

    /** Bytes in one direction of group {@code id} (reverse: from its b end to its a end). */
    double bytes(String id, boolean reverse) {
        return fabric.network().linkBytes(topo.group(id).index(), reverse);
    }

    /** Bytes on the leaf-to-spine cables. */
    double spineBytes() { return bytes(id -> id.contains("~spine.")); }

    /** Bytes on the NIC-to-leaf cables. */
    double railBytes() { return bytes(id -> id.contains("~leaf.")); }

    /** Bytes on the GPUs' NVLink port groups. */
    double nvlinkBytes() {
        double sum = 0;
        for (LinkGroup grp : topo.fabric()) {
            if (Fabric.classOf(grp.members().get(0).kind()) == LinkClass.NVLINK) {
                sum += fabric.network().linkBytes(grp.index(), false) + fabric.network().linkBytes(grp.index(), true);
            }
        }
        return sum;
    }
}
