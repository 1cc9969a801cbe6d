package io.ccsim.scenarios.cluster;

import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.sim.SimExecution;
import io.ccsim.algorithms.sim.SimExecutor;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.Topology;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The time a plan takes alone on the nominal topology: a separate simulation (a fresh simulator and
 * algorithms fabric, every rank launched at 0, folded by symmetry unless a link flaps), cached per plan, GPUs and
 * link rates. The analyzer
 * compares a collective's actual time with it; with some links degraded ({@link #durationWith}) it
 * answers "what would healing this link alone gain" when several links bound a collective.
 */
final class HealthyReference {
    private final Topology topo;
    private final CalibrationProfile profile;
    private final io.ccsim.algorithms.tuner.NcclEnv env;
    private final long seed;
    private final io.ccsim.sim.RunControl control;
    private final Map<String, Long> cache = new HashMap<>();
    /** whether a link of the topology flaps (its capacity changes mid-run, which symmetry folding does not follow) */
    private final boolean flaps;

    /**
     * @param seed    seed of the reference simulations
     * @param control polled by the reference simulations as by the scenario's (null: none)
     */
    HealthyReference(Topology topo, CalibrationProfile profile, io.ccsim.algorithms.tuner.NcclEnv env, long seed,
                     io.ccsim.sim.RunControl control) {
        this.topo = topo;
        this.profile = profile;
        this.env = env;
        this.seed = seed;
        this.control = control;
        this.flaps = topo.links().stream().anyMatch(l -> !l.health().flaps().isEmpty());
    }

    /**
     * The duration of {@code plan} on GPU nodes {@code gpuNodes} of the healthy topology, ps.
     *
     * @throws IllegalStateException if the reference run does not complete
     */
    long duration(Plan plan, int[] gpuNodes) { return durationWith(plan, gpuNodes, Map.of()); }

    /**
     * The duration of {@code plan} on GPU nodes {@code gpuNodes} of the topology with the links of
     * {@code factors} (link id to degrade factor in (0, 1]) at that fraction of their rate and every other
     * link nominal, ps.
     *
     * @throws IllegalStateException if the run does not complete
     */
    long durationWith(Plan plan, int[] gpuNodes, Map<String, Double> factors) {
        Map<String, Double> sorted = new TreeMap<>(factors);
        String key = plan + "|" + Arrays.toString(gpuNodes) + "|" + sorted;
        Long cached = cache.get(key);
        if (cached != null) return cached;
        Simulator sim = new Simulator(seed);
        sim.setRunControl(control);
        io.ccsim.algorithms.sim.Fabric f = new io.ccsim.algorithms.sim.Fabric(sim, topo, profile);
        f.setP2pDisabled(env.p2pDisable());
        f.setNetPolicy(env.net());
        for (Map.Entry<String, Double> e : sorted.entrySet()) {
            f.setLinkHealth(e.getKey(), new LinkHealth(e.getValue(), false, List.of(), 0.0));
        }
        // every rank launches at 0 on capacities that stay put: the symmetry folding is exact (RankFolding)
        SimExecution x = new SimExecutor(sim, f).start(plan, gpuNodes, t -> { }, flaps ? SimExecution.Folding.CHANNELS
                : SimExecution.Folding.RANKS);
        x.launchAll();
        sim.run();
        if (!x.isDone()) throw new IllegalStateException("the healthy reference run of " + plan + " did not complete: " + x.blockedWorkers());
        long d = x.endTimePs() - x.startTimePs();
        cache.put(key, d);
        return d;
    }
}
