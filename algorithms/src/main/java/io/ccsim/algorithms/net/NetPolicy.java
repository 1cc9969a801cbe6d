package io.ccsim.algorithms.net;

import java.util.Objects;

/**
 * The NCCL variables that shape inter-node graphs and routes (NVIDIA/nccl v2.28.9).
 *
 * @param pxn       NCCL_PXN_DISABLE=0 (the default): a GPU may send to the network through a NIC of another
 *                  GPU's, over NVLink to that GPU (src/graph/paths.cc ncclTopoComputePaths)
 * @param crossNic  NCCL_CROSS_NIC: 0 a ring channel leaves a node through the NIC it entered by; 1 through any
 *                  NIC; 2 (the default) as 0 unless only rings that alternate NIC pairs are found
 *                  (src/graph/search.cc ncclTopoCompute, ncclTopoSearchCheckNet)
 * @param hca       NCCL_IB_HCA: the NICs that may be used
 * @param gdrLevel  NCCL_NET_GDR_LEVEL: the farthest GPU-to-NIC path over which the NIC reads and writes GPU memory
 *                  directly (GPU Direct RDMA); farther, data is staged in host memory. Default PXB
 *                  (paths.cc ncclTopoCheckGdr)
 */
public record NetPolicy(boolean pxn, int crossNic, HcaSelector hca, PathType gdrLevel) {

    /** NCCL's defaults: PXN on, NCCL_CROSS_NIC=2, every NIC, GDR up to PXB. */
    public static final NetPolicy DEFAULT = new NetPolicy(true, 2, HcaSelector.ALL, PathType.PXB);

    public NetPolicy {
        Objects.requireNonNull(hca, "hca");
        Objects.requireNonNull(gdrLevel, "gdrLevel");
        if (crossNic < 0 || crossNic > 2) throw new IllegalArgumentException("crossNic must be 0, 1 or 2, got " + crossNic);
    }
}
