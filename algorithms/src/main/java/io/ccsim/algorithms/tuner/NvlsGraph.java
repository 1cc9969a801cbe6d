package io.ccsim.algorithms.tuner;

import java.util.Arrays;
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
 * @param headLocals across nodes, the local indices of the heads' GPUs (ascending: the NICs' GPUs, NCCL's
 *                   getNvlsNetDev); null for the first {@code heads} GPUs of a node
 */
public record NvlsGraph(int heads, double bwIntraGBs, double bwInterGBs, int ctas, int cc, Optional<String> refusal,
                        int[] headLocals) {

    /** A graph whose heads are a node's first {@code heads} GPUs. */
    public NvlsGraph(int heads, double bwIntraGBs, double bwInterGBs, int ctas, int cc, Optional<String> refusal) {
        this(heads, bwIntraGBs, bwInterGBs, ctas, cc, refusal, null);
    }

    public NvlsGraph {
        Objects.requireNonNull(refusal, "refusal");
        if (refusal.isEmpty() && (heads < 2 || !(bwIntraGBs > 0) || !(bwInterGBs > 0) || ctas < 1)) {
            throw new IllegalArgumentException("an NVLS graph needs >= 2 heads, bandwidths > 0 and >= 1 CTA, got heads "
                    + heads + ", bwIntra " + bwIntraGBs + ", bwInter " + bwInterGBs + ", ctas " + ctas);
        }
        if (headLocals != null) {
            if (headLocals.length != heads) {
                throw new IllegalArgumentException(heads + " heads, but " + headLocals.length + " head GPUs");
            }
            headLocals = headLocals.clone();
        }
    }

    /** No NVLS graph, for {@code reason}. */
    public static NvlsGraph none(String reason) {
        return new NvlsGraph(0, 0, 0, 0, 0, Optional.of(reason));
    }

    /** The heads' local GPU indices (a copy), or null for a node's first {@code heads} GPUs. */
    @Override
    public int[] headLocals() { return headLocals == null ? null : headLocals.clone(); }

    /** Equal when every component is, the head GPUs by content. */
    @Override
    public boolean equals(Object o) {
        return o instanceof NvlsGraph g && heads == g.heads && Double.compare(bwIntraGBs, g.bwIntraGBs) == 0
                && Double.compare(bwInterGBs, g.bwInterGBs) == 0 && ctas == g.ctas && cc == g.cc && refusal.equals(g.refusal)
                && Arrays.equals(headLocals, g.headLocals);
    }

    @Override
    public int hashCode() {
        return Objects.hash(heads, bwIntraGBs, bwInterGBs, ctas, cc, refusal) * 31 + Arrays.hashCode(headLocals);
    }

    @Override
    public String toString() {
        return "NvlsGraph[heads=" + heads + (headLocals == null ? "" : " " + Arrays.toString(headLocals))
                + ", bwIntraGBs=" + bwIntraGBs + ", bwInterGBs=" + bwInterGBs + ", ctas=" + ctas + ", cc=" + cc
                + ", refusal=" + refusal + "]";
    }

    /** Whether NCCL found an NVLS graph. */
    public boolean available() { return refusal.isEmpty(); }
}
