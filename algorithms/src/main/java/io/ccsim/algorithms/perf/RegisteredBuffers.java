package io.ccsim.algorithms.perf;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.graph.CommGraph;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.profile.SimCosts;

import java.util.Locale;

/**
 * Where ccsim simulates NCCL's registered point-to-point buffers ({@link io.ccsim.algorithms.plan.P2pSettings#registered}):
 * the path NCCL 2.28.9 takes on an all-NVLink communicator (src/device/sendrecv.h: one step of up to NCCL_MAX_NET_SIZE
 * per channel part when {@code sendIpcReg && isAllNvlink}), which experiments/nccl-tests-h200x4 measured on one HGX
 * node, with a profile that has the registered send's per-channel limit. Elsewhere NCCL registers differently (network
 * peers through the proxy, intra-node peers of a multi-node communicator in regular chunks), unmeasured here.
 */
final class RegisteredBuffers {
    private RegisteredBuffers() {}

    /** Why {@code graph}'s registered point-to-point calls are not simulated with {@code profile}, or null where they are. */
    static String refusal(CommGraph graph, CalibrationProfile profile) {
        if (graph.nRanks() < 2) return "registered buffers need a peer: one rank sends to itself";
        if (graph.nNodes() > 1) {
            return "registered buffers are simulated on one node (NCCL's one-step registered path on an all-NVLink"
                    + " communicator, measured in experiments/nccl-tests-h200x4); this communicator spans " + graph.nNodes() + " nodes";
        }
        if (!profile.sim().get(SimCosts.Family.P2P, Protocol.SIMPLE).hasRegisteredChannelBw()) {
            return "the profile has no sim.p2p.Simple.registered_channel_bw_gbps (the built-in h100 and h200 profiles have it)";
        }
        LinkClass c = graph.tuneInput(CollectiveOp.SEND_RECV, 0).intraClass();
        if (c != LinkClass.NVLINK) {
            return "registered buffers are simulated where every GPU pair is NVLink (NCCL's one-step registered path);"
                    + " this node's GPUs talk over " + c.name().toLowerCase(Locale.ROOT);
        }
        return null;
    }
}
