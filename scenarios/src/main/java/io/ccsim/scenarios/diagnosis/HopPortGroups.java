package io.ccsim.scenarios.diagnosis;

import java.util.ArrayList;
import java.util.List;

/**
 * The links of one hop (sender GPU to receiver GPU) as an engineer reads them when the checksums put a
 * bit flip on that hop: the sender's port groups, the receiver's, and the links between, and why the
 * checksums cannot narrow it to one lane.
 */
final class HopPortGroups {
    private HopPortGroups() {}

    /*
     * Why one lane cannot be told apart: a GPU's NVLinks to the NVSwitches form one striped port
     * (an HGX H100 GPU's 18 NVLink4 lanes in four groups of 5, 4, 4 and 5, one group per NVSwitch;
     * NVIDIA HGX H100 and NVSwitch third-generation documentation), and a P2P transfer is spread over
     * every lane of the sender's and the receiver's port. Every lane carries part of every chunk, so a
     * checksum over the received data says which hop delivered the bad chunk, never which lane. Lanes
     * keep their own counters: NVLink's data-link layer counts CRC errors and replays per link
     * (nvidia-smi nvlink --errorcounters / -e), and an uncorrectable NVLink error raises Xid 74 naming
     * the link; a flip the CRC missed leaves the counters as they are, and then only a re-run with
     * other neighbours for the two GPUs tells the sender's port from the receiver's (the corruption
     * follows the faulty port).
     */

    /**
     * "over ... (why, what to check)" for the links of a hop from GPU {@code from} to GPU {@code to}
     * (topology ids; a link id is {@code endpointA~endpointB}).
     */
    static String describe(List<String> links, String from, String to) {
        List<String> sender = new ArrayList<>(), receiver = new ArrayList<>(), between = new ArrayList<>();
        for (String l : links) {
            if (touches(l, from)) sender.add(l);
            else if (touches(l, to)) receiver.add(l);
            else between.add(l);
        }
        if (links.size() <= 1) {
            return "over " + String.join(", ", links) + " (a bit flip the link CRC missed: check nvidia-smi nvlink"
                    + " --errorcounters and Xid 74)";
        }
        StringBuilder sb = new StringBuilder("over ").append(links.size()).append(" links: ");
        List<String> parts = new ArrayList<>();
        if (!sender.isEmpty()) parts.add(side(sender.size(), "the sender " + from, sender));
        if (!receiver.isEmpty()) parts.add(side(receiver.size(), "the receiver " + to, receiver));
        if (!between.isEmpty()) parts.add(between.size() + " between them (" + String.join(", ", between) + ")");
        sb.append(String.join("; ", parts)).append(". ");
        if (sender.size() > 1 || receiver.size() > 1) {
            sb.append("A GPU's NVLink port is striped: every transfer of the hop is spread over all the lanes of these"
                    + " port groups, so the checksums locate the hop, not the lane or the port group");
        } else {
            sb.append("Every byte of the hop crosses each of these links in turn, so the checksums cannot tell which one");
        }
        sb.append(". To tell them apart: the per-link CRC and replay counters of ").append(from).append(" and ").append(to)
                .append(" (nvidia-smi nvlink --errorcounters, before and after a re-run) or an Xid 74 naming the link; a flip"
                        + " the link CRC missed leaves them clean, and then a re-run with checksums and the ranks placed so"
                        + " that both GPUs get other neighbours tells the sender's side from the receiver's by which GPU the"
                        + " corruption follows");
        return sb.toString();
    }

    private static String side(int n, String who, List<String> links) {
        return n + (n == 1 ? " port group of " : " port groups of ") + who + " (" + String.join(", ", links) + ")";
    }

    /** Whether link id {@code a~b} has endpoint {@code node}. */
    private static boolean touches(String link, String node) {
        int i = link.indexOf('~');
        if (i < 0) return false;
        return link.substring(0, i).equals(node) || link.substring(i + 1).equals(node);
    }
}
