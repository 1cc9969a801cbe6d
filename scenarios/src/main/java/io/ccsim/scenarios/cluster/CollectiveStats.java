package io.ccsim.scenarios.cluster;

import java.util.List;

/**
 * Timings of one finished collective, as link and rank counters would show them, for the analyzer.
 *
 * @param label            group and sequence ("world#3")
 * @param op               collective name
 * @param bytes            bytes per rank
 * @param ranks            global ranks in the order of the data ring (the ring of the channel that carried a
 *                         corruption, else channel 0; communicator order for non-ring plans); every per-rank
 *                         array below is indexed the same way
 * @param startPs          when the last rank launched, ps
 * @param endPs            when it completed, ps
 * @param healthyPs        the duration it would have had with every link at its nominal rate, ps
 * @param bottleneckLink   link id of the slowest constraint on the slowest ring (a stripe's worst member)
 * @param bottleneckHealth its health factor (rate / nominal rate, 0 if down)
 * @param bottleneckSenders global ranks whose ring sends cross the bottleneck
 * @param bottleneckReceivers the matching receivers
 * @param inputChecksums   per ring position: checksum of its input (null if not taken)
 * @param outputChecksums  per ring position: checksum of its output (null if not taken)
 * @param ringHopLinks     per ring position p: links of the data path from position p-1 to p on the channel
 *                         that carried a corruption, or on channel 0 (for locating corruption)
 * @param algorithm        NCCL's name of the algorithm that ran ({@code Ring}, {@code Tree}, {@code PAT},
 *                         {@code NVLS}, {@code CollnetDirect}...; null when unknown)
 * @param slowLinks        every link group below its nominal rate that the plan's connections cross, worst
 *                         first (its first entry is the bottleneck above); empty when all are healthy
 */
public record CollectiveStats(String label, String op, long bytes, int[] ranks, long startPs, long endPs,
                              long healthyPs, String bottleneckLink, double bottleneckHealth,
                              List<Integer> bottleneckSenders, List<Integer> bottleneckReceivers,
                              long[] inputChecksums, long[] outputChecksums, List<List<String>> ringHopLinks,
                              String algorithm, List<SlowLink> slowLinks) {

    public CollectiveStats {
        slowLinks = List.copyOf(slowLinks);
    }

    /**
     * Stats without the algorithm's name and with the bottleneck as the only slow link (its gain when
     * healed unknown): for readers that only know the bottleneck (logs, counters).
     */
    public CollectiveStats(String label, String op, long bytes, int[] ranks, long startPs, long endPs, long healthyPs,
                           String bottleneckLink, double bottleneckHealth, List<Integer> bottleneckSenders,
                           List<Integer> bottleneckReceivers, long[] inputChecksums, long[] outputChecksums,
                           List<List<String>> ringHopLinks) {
        this(label, op, bytes, ranks, startPs, endPs, healthyPs, bottleneckLink, bottleneckHealth, bottleneckSenders,
                bottleneckReceivers, inputChecksums, outputChecksums, ringHopLinks, null,
                bottleneckLink == null || bottleneckHealth >= 1.0 ? List.of()
                        : List.of(new SlowLink(bottleneckLink, bottleneckHealth, bottleneckSenders, bottleneckReceivers, -1)));
    }

    /** Actual duration, ps. */
    public long durationPs() { return endPs - startPs; }

    /**
     * A link group below its nominal rate on the collective's data path.
     *
     * @param link          id of the group's worst member
     * @param health        the group's capacity / nominal capacity (0 if down)
     * @param senders       global ranks whose connections cross it, in plan order
     * @param receivers     the matching receivers
     * @param healedAlonePs the collective's duration re-simulated with this group at its nominal rate and the
     *                      other slow groups as they were at its end, ps; -1 when not simulated (it is the only
     *                      slow group, so {@code healthyPs} says it, or another group was down)
     */
    public record SlowLink(String link, double health, List<Integer> senders, List<Integer> receivers, long healedAlonePs) {
        public SlowLink {
            senders = List.copyOf(senders);
            receivers = List.copyOf(receivers);
        }
    }
}
