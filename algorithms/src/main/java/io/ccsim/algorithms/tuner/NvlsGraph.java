package io.ccsim.algorithms.tuner;

import java.util.Objects;
import java.util.Optional;

/**
 * What NCCL's NVLS graph search (src/graph/search.cc, NVIDIA/nccl v2.28.9) finds for a communicator, or why it finds
 * nothing: the graph NCCL's tuner reads for NVLS (and NVLSTree).
 *
 * @param heads      NVLS heads (one NVLS "channel" of the graph per head), ≥ 2 where available
 * @param bwIntraGBs the graph's {@code bwIntra}, GB/s: per head, from the search's speed ladder
 * @param bwInterGBs the graph's {@code bwInter}, GB/s
 * @param ctas       the thread blocks NVLS runs ({@code nvlsChannels}: 16 on sm90, 24 or 32 on sm100)
 * @param cc         the GPUs' compute capability (90 Hopper, 100 Blackwell), which picks nvlsEfficiency
 * @param refusal    why there is no NVLS graph (empty when there is one)
 */
public record NvlsGraph(int heads, double bwIntraGBs, double bwInterGBs, int ctas, int cc, Optional<String> refusal) {

    public NvlsGraph {
        Objects.requireNonNull(refusal, "refusal");
        if (refusal.isEmpty() && (heads < 2 || !(bwIntraGBs > 0) || !(bwInterGBs > 0) || ctas < 1)) {
            throw new IllegalArgumentException("an NVLS graph needs >= 2 heads, bandwidths > 0 and >= 1 CTA, got heads "
                    + heads + ", bwIntra " + bwIntraGBs + ", bwInter " + bwInterGBs + ", ctas " + ctas);
        }
    }

    /** No NVLS graph, for {@code reason}. */
    public static NvlsGraph none(String reason) {
        return new NvlsGraph(0, 0, 0, 0, 0, Optional.of(reason));
    }

    /** Whether NCCL found an NVLS graph. */
    public boolean available() { return refusal.isEmpty(); }
}
