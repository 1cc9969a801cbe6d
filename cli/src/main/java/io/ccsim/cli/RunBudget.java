package io.ccsim.cli;

import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.net.NetPolicy;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Whether a run fits in this JVM's heap, estimated before it starts, and the one line that refuses it when it does
 * not. The estimate is the live heap of the run's topology and of its simulation, from counts known before either is
 * built (and, for a folded run, once its folding is known), times the room the garbage collector needs; measure it
 * again when the simulation's memory changes.
 *
 * <p>Contract: a run's {@link Need#heapBytes} = {@link #BASE_BYTES} + {@link #HEAP_PER_LIVE} × (topology nodes and
 * links × {@link #TOPOLOGY_ELEMENT_BYTES} + workers and connections of the simulations that run at once ×
 * {@link #SIMULATION_ELEMENT_BYTES}); for a folded run, the simulation's part is its workers × {@link #FOLDED_WORKER_BYTES}
 * + its connections × {@link #FOLDING_CONNECTION_BYTES} before it is built (the folding's peak), and its connections ×
 * {@link #FOLDED_CONNECTION_BYTES} plus the workers and connections it simulates × {@link #SIMULATION_ELEMENT_BYTES}
 * once the folding is known. A run is refused, with {@link UserException}, when that exceeds the
 * heap this JVM may grow to.
 */
final class RunBudget {
    /** The launcher's JVM options (./ccsim's default_opts), which the heap advice repeats before its -Xmx. */
    static final String JAVA_OPTS = "-Xss8m -XX:+UseParallelGC -XX:MaxGCPauseMillis=200";
    /*
     * The coefficients are measured (docs/performance.md, "Memory"; RunHeapBenchmark: heap in use after full
     * collections): a catalog topology keeps 342-348 B per node or link (1,000 to 12,500 HGX nodes: 32.7 MB for 95,480
     * nodes and links, 407.6 MB for 1,190,756); a simulation of every worker 431-984 B per worker (rank x channel x
     * lane) or connection, its flows, events, routes and queues included (all-to-all 437 B, NVLSTree 484-540 B, a 1 GiB
     * tree 852 B and a 1 GiB broadcast 984 B, whose trains of sub-transfers queue on every connection; 128 to 8,192
     * GPUs). Per element the estimate takes the larger figure, rounded up. A folded run (RankFolding) keeps every
     * worker's state and the refinement's tables, 283-604 B per worker and 35 B per connection (NVL72 NVLSTree, HGX
     * rings, trees and all-to-all), and simulates its classes' representatives at the cost of a simulation of every
     * worker, their workers and quotient connections counted; it is checked twice, before it is built (its
     * representatives unknown: the least it needs) and once they are known (the refinement done, before it simulates).
     * The smallest heap a run completes with was 1.6-1.8 times its live heap (bisection on -Xmx: 64 MiB all-reduce on
     * 16, 64, 128 x HGX H100, 11, 43, 75 MB), and ParallelGC then spends most of its time collecting; twice the live
     * heap keeps the old generation (2/3 of the heap) at most 3/4 full, and ran as fast as the default heap (16 to 512
     * nodes). The base is what the JVM holds before a run. Sizes simulated at once (--jobs) each add their simulation.
     */
    static final long TOPOLOGY_ELEMENT_BYTES = 350;
    static final long SIMULATION_ELEMENT_BYTES = 1000;
    /** What a folded run keeps per worker (rank x channel x lane) whether simulated or not, bytes. */
    static final long FOLDED_WORKER_BYTES = 650;
    /** What a folded run keeps per connection of its plan, bytes. */
    static final long FOLDED_CONNECTION_BYTES = 40;
    /**
     * What the rank folding holds per connection of its plan while it refines, at its peak: each connection's route
     * and relating hops, colours and the rounds' grouping tables, bytes. Measured by bisection on -Xmx (all-to-all 1 GiB
     * on HGX H100: 32 nodes, 1.04 M connections, fails at 256 MiB and completes at 320 MiB; 64 nodes, 4.19 M
     * connections, fails at 1.7 GiB and completes at 2.2 GiB): about 270 B a connection at twice the live heap there,
     * rounded up. Plans of a few connections per worker never notice it; all-to-all, n - 1 peers a worker, does.
     */
    static final long FOLDING_CONNECTION_BYTES = 300;
    static final long HEAP_PER_LIVE = 2;
    static final long BASE_BYTES = 16L << 20;
    /**
     * Connections per (rank, channel) beyond which a plan's connections are taken to grow with the square of its ranks
     * (a ring has one, a tree a few; all-to-all n − 1 per channel its operations use).
     */
    static final long QUADRATIC_PEERS = 16;

    private final long maxHeapBytes;

    /** @param maxHeapBytes the most heap the JVM may use ({@link Runtime#maxMemory()}), bytes */
    RunBudget(long maxHeapBytes) {
        this.maxHeapBytes = maxHeapBytes;
    }

    /**
     * The live heap of a run, bytes: its topology's and its simulation's (0 for a command that only builds), and the
     * part of the simulation's that grows with the square of the node count ({@code quadraticBytes}: the connections of
     * a plan whose every rank talks to every other, as all-to-all's; 0 for rings and trees).
     */
    record Need(long topologyBytes, String topologyWhat, long simulationBytes, String simulationWhat, long quadraticBytes) {
        Need(long topologyBytes, String topologyWhat, long simulationBytes, String simulationWhat) {
            this(topologyBytes, topologyWhat, simulationBytes, simulationWhat, 0);
        }

        long liveBytes() {
            return topologyBytes + simulationBytes;
        }

        /** The heap the run needs, bytes. */
        long heapBytes() {
            return BASE_BYTES + HEAP_PER_LIVE * liveBytes();
        }
    }

    /** The live heap of a topology of {@code nodes} nodes and {@code links} links, bytes. */
    static long topologyBytes(long nodes, long links) {
        return (nodes + links) * TOPOLOGY_ELEMENT_BYTES;
    }

    /** The live heap of simulating {@code workers} workers over {@code connections} connections, bytes. */
    static long simulationBytes(long workers, long connections) {
        return (workers + connections) * SIMULATION_ELEMENT_BYTES;
    }

    /**
     * The channels of a communicator of all GPUs of catalog topology {@code name} built with {@code options}: those of
     * a build of at most 2 boards, which has the cluster's NICs per board.
     */
    static int channels(String name, BuildOptions options, NetPolicy policy) {
        BuildOptions sampleOptions = new BuildOptions(options.gpus(), Math.min(2, options.nodes()), options.oversubscription(),
                options.seed(), options.nicsPerNode(), options.sharp());
        Topology sample = TopologyCatalog.build(name, sampleOptions);
        return CommGraph.of(sample, sample.gpus().size(), policy).nChannels();
    }

    /**
     * The need of catalog topology {@code name} built with {@code options} and, for {@code channels} &gt; 0, of
     * simulating {@code concurrent} collectives of all its GPUs at once on that many channels: one worker and one
     * connection per GPU and channel each (a ring's count; a tree has twice as many).
     */
    static Need catalog(String name, BuildOptions options, int channels, int concurrent) {
        return catalog(name, options, channels, concurrent, false);
    }

    /** As {@link #catalog(String, BuildOptions, int, int)}; with {@code folded}, the least a folded run needs. */
    static Need catalog(String name, BuildOptions options, int channels, int concurrent, boolean folded) {
        return catalog(name, options, channels, concurrent, folded, false);
    }

    /**
     * As {@link #catalog(String, BuildOptions, int, int, boolean)}; with {@code allToAll}, every GPU connects to every
     * other (an all-to-all, or a send/recv of every pair: at least one connection a pair, on one channel at the least),
     * so the connections grow with the GPUs squared.
     */
    static Need catalog(String name, BuildOptions options, int channels, int concurrent, boolean folded, boolean allToAll) {
        TopologyCatalog.BuildSize size = TopologyCatalog.size(name, options);
        long topo = topologyBytes(size.nodes(), size.links());
        String topoWhat = elements(size.nodes(), size.links());
        if (channels <= 0) return new Need(topo, topoWhat, 0, "");
        // a ring's one connection a worker: the folding's peak per connection is the plans' check (its plan unknown here)
        long workers = size.gpus() * channels;
        // a catalog has at most millions of GPUs: their pairs times an element's bytes stay far within a long
        long connections = allToAll ? size.gpus() * (size.gpus() - 1) : workers;
        long sim = concurrent * (folded ? keptBytes(workers, connections) : simulationBytes(workers, connections));
        return new Need(topo, topoWhat, sim, String.format(Locale.ROOT, "%s%,d GPUs x %d"
                        + " channels%s%s", concurrent > 1 ? concurrent + " simulations at once (--jobs), each of " : "", size.gpus(),
                channels, allToAll ? String.format(Locale.ROOT, " and %,d connections (every GPU to every other)", connections) : "",
                folded ? ", folded" : ""));
    }

    /**
     * The need of simulating the plans of a run on {@code topo}, {@code concurrent} at once (the largest ones, as far
     * as the run knows), every worker simulated.
     */
    static Need plans(Topology topo, List<Plan> plans, int concurrent) {
        return plans(topo, plans, concurrent, false);
    }

    /**
     * As {@link #plans(Topology, List, int)}; with {@code folded}, the least a folded run of them needs (each worker's
     * and connection's state, none simulated yet: {@link #folded} adds what it simulates once that is known).
     */
    static Need plans(Topology topo, List<Plan> plans, int concurrent, boolean folded) {
        List<long[]> counts = new ArrayList<>();
        for (Plan p : plans) {
            counts.add(new long[] {(long) p.nActors() * p.nChannels() * p.nLanes(), p.connectionCount(),
                    (long) p.nActors() * p.nChannels()});
        }
        counts.sort(Comparator.comparingLong((long[] c) -> elementBytes(c[0], c[1], folded)).reversed());
        int k = Math.max(1, Math.min(concurrent, counts.size()));
        long sim = 0;
        long quadratic = 0;
        for (int i = 0; i < k && i < counts.size(); i++) {
            long[] c = counts.get(i);
            sim += elementBytes(c[0], c[1], folded);
            // more connections than a tree's few per worker: they grow with the ranks squared (every rank to every rank)
            if (c[1] > QUADRATIC_PEERS * c[2]) quadratic += elementBytes(0, c[1], folded);
        }
        String what = counts.isEmpty() ? "" : String.format(Locale.ROOT, "%s%,d workers and %,d connections%s",
                k > 1 ? k + " simulations at once (--jobs), the largest of " : "", counts.get(0)[0], counts.get(0)[1],
                folded ? ", folded" : "");
        return new Need(topologyBytes(topo.nodes().size(), topo.links().size()), elements(topo.nodes().size(), topo.links().size()),
                sim, what, quadratic);
    }

    /** The simulation's live heap before it is built: with {@code folded}, at the rank folding's peak. */
    private static long elementBytes(long workers, long connections, boolean folded) {
        return folded ? workers * FOLDED_WORKER_BYTES + connections * FOLDING_CONNECTION_BYTES : simulationBytes(workers, connections);
    }

    /** What a folded run keeps of every worker and connection once its folding is known. */
    private static long keptBytes(long workers, long connections) {
        return workers * FOLDED_WORKER_BYTES + connections * FOLDED_CONNECTION_BYTES;
    }

    /**
     * The need of a folded run of {@code calls} calls of {@code plan} on {@code topo} once its folding is known: every
     * worker's and connection's state, and the {@code simulatedWorkers} workers (rank x channel x lane) and
     * {@code simulatedConnections} connections it simulates; {@code concurrent} such runs at once.
     */
    static Need folded(Topology topo, Plan plan, int calls, long simulatedWorkers, long simulatedConnections, int concurrent) {
        long workers = (long) calls * plan.nActors() * plan.nChannels() * plan.nLanes();
        long connections = (long) calls * plan.connectionCount();
        long one = keptBytes(workers, connections) + simulationBytes(simulatedWorkers, simulatedConnections);
        int k = Math.max(1, concurrent);
        String what = String.format(Locale.ROOT, "%s%,d workers and %,d connections, folded: %,d workers and %,d"
                        + " connections simulated", k > 1 ? k + " simulations at once (--jobs), each of " : "", workers,
                connections, simulatedWorkers, simulatedConnections);
        long pairs = (long) calls * plan.nActors() * plan.nChannels();
        long quadratic = connections > QUADRATIC_PEERS * pairs ? k * keptBytes(0, connections) : 0;
        return new Need(topologyBytes(topo.nodes().size(), topo.links().size()), elements(topo.nodes().size(), topo.links().size()),
                k * one, what, quadratic);
    }

    private static String elements(long nodes, long links) {
        return String.format(Locale.ROOT, "%,d nodes and %,d links", nodes, links);
    }

    /**
     * The need of an extrapolation's samples: every sample topology (all are kept), and the least the
     * {@code concurrent} largest sample simulations need at once, folded as they run (each is checked again once its
     * folding is known: {@link #foldedCheck}).
     */
    static Need samples(List<Topology> topologies, List<Plan> plans, int concurrent) {
        Need sims = plans(topologies.get(0), plans, concurrent, true);
        long topo = 0;
        long nodes = 0;
        long links = 0;
        for (Topology t : topologies) {
            topo += topologyBytes(t.nodes().size(), t.links().size());
            nodes += t.nodes().size();
            links += t.links().size();
        }
        return new Need(topo, elements(nodes, links) + " in " + topologies.size() + " sample clusters",
                sims.simulationBytes(), sims.simulationWhat(), sims.quadraticBytes());
    }

    /**
     * The check a runner gives each folded simulation once its folding is known ({@link #folded}, {@code concurrent}
     * such simulations at once on {@code topo}, a cluster of {@code nodes} boards): a simulation that does not fit is
     * refused before it runs, named by {@code what} (e.g. {@code perf all_reduce at 1073741824 B (Ring/Simple x16)}).
     */
    io.ccsim.algorithms.perf.PerfRunner.FoldedCheck foldedCheck(Topology topo, java.util.function.Function<Plan, String> what,
                                                                int concurrent, int nodes) {
        return (plan, calls, workers, conns) -> check(what.apply(plan), k -> folded(topo, plan, calls, workers, conns, k),
                concurrent, nodes);
    }

    /** Whether a run of this need fits. */
    boolean fits(Need need) {
        return need.heapBytes() <= maxHeapBytes;
    }

    /**
     * Whether a catalog build of {@code options} and {@code concurrent} simulations of all its GPUs under
     * {@code policy}, {@code folded} or not, fit ({@link #checkCatalog} refuses exactly what this says does not).
     */
    boolean fitsCatalog(String name, BuildOptions options, NetPolicy policy, int concurrent, boolean folded) {
        return fitsCatalog(name, options, policy, concurrent, folded, false);
    }

    /** As {@link #fitsCatalog(String, BuildOptions, NetPolicy, int, boolean)}; {@code allToAll} as {@link #catalog}. */
    boolean fitsCatalog(String name, BuildOptions options, NetPolicy policy, int concurrent, boolean folded, boolean allToAll) {
        if (fits(catalog(name, options, PlanOptions.MAX_CHANNELS, concurrent, folded, allToAll))) return true;
        return fits(catalog(name, options, channels(name, options, policy), concurrent, folded, allToAll));
    }

    /**
     * Refuses a catalog build of {@code options} that does not fit, naming {@code --nodes}, the need, the heap and the
     * largest node count (or {@code --jobs}) that fits; with {@code simulation} (the network policy of the run; null:
     * the build only), the build and {@code concurrent} simulations of all its GPUs, the least a folded run needs
     * where {@code folded}; the refusal offers {@code alternative} (e.g. {@code --sim-mode extrapolated, }; "" for
     * none) among what is valid.
     *
     * @throws UserException if it does not fit
     */
    void checkCatalog(String name, BuildOptions options, NetPolicy simulation, int concurrent, String alternative,
                      boolean folded) {
        checkCatalog(name, options, simulation, concurrent, alternative, folded, false);
    }

    /**
     * As {@link #checkCatalog(String, BuildOptions, NetPolicy, int, String, boolean)}; {@code allToAll}: the run
     * connects every GPU to every other ({@link #catalog(String, BuildOptions, int, int, boolean, boolean)}).
     */
    void checkCatalog(String name, BuildOptions options, NetPolicy simulation, int concurrent, String alternative,
                      boolean folded, boolean allToAll) {
        // with the most channels a plan may have, a build that fits needs no closer look (no sample build)
        if (fits(catalog(name, options, simulation == null ? 0 : PlanOptions.MAX_CHANNELS, concurrent, folded, allToAll))) return;
        int channels = simulation == null ? 0 : channels(name, options, simulation);
        Need need = catalog(name, options, channels, concurrent, folded, allToAll);
        if (fits(need)) return;
        String jobs = channels > 0 ? fewerJobs(concurrent, k -> catalog(name, options, channels, k, folded, allToAll)) : "";
        int lo = 0;
        int hi = options.nodes();
        while (hi - lo > 1) {   // the need grows with the node count: the largest count that fits
            int mid = (int) (((long) lo + hi) >>> 1);
            BuildOptions o = new BuildOptions(options.gpus(), mid, options.oversubscription(), options.seed(),
                    options.nicsPerNode(), options.sharp());
            if (fits(catalog(name, o, channels, concurrent, folded, allToAll))) lo = mid;
            else hi = mid;
        }
        String nodes = lo >= 1 ? String.format(Locale.ROOT, "--nodes <= %,d, ", lo) : "";
        throw new UserException("--nodes " + options.nodes() + ": " + describe(channels > 0 ? "the run" : "the topology", need)
                + "; valid here: " + jobs + nodes + alternative + "or more heap: " + heapOption(need));
    }

    /**
     * Refuses the simulations of a run that do not fit, naming {@code what} (the command and its largest call) and
     * what would fit: fewer simulations at once, or, for a cluster of {@code nodes} boards, about how many boards
     * (the need grows about linearly with them).
     *
     * @param needAt the need with k simulations at once, for k = 1 .. {@code concurrent}
     * @throws UserException if it does not fit
     */
    void check(String what, java.util.function.IntFunction<Need> needAt, int concurrent, int nodes) {
        check(what, needAt, concurrent, nodes, "");
    }

    /**
     * As {@link #check(String, java.util.function.IntFunction, int, int)}, the refusal offering {@code alternative}
     * (e.g. {@code --sim-mode extrapolated, }; "" for none) among what is valid.
     */
    void check(String what, java.util.function.IntFunction<Need> needAt, int concurrent, int nodes, String alternative) {
        check(what, needAt, concurrent, nodes, () -> alternative);
    }

    /** As {@link #check(String, java.util.function.IntFunction, int, int, String)}, the alternative made on refusal only. */
    void check(String what, java.util.function.IntFunction<Need> needAt, int concurrent, int nodes,
               java.util.function.Supplier<String> alternative) {
        Need need = needAt.apply(concurrent);
        if (fits(need)) return;
        String valid = fewerJobs(concurrent, needAt);
        if (valid.isEmpty() && nodes > 1) {
            long fit = (long) Math.floor(nodes * fittingScale(need));
            valid = fit >= 1 ? String.format(Locale.ROOT, "about --nodes <= %,d, ", fit) : "";
        }
        valid += alternative.get();
        throw new UserException(what + ": " + describe("the run", need) + "; valid here: " + valid
                + (valid.isEmpty() ? "more heap: " : "or more heap: ") + heapOption(need));
    }

    /*
     * The node count that fits. With the nodes scaled by s, the live heap is about (topology + simulation - quadratic)
     * x s + quadratic x s^2 (a topology, its workers and a ring's or a tree's connections grow with the nodes;
     * all-to-all's connections with their square), so the largest s with BASE + HEAP_PER_LIVE x live <= the heap is the
     * positive root of a x s^2 + b x s + c = 0.
     */
    /** The largest factor, in [0, 1], by which the run's node count may be scaled for {@code need} to fit this heap. */
    double fittingScale(Need need) {
        double a = HEAP_PER_LIVE * (double) need.quadraticBytes();
        double b = HEAP_PER_LIVE * (double) (need.liveBytes() - need.quadraticBytes());
        double c = BASE_BYTES - (double) maxHeapBytes;
        if (c >= 0) return 0;
        double scale = a == 0 ? -c / b : (-b + Math.sqrt(b * b - 4 * a * c)) / (2 * a);
        return Math.min(1, scale);
    }

    /** {@code --jobs K, } for the most simulations at once below {@code concurrent} that fit, or "" if none does. */
    private String fewerJobs(int concurrent, java.util.function.IntFunction<Need> needAt) {
        for (int k = concurrent - 1; k >= 1; k--) {
            if (fits(needAt.apply(k))) return "--jobs " + k + ", ";
        }
        return "";
    }

    private String describe(String subject, Need need) {
        StringBuilder live = new StringBuilder("topology " + gb(need.topologyBytes()) + " for " + need.topologyWhat());
        if (need.simulationBytes() > 0) {
            live.append(", simulation ").append(gb(need.simulationBytes())).append(" for ").append(need.simulationWhat());
        }
        return String.format(Locale.ROOT, "%s needs about %s of heap (%d x its live heap: %s), this JVM has %s", subject,
                gb(need.heapBytes()), HEAP_PER_LIVE, live, gb(maxHeapBytes));
    }

    /**
     * The launcher's options with a heap the need fits in, in whole GiB rounded up: ParallelGC's usable heap
     * ({@link Runtime#maxMemory()}) is -Xmx less a survivor space, 89 % of it at -Xmx470m, so the option asks for the
     * need / 0.85.
     */
    private static String heapOption(Need need) {
        long g = (long) Math.ceil(need.heapBytes() / 0.85 / (1L << 30));
        return "CCSIM_JAVA_OPTS='" + JAVA_OPTS + " -Xmx" + g + "g'";
    }

    /** Bytes as GiB with one decimal (the unit of {@code -Xmx...g}), or MiB below 1 GiB. */
    static String gb(long bytes) {
        if (bytes < (1L << 30)) return String.format(Locale.ROOT, "%.0f MiB", bytes / (double) (1L << 20));
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
