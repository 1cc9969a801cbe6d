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
 */
public record CollectiveStats(String label, String op, long bytes, int[] ranks, long startPs, long endPs,
                              long healthyPs, String bottleneckLink, double bottleneckHealth,
                              List<Integer> bottleneckSenders, List<Integer> bottleneckReceivers,
                              long[] inputChecksums, long[] outputChecksums, List<List<String>> ringHopLinks) {

    /** Actual duration, ps. */
    public long durationPs() { return endPs - startPs; }
}
