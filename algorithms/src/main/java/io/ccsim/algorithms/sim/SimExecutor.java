package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.plan.Plan;
import io.ccsim.sim.Simulator;
import io.ccsim.sim.flow.FlowNetwork;
import io.ccsim.topology.Node;
import io.ccsim.topology.Topology;
import java.util.List;

/**
 * Executes plans over a topology's fabric in a {@link Simulator}: the simulated twin of the CPU and
 * CUDA executors (see {@link SimExecution} for the timing model).
 */
public final class SimExecutor {
    private final Simulator sim;
    private final Fabric fabric;

    public SimExecutor(Simulator sim, Fabric fabric) {
        this.sim = sim;
        this.fabric = fabric;
    }

    public Simulator simulator() { return sim; }

    public Fabric fabric() { return fabric; }

    public FlowNetwork network() { return fabric.network(); }

    /**
     * Prepares {@code plan} on GPUs {@code gpuOfRank} (topology node indices, one per rank). Nothing
     * moves until ranks {@link SimExecution#launch launch}.
     */
    public SimExecution start(Plan plan, int[] gpuOfRank, SimExecution.Listener listener) {
        return new SimExecution(sim, fabric, plan, gpuOfRank, listener);
    }

    /**
     * As {@link #start(Plan, int[], SimExecution.Listener)}, simulating only what {@code folding} leaves
     * ({@link SimExecution.Folding#RANKS} is exact only when every rank launches at the same time).
     */
    public SimExecution start(Plan plan, int[] gpuOfRank, SimExecution.Listener listener, SimExecution.Folding folding) {
        return new SimExecution(sim, fabric, plan, gpuOfRank, listener, folding);
    }

    /** Topology node indices of the first {@code nRanks} GPUs in rank order (host, then local index). */
    public static int[] firstGpus(Topology t, int nRanks) {
        List<Node> gpus = t.gpus();
        if (nRanks > gpus.size()) {
            throw new IllegalArgumentException(nRanks + " ranks but topology " + t.name() + " has " + gpus.size() + " GPUs");
        }
        int[] out = new int[nRanks];
        for (int r = 0; r < nRanks; r++) out[r] = t.nodeIndex(gpus.get(r).id());
        return out;
    }
}
