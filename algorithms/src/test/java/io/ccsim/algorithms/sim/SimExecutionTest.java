package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.CommLayout;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.PlanOptions;
import io.ccsim.algorithms.plan.Planners;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.sim.Simulator;
import io.ccsim.topology.BuildOptions;
import io.ccsim.topology.Link;
import io.ccsim.topology.LinkHealth;
import io.ccsim.topology.LinkKind;
import io.ccsim.topology.Topology;
import io.ccsim.topology.TopologyCatalog;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SimExecutionTest {
    private static final CalibrationProfile H200 = CalibrationProfile.builtin("h200");
    private final Topology board4 = TopologyCatalog.build("hgx-h200", BuildOptions.of(4, 1));

    private static Plan ringAllReduce(int n, long count, Protocol p, int channels, int[][] rings) {
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, ReduceOp.SUM, 0, CommLayout.singleHost(n));
        PlanOptions o = PlanOptions.of(Algorithm.RING, p, channels);
        if (rings != null) o = o.withRingOrders(rings);
        return Planners.standard().plan(call, o);
    }

    /** Runs the plan with every rank launched at 0, applying {@code midRun} at {@code atPs}. */
    private static Run run(Topology t, Plan plan, boolean fold, long atPs, java.util.function.Consumer<Fabric> midRun, int... skipRanks) {
        return run(H200, t, plan, fold, atPs, midRun, skipRanks);
    }

    private static Run run(CalibrationProfile profile, Topology t, Plan plan, boolean fold, long atPs,
                           java.util.function.Consumer<Fabric> midRun, int... skipRanks) {
        Simulator sim = new Simulator(7);
        Fabric fabric = new Fabric(sim, t, profile);
        SimExecution x = new SimExecution(sim, fabric, plan, SimExecutor.firstGpus(t, plan.nRanks()), tm -> { }, fold);
        for (int r = 0; r < plan.nRanks(); r++) {
            final int rr = r;
            if (java.util.Arrays.stream(skipRanks).noneMatch(s -> s == rr)) x.launch(r);
        }
        if (midRun != null) sim.scheduleAt(atPs, () -> midRun.accept(fabric));
        sim.run();
        return new Run(x, sim.dispatchedCount());
    }

    record Run(SimExecution x, long events) { }

    @Test
    void foldedReplicaChannelsGiveExactlyTheUnfoldedResult() {
        // 8 channels on one ring: channels with equal data are replicas of channel 0 (by symmetry)
        Plan plan = ringAllReduce(4, 3 * 1024 * 1024 + 12345, Protocol.SIMPLE, 8, null);
        Run folded = run(board4, plan, true, 0, null);
        Run full = run(board4, plan, false, 0, null);
        assertThat(folded.x().isDone()).isTrue();
        assertThat(full.x().isDone()).isTrue();
        int sum = 0;
        for (int c = 0; c < 8; c++) sum += folded.x().channelMultiplicity(c);
        assertThat(sum).isEqualTo(8);
        assertThat(folded.x().channelMultiplicity(0)).isGreaterThan(1);
        assertThat(folded.x().endTimePs()).isEqualTo(full.x().endTimePs());
        assertThat(folded.x().stepsExecuted()).isEqualTo(full.x().stepsExecuted());
        assertThat(folded.events()).isLessThan(full.events());
    }

    @Test
    void aChannelSkewStartsChannelsByPhaseAndFoldsOnlyChannelsOfOnePhase() {
        CalibrationProfile skewed = H200.withSim(H200.sim().withChannelSkew(500));
        Plan plan = ringAllReduce(4, 3 * 1024 * 1024 + 12345, Protocol.SIMPLE, 16, null);
        Run folded = run(skewed, board4, plan, true, 0, null);
        Run full = run(skewed, board4, plan, false, 0, null);
        // channels c and c + 8 start together and stay alike: folding them is still exact
        assertThat(folded.x().endTimePs()).isEqualTo(full.x().endTimePs());
        assertThat(folded.x().stepsExecuted()).isEqualTo(full.x().stepsExecuted());
        int reps = 0;
        for (int c = 0; c < 16; c++) {
            int m = folded.x().channelMultiplicity(c);
            if (m > 0) {
                reps++;
                assertThat(m).as("channel %d", c).isLessThanOrEqualTo(2);
            }
        }
        assertThat(reps).as("one representative per phase at least").isGreaterThanOrEqualTo(SimCosts.SKEW_PHASES);
        assertThat(run(board4, plan, true, 0, null).x().channelMultiplicity(0)).as("without a skew").isGreaterThan(2);
        // latency-bound (1 KiB per channel): the last phase starts 7 x 500 ns late and finishes about that much later
        Plan tiny = ringAllReduce(4, 16 * 256, Protocol.SIMPLE, 16, null);
        long late = run(skewed, board4, tiny, true, 0, null).x().endTimePs() - run(board4, tiny, true, 0, null).x().endTimePs();
        assertThat(late).isBetween(3_000_000L, 3_500_000L);
    }

    @Test
    void aDegradedNvlinkMidCollectiveSlowsTheRestOfIt() {
        Plan plan = ringAllReduce(4, 64L << 20, Protocol.SIMPLE, 24, null);
        long t0 = run(board4, plan, true, 0, null).x().endTimePs();
        // at half time, every NVLink of GPU 1 drops to half its rate: the ring is paced by GPU 1's port
        // group, so the second half (bandwidth-bound) takes about twice as long: T ~ T0/2 + 2 * T0/2
        List<Link> gpu1 = board4.links().stream().filter(l -> l.kind() == LinkKind.NVLINK && l.a().equals("n0.gpu1"))
                .collect(Collectors.toList());
        assertThat(gpu1).hasSize(4);
        long t1 = run(board4, plan, true, t0 / 2, f -> gpu1.forEach(l -> f.setLinkHealth(l.id(), LinkHealth.degraded(0.5))))
                .x().endTimePs();
        assertThat((double) t1 / t0).isBetween(1.35, 1.55);
    }

    @Test
    void aLinkThatGoesDownMidCollectiveHangsItAndSaysWhere() {
        Plan plan = ringAllReduce(4, 16L << 20, Protocol.SIMPLE, 4, null);
        List<Link> gpu2 = board4.links().stream().filter(l -> l.kind() == LinkKind.NVLINK && l.a().equals("n0.gpu2"))
                .collect(Collectors.toList());
        Run r = run(board4, plan, true, 20_000_000L, f -> gpu2.forEach(l -> f.setLinkHealth(l.id(), LinkHealth.linkDown())));
        assertThat(r.x().isDone()).isFalse();
        List<SimExecution.Blocked> blocked = r.x().blockedWorkers();
        assertThat(blocked).isNotEmpty();
        assertThat(blocked.stream().map(Object::toString).collect(Collectors.joining("\n"))).contains("stalled");
    }

    @Test
    void aRankThatNeverLaunchesStallsItsNeighbours() {
        Plan plan = ringAllReduce(4, 1 << 20, Protocol.LL, 2, null);
        Run r = run(board4, plan, true, 0, null, 2);
        assertThat(r.x().isDone()).isFalse();
        String blocked = r.x().blockedWorkers().stream().map(Object::toString).collect(Collectors.joining("\n"));
        assertThat(blocked).contains("rank 2 channel 0 step 0/").contains("kernel never launched");
        assertThat(blocked).contains("waiting for data from rank 2");
    }

    /**
     * A sending step commits as soon as its inputs are known and its flows wait out the step overhead in
     * their latency phase (no wake event): while they do, the worker reads as starting its step, and each
     * flow costs exactly two events (end of latency, completion), as the wake event plus completion did.
     */
    @Test
    void aCommittedStepWaitsOutItsOverheadInTheFlowsLatencyPhase() {
        // 64 KiB: every step fits one transfer (below the forwarding unit), so a sending step is one flow
        Plan plan = ringAllReduce(4, 1 << 14, Protocol.SIMPLE, 2, null);
        Simulator sim = new Simulator(7);
        Fabric fabric = new Fabric(sim, board4, H200);
        SimExecution x = new SimExecution(sim, fabric, plan, SimExecutor.firstGpus(board4, plan.nRanks()), tm -> { }, false);
        x.launchAll();
        while (x.stepsExecuted() == 0 && sim.step()) { }
        // the first rank just started: its first steps (send-only) committed at this instant, with flows pending
        assertThat(x.stepsExecuted()).isPositive();
        assertThat(fabric.network().activeFlowCount()).isPositive();
        String blocked = x.blockedWorkers().stream().map(Object::toString).collect(Collectors.joining("\n"));
        assertThat(blocked).contains("starting its step").doesNotContain("transfer in progress");
        sim.run();
        assertThat(x.isDone()).isTrue();
        assertThat(x.blockedWorkers()).isEmpty();
        // events: per flow its latency end and its completion; per rank its start; per receive-only step
        // (ring: one send per sending step, channels unfolded, so steps - flows of them) its end, and a wake
        // before it when its data was still on the way
        long flows = x.flowsStarted();
        long recvOnly = x.stepsExecuted() - flows;
        assertThat(recvOnly).isPositive();
        assertThat(sim.dispatchedCount()).isBetween(2 * flows + plan.nRanks() + recvOnly, 2 * flows + plan.nRanks() + 2 * recvOnly);
    }

    @Test
    void sameInputsSameTimeline() {
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 2));
        CommGraph g = CommGraph.of(t, 16);
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, 1 << 22, DataType.BFLOAT16, ReduceOp.SUM, 0, g.layout());
        Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.RING, Protocol.LL128, 8).withRingOrders(g.ringOrders(8)));
        Run a = run(t, plan, true, 0, null);
        Run b = run(t, plan, true, 0, null);
        assertThat(a.x().endTimePs()).isEqualTo(b.x().endTimePs());
        assertThat(a.events()).isEqualTo(b.events());
    }

    @Test
    void costGrowsLinearlyWithTheNumberOfTransfers() {
        // 4 nodes x 8 GPUs, ring all-reduce of 16, 32 and 64 MiB per rank: the transfers grow with the size
        // and the events per transfer stay constant: a flow costs its completion event, a step at most one
        // wake-up of its worker (arrivals and credits cost no event); 16 channels fold into 8 ring classes
        Topology t = TopologyCatalog.build("hgx-h100", BuildOptions.of(0, 4));
        CommGraph g = CommGraph.of(t, 32);
        double[] perFlow = new double[3];
        long[] flows = new long[3];
        for (int i = 0; i < 3; i++) {
            long count = (4L << 20) << i;
            CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, ReduceOp.SUM, 0, g.layout());
            // NCCL_BUFFSIZE=64K: 8 KiB slots, 32 KiB chunks, so the loops (and flows) grow with the data here
            Plan plan = Planners.standard().plan(call, PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, g.nChannels())
                    .withRingOrders(g.ringOrders(g.nChannels())).withBufferBytes(64 * 1024));
            Run r = run(t, plan, true, 0, null);
            assertThat(r.x().isDone()).isTrue();
            flows[i] = r.x().flowsStarted();
            // transfers = flows (slice or sub-slice transfers) + the steps that start them (one wake each at most)
            long simulatedSteps = r.x().stepsExecuted() / (g.nChannels() / 8);
            perFlow[i] = (double) r.events() / (flows[i] + simulatedSteps);
            assertThat(perFlow[i]).isLessThanOrEqualTo(1.05); // + a few per rank (launch, kernel start)
        }
        assertThat((double) flows[1] / flows[0]).isBetween(1.5, 2.5); // chunk geometry: not exactly 2
        assertThat((double) flows[2] / flows[1]).isBetween(1.5, 2.5);
        assertThat(perFlow[1] / perFlow[0]).isBetween(0.9, 1.1);
        assertThat(perFlow[2] / perFlow[0]).isBetween(0.9, 1.1);
    }

    @Test
    void fabricAppliesTheProfilesDuplexEfficiencyToFullDuplexNvlinkGroups() {
        double e = 0.6;
        CalibrationProfile p = H200.withSim(H200.sim().withDuplexEfficiency(io.ccsim.algorithms.profile.LinkClass.NVLINK, e));
        Fabric f = new Fabric(new Simulator(1), board4, p);
        int nvlinkGroups = 0;
        for (io.ccsim.topology.LinkGroup g : board4.fabric()) {
            boolean applies = Fabric.classOf(g.members().get(0).kind()) == io.ccsim.algorithms.profile.LinkClass.NVLINK
                    && g.sharing() == io.ccsim.sim.Sharing.FULL_DUPLEX;
            assertThat(f.network().duplexEfficiency(g.index())).as(g.id()).isEqualTo(applies ? e : 1.0);
            if (applies) nvlinkGroups++;
        }
        assertThat(nvlinkGroups).isPositive();
        // a 2-rank ring all-reduce sends both ways over each GPU's NVLink group: with the joint limit it is
        // slower than with independent directions
        Plan plan = ringAllReduce(2, 64L << 20, Protocol.SIMPLE, 16, null);
        long both = timeOf(p, plan);
        long indep = timeOf(H200.withSim(H200.sim().withDuplexEfficiency(io.ccsim.algorithms.profile.LinkClass.NVLINK, 1.0)), plan);
        assertThat(both).isGreaterThan(indep);
    }

    private static Plan p2p(CollectiveOp op, int n, long count, int channels) {
        CollectiveCall call = new CollectiveCall(op, count, DataType.FLOAT32, ReduceOp.SUM, 0, CommLayout.singleHost(n));
        return Planners.standard().plan(call, PlanOptions.of(Algorithm.P2P, Protocol.SIMPLE, channels));
    }

    @Test
    void multiPeerEfficiencyCapsAGpuTalkingToSeveralPeersAndNothingElse() {
        double e = 0.5;
        CalibrationProfile none = H200.withSim(H200.sim().withMultiPeerEfficiency(Protocol.SIMPLE, 1.0));
        CalibrationProfile half = H200.withSim(H200.sim().withMultiPeerEfficiency(Protocol.SIMPLE, e));
        // the link's capacity: e x the sum of the GPU's NVLink groups (per direction, link efficiency applied)
        Fabric f = new Fabric(new Simulator(1), board4, half);
        int g0 = SimExecutor.firstGpus(board4, 1)[0];
        String gpu0 = board4.nodes().get(g0).id();
        double sum = 0;
        for (io.ccsim.topology.LinkGroup g : board4.fabric()) {
            Link l = g.members().get(0);
            if (l.kind() == LinkKind.NVLINK && (l.a().equals(gpu0) || l.b().equals(gpu0))) sum += f.network().capacity(g.index());
        }
        assertThat(sum).isGreaterThan(300e9);
        int link = f.multiPeerLink(g0, Protocol.SIMPLE);
        assertThat(link).isGreaterThanOrEqualTo(board4.fabric().size());
        assertThat(f.network().capacity(link)).isCloseTo(e * sum, org.assertj.core.data.Offset.offset(1.0));
        assertThat(f.multiPeerLink(g0, Protocol.SIMPLE)).isEqualTo(link); // one per GPU and protocol
        assertThat(new Fabric(new Simulator(1), board4, none).multiPeerLink(g0, Protocol.SIMPLE)).isEqualTo(-1);
        // a degraded NVLink lowers it with the GPU's capacity
        Link nv = board4.links().stream().filter(l -> l.kind() == LinkKind.NVLINK && l.a().equals(gpu0)).findFirst().orElseThrow();
        double before = f.network().capacity(board4.groupOf(nv.id()).index());
        f.setLinkHealth(nv.id(), new LinkHealth(0.5, false, List.of(), 0));
        double lost = before - f.network().capacity(board4.groupOf(nv.id()).index());
        assertThat(lost).isPositive();
        assertThat(f.network().capacity(link)).isCloseTo(e * (sum - lost), org.assertj.core.data.Offset.offset(1.0));

        // all-to-all, 4 ranks, 128 MiB per peer on 24 channels: the per-channel limits allow far more than e x sum,
        // so each GPU's 3 x 128 MiB leave at e x sum at most: t >= 3 x 128 MiB / (e x sum), and within 10 % of it
        long count = 32L << 20;
        Plan a2a = p2p(CollectiveOp.ALL_TO_ALL, 4, count, 24);
        double bound = 3.0 * count * 4 / (e * sum) * 1e12;
        long capped = timeOf(half, a2a);
        assertThat((double) capped).isGreaterThanOrEqualTo(bound).isLessThan(1.1 * bound);
        assertThat((double) timeOf(none, a2a)).isLessThan(0.8 * bound);
        // a send/recv ring talks to one peer each way: untouched; so are a 2-rank all-to-all and a ring all-reduce
        Plan ring = p2p(CollectiveOp.SEND_RECV, 4, count, 16);
        assertThat(timeOf(half, ring)).isEqualTo(timeOf(none, ring));
        Plan pair = p2p(CollectiveOp.ALL_TO_ALL, 2, count, 16);
        assertThat(timeOf(half, pair)).isEqualTo(timeOf(none, pair));
        Plan allReduce = ringAllReduce(4, count, Protocol.SIMPLE, 16, null);
        assertThat(timeOf(half, allReduce)).isEqualTo(timeOf(none, allReduce));
        // the tree's middle ranks send up and down: its 4-rank chain is capped too, by its own protocol's value
        CollectiveCall call = new CollectiveCall(CollectiveOp.ALL_REDUCE, count, DataType.FLOAT32, ReduceOp.SUM, 0, CommLayout.singleHost(4));
        Plan tree = Planners.standard().plan(call, PlanOptions.of(Algorithm.TREE, Protocol.SIMPLE, 16));
        assertThat(timeOf(half, tree)).isGreaterThan(timeOf(none, tree));
        CalibrationProfile halfLl = H200.withSim(H200.sim().withMultiPeerEfficiency(Protocol.LL, e).withMultiPeerEfficiency(Protocol.SIMPLE, 1.0));
        assertThat(timeOf(halfLl, tree)).isEqualTo(timeOf(none, tree));
    }

    private long timeOf(CalibrationProfile p, Plan plan) {
        Simulator sim = new Simulator(7);
        Fabric fabric = new Fabric(sim, board4, p);
        SimExecution x = new SimExecution(sim, fabric, plan, SimExecutor.firstGpus(board4, plan.nRanks()), tm -> { }, true);
        for (int r = 0; r < plan.nRanks(); r++) x.launch(r);
        sim.run();
        return sim.now();
    }
}

