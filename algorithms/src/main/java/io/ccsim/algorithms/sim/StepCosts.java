package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.Primitive;
import io.ccsim.algorithms.plan.SwitchKind;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.CtaCosts;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.SimCosts;
import io.ccsim.algorithms.profile.SimProtocolCosts;
import io.ccsim.sim.Time;

/**
 * What each kind of step of one plan costs, resolved once per execution from the calibration profile's {@code sim}
 * section ({@link SimCosts}) for the plan's algorithm family ({@link SimCosts.Family#of}) and protocol.
 *
 * @param protocol           the plan's protocol
 * @param algorithm          the plan's algorithm
 * @param family             the family whose costs are charged
 * @param familyCosts        that family's costs of the protocol
 * @param launchPs           from a rank's kernel launch to its first step, ps (≥ 0)
 * @param channelSkewPs      how much later channel c starts than channel c − 1 of its phase group, ps (≥ 0; 0:
 *                           channels start together); channel c starts (c mod {@link SimCosts#SKEW_PHASES}) × this late
 * @param stepOverheadPs     the overhead of a step that sends, ps (≥ 0), paid once per step before its first transfer
 * @param recvStepOverheadPs the overhead of a step that sends nothing (receive-only or local), ps (≥ 0)
 * @param channelCapBps      a sending step's rate limit, wire bytes/s (&gt; 0): the family's per-channel limit
 * @param reduceCapBps       a reducing step's rate limit, wire bytes/s (&gt; 0): the per-channel limit or the reduction
 *                           throughput in wire bytes, whichever is lower
 * @param copyBps            a local copy's rate, data bytes/s (&gt; 0)
 * @param pipelineBytes      the forwarding unit, data bytes (≥ 1): a step of B bytes moves as ceil(B / pipelineBytes)
 *                           sub-transfers
 * @param cta                the thread block's per-stream costs of the protocol, or null: the per-channel limit model
 * @param loadFactor         the cta model's multiplier of every cost for the plan's channels per GPU (≥ 1; 1 without cta)
 * @param bufferFactor       the cta model's multiplier of src and dst costs for the call's working set per GPU (≥ 1; 1
 *                           without cta)
 */
record StepCosts(Protocol protocol, Algorithm algorithm, SimCosts.Family family, SimProtocolCosts familyCosts, long launchPs,
                 long channelSkewPs, long stepOverheadPs, long recvStepOverheadPs, double channelCapBps, double reduceCapBps,
                 double copyBps, long pipelineBytes, CtaCosts cta, double loadFactor, double bufferFactor) {
    /*
     * Model (one step of a worker; units: ps, bytes, bytes/s).
     *
     * Overhead. A step pays its overhead (flag write, the peer's poll, fence) once, when its inputs are there: the
     * latency phase of its first flow for a sending step, a wait for any other. ccsim's Simple kernel fences only
     * before it publishes what it sent (gpu-backend ccsim_prims.cu: if (nSend > 0) __threadfence_system()), so a
     * step that sends nothing may have its own, lower overhead (sim.*.recv_step_overhead_ns).
     *
     * Forwarding unit (cut-through). NCCL does not forward a slice store-and-forward: the next rank polls the flags
     * of the data as it lands and forwards it in much smaller pieces (LL/LL128 per line, Simple per sub-slice of the
     * step); the measured ring broadcast grows by a few µs per extra hop where store-and-forward of its slices would
     * add tens (experiments/nccl-h200). So a step of B bytes moves as k = ceil(B / pipelineBytes) sub-transfers, one
     * after another, the last one taking the rest; with B <= pipelineBytes, k = 1. A connection's sending and
     * receiving steps correspond one to one with equal byte counts (every planner produces them so), hence equal k.
     *
     * Rate of a sending step, wire bytes/s: with cta, the block's data rate 1 / psPerByte in wire bytes, capped by
     * the per-channel limit; else the per-channel limit, or for a reducing step the reduction limit; times the lane's
     * share of the block. Time of a receive-only step of b bytes, ps: with cta, ceil(b * psPerByte / share); else
     * ceil(b / rate * 1e12) with rate the reduction throughput (data bytes) or the copy throughput, times the share.
     *
     * Registered buffers (P2pSettings#registered): the sender writes a channel's part straight into the receiver's
     * buffer, so a send is charged the registered per-channel limit (sim.p2p.Simple.registered_channel_bw_gbps,
     * fitted to experiments/nccl-tests-h200x4's registered send/recv) and the receive is a one-sided step that costs
     * the receiver's SMs nothing (StepCursor#memory).
     *
     * Thread-block costs (cta model, CtaCosts): a step's ps per data byte follow from the streams its primitive
     * touches (receive slots, input, output, send slots, reduction), times the call's buffer factor on input and
     * output and its load factor on all.
     */

    /** The costs of {@code plan} under {@code profile}. */
    static StepCosts of(CalibrationProfile profile, Plan plan) {
        Protocol proto = plan.options().protocol();
        Algorithm algo = plan.options().algorithm();
        SimCosts.Family family = SimCosts.Family.of(algo, plan.call().op());
        SimProtocolCosts pc = profile.sim().get(family, proto);
        double channelCap = pc.maxChannelBwGbps() * 1e9;
        if (plan.options().registeredP2p(plan.call().layout().nHosts(), plan.nRanks())) {
            if (!pc.hasRegisteredChannelBw()) {
                throw new IllegalArgumentException("the profile has no sim.p2p.Simple.registered_channel_bw_gbps: it cannot"
                        + " simulate registered buffers (the built-in h100 and h200 profiles can)");
            }
            channelCap = pc.registeredChannelBwGbps() * 1e9;
        }
        double reduceCap = Math.min(channelCap, profile.reduceBwGbps() * 1e9 / proto.dataEfficiency());
        CtaCosts cta = profile.sim().ctaOf(proto);
        long own = (plan.call().inputCount() + plan.call().outputCount()) * (long) plan.call().dtype().bytes();
        long workingSet = plan.options().workingSetBytes() > 0 ? plan.options().workingSetBytes() : own;
        // NVLS and NVLSTree post a chunk whole (their primitives are ProtoSimple<1, 1>: one slice of one step per
        // chunk, NVIDIA/nccl v2.28.9 src/device/all_reduce.h), and a scatter's or gather's parts land together: their
        // steps move as one unit whatever the forwarding unit
        boolean nvls = plan.nActors() > plan.nRanks() && plan.switchKind(plan.nRanks()) == SwitchKind.NVLINK;
        return new StepCosts(proto, algo, family, pc, Time.us(pc.launchLatencyUs()),
                Math.round(profile.sim().channelSkewNs() * 1000.0), Time.ns(pc.stepOverheadNs()),
                Time.ns(pc.recvOnlyStepOverheadNs()), channelCap, reduceCap, profile.copyBwGbps() * 1e9,
                nvls ? Long.MAX_VALUE : pc.pipelineBytes(),
                cta, cta == null ? 1.0 : cta.loadFactor(plan.nChannels()), cta == null ? 1.0 : cta.bufferFactor(workingSet));
    }

    /** The hop latency over a route of link class {@code c}, ps. */
    long hopLatencyPs(LinkClass c) { return Time.us(familyCosts.hopLatencyUs(c)); }

    /** Start phases of channels: {@link SimCosts#SKEW_PHASES} with a channel skew, else 1. */
    int skewPhases() { return channelSkewPs > 0 ? SimCosts.SKEW_PHASES : 1; }

    /** Whether the family sets per-lane shares of the thread block ({@link SimProtocolCosts#laneShares}). */
    boolean hasLaneShares() { return !familyCosts.laneShares().isEmpty(); }

    /**
     * Lane {@code lane}'s share of the block, in (0, 1], on a (rank, channel) where several of the plan's
     * {@code nLanes} lanes have steps.
     *
     * @throws IllegalArgumentException if the profile lists fewer shares than the plan has lanes
     */
    double laneShare(int lane, int nLanes) {
        if (nLanes > familyCosts.laneShares().size()) {
            throw new IllegalArgumentException("sim." + family.jsonName() + "." + protocol.ncclName() + ".lane_shares lists "
                    + familyCosts.laneShares().size() + " lanes, but the " + algorithm.ncclName() + " plan has " + nLanes);
        }
        return familyCosts.laneShare(lane);
    }

    /** Sub-transfers of a step of {@code bytes} data bytes (≥ 1). */
    int units(long bytes) {
        return bytes <= pipelineBytes ? 1 : (int) Math.min(Integer.MAX_VALUE, (bytes + pipelineBytes - 1) / pipelineBytes);
    }

    /** Data bytes of sub-transfer {@code j} of {@code units} of a step of {@code bytes}. */
    long subTransferBytes(long bytes, int units, int j) {
        return units == 1 ? bytes : j < units - 1 ? pipelineBytes : bytes - (long) j * pipelineBytes;
    }

    /** The overhead of a step, ps: {@link #stepOverheadPs} if it sends, else {@link #recvStepOverheadPs}. */
    long overheadPs(boolean sends) { return sends ? stepOverheadPs : recvStepOverheadPs; }

    /** The cta model's cost of a step, ps per data byte (requires {@link #cta} non-null). */
    double psPerByte(Primitive prim, int nRecv, int nSend) {
        return cta.psPerByte(nRecv, prim.readsInput(), prim.writesOutput(), nSend, reduces(prim), bufferFactor) * loadFactor;
    }

    /** A sending step's rate limit, wire bytes/s, for its primitive, cost (cta model) and lane share. */
    double sendRateCap(Primitive prim, double psPerByte, double laneShare) {
        return (cta != null ? Math.min(channelCapBps, 1e12 / psPerByte / protocol.dataEfficiency())
                : reduces(prim) ? reduceCapBps : channelCapBps) * laneShare;
    }

    /** Time of a receive-only or local (sub-)transfer of {@code bytes} data bytes, ps. */
    long localTimePs(Primitive prim, long bytes, double psPerByte, double laneShare) {
        if (cta != null) return (long) Math.ceil(bytes * psPerByte / laneShare);
        double rate = (reduces(prim) ? reduceCapBps * protocol.dataEfficiency() : copyBps) * laneShare;
        return bytes == 0 ? 0 : (long) Math.ceil(bytes / rate * 1e12);
    }

    /** Whether a step of {@code p} combines values (charged the reduction limit). */
    static boolean reduces(Primitive p) {
        switch (p) {
            case RECV_REDUCE_SEND:
            case RECV_REDUCE_COPY:
            case RECV_REDUCE_COPY_SEND:
            case RECV_REDUCE_FORWARD:
            case LOCAL_REDUCE: return true;
            default: return false;
        }
    }
}
