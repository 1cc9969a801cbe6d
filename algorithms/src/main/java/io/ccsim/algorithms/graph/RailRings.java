package io.ccsim.algorithms.graph;

import io.ccsim.algorithms.net.NetPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The ring orders of NCCL's ring graph across hosts: per channel, the order of each host's local ranks, from the GPU
 * that receives from the network to the GPU that sends to it, and the NIC each channel enters by.
 */
public final class RailRings {
    /*
     * NCCL v2.28.9, src/graph/search.cc (see also the notes on rail rings):
     *  - The inter-node ring pattern is NET n -> GPU a -> ... -> GPU x -> NET n (or another NIC with crossNic).
     *    Channel c tries the NICs from nets[c mod netCount] (ncclTopoSearchRecNet; ncclTopoSelectNets lists each
     *    GPU's local NIC in GPU order), enters at the NIC's local GPU, and each NIC carries one channel per
     *    direction at the top search speed. So channel c enters by the c-th NIC (mod count) at its local GPU.
     *  - On NVSwitch boards only the two index neighbours are tried next, the previous first
     *    (ncclTopoSearchNextGpuSort), so a ring descends: e, e-1, ..., e+1.
     *  - The exit GPU e+1 must reach the entry NIC (NCCL_CROSS_NIC=0, and 2 tries 0 first): directly when it shares
     *    the NIC (4 NICs for 8 GPUs: GPUs 2k and 2k+1 share NIC k), else over PXN through GPU e (paths.cc), which is
     *    found before crossNic=2 is tried (ncclTopoCompute raises typeInter to PXN first). Every host has the same
     *    rings, so host k's exit on rail r meets host k+1's entry on rail r: the rings never change rail.
     *  - Without PXN (NCCL_PXN_DISABLE=1, or GPUs not joined by NVLink) and NCCL_CROSS_NIC=2, the search finds
     *    channel pairs instead: even channel NET a -> GPU a -> a-1 ... -> a+1 -> NET a+1 (the exit GPU's own NIC),
     *    odd channel NET a+1 -> GPU a+1 -> a+2 ... -> a -> NET a (ncclTopoSearchCheckNet), and nodes of odd index swap
     *    channels c and c^1 (connect.cc ncclTopoPostset "Alternate rings to avoid crossing rails") so that
     *    neighbouring nodes meet on one rail; with an odd node count the last node's hop to node 0 changes rail.
     *  - With NCCL_CROSS_NIC=1 the rings descend as above and leave by the exit GPU's own NIC (rail e+1), so every
     *    hop between hosts changes rail; with NCCL_CROSS_NIC=0 and no PXN the exit GPU reaches the entry NIC over
     *    PCIe and the host bridge. Those routes are NcclPaths's.
     *  - Channel c beyond the NICs the search uses repeats channel c mod their count (ncclTopoDupChannels,
     *    ncclTopoPostset): an NVL72 rack's channels c and c + 16 share GPU c's NIC (CommGraph).
     */
    private final int ppn;
    private final int nNodes;
    /** per ring index: the host-local order of ranks (local indices) */
    private final int[][] rings;
    /** per ring index: the NIC (topology node index of host 0's NIC) it enters by */
    private final int[] entryNic;
    private final boolean alternate;

    private RailRings(int ppn, int nNodes, int[][] rings, int[] entryNic, boolean alternate) {
        this.ppn = ppn;
        this.nNodes = nNodes;
        this.rings = rings;
        this.entryNic = entryNic;
        this.alternate = alternate;
    }

    /** Ranks in order on one host: every channel the identity. */
    static RailRings singleHost(int ppn) {
        int[] id = new int[ppn];
        for (int j = 0; j < ppn; j++) id[j] = j;
        return new RailRings(ppn, 1, new int[][] {id}, new int[] {-1}, false);
    }

    /**
     * The rings of {@code nNodes} hosts of {@code ppn} ranks each, local rank j's NIC being {@code nicOfLocal[j]}
     * (a topology node index, −1 for none), the GPUs of a host NVLink-connected or not, over the first
     * {@code maxNics} distinct NICs in local-rank order (those NCCL's search uses).
     *
     * @throws IllegalArgumentException if no local rank has a NIC
     */
    static RailRings across(int ppn, int nNodes, int[] nicOfLocal, boolean nvlink, NetPolicy policy, int maxNics) {
        List<Integer> nics = new ArrayList<>();
        List<Integer> entries = new ArrayList<>();
        for (int j = 0; j < ppn; j++) {
            if (nicOfLocal[j] >= 0 && !nics.contains(nicOfLocal[j]) && nics.size() < maxNics) {
                nics.add(nicOfLocal[j]);
                entries.add(j);
            }
        }
        if (nics.isEmpty()) throw new IllegalArgumentException("no rank of a host has a network NIC");
        int n = nics.size();
        boolean closesOnEntryNic = true;
        boolean consecutivePairs = n % 2 == 0;
        for (int i = 0; i < n; i++) {
            int exit = Math.floorMod(entries.get(i) + 1, ppn);
            closesOnEntryNic &= nicOfLocal[exit] == nics.get(i);
            if (i % 2 == 0 && consecutivePairs) consecutivePairs = entries.get(i + 1) == exit;
        }
        boolean alternate = ppn > 1 && policy.crossNic() == 2 && !(policy.pxn() && nvlink) && !closesOnEntryNic
                && consecutivePairs;
        int[][] rings = new int[n][];
        int[] entryNic = new int[n];
        for (int i = 0; i < n; i++) {
            int e = entries.get(i);
            boolean ascending = alternate && i % 2 == 1;
            int[] ring = new int[ppn];
            for (int s = 0; s < ppn; s++) ring[s] = Math.floorMod(ascending ? e + s : e - s, ppn);
            rings[i] = ring;
            entryNic[i] = nics.get(i);
        }
        return new RailRings(ppn, nNodes, rings, entryNic, alternate);
    }

    /** The NICs the channels enter by, in channel order before they repeat (host 0's NIC node indices). */
    public int[] channelNics() { return entryNic.clone(); }

    /** Whether odd hosts swap the channels of each pair (NCCL_CROSS_NIC=2 rings without PXN). */
    public boolean alternating() { return alternate; }

    /** Host {@code host}'s local ranks in channel {@code c}'s ring order. */
    public int[] hostOrder(int c, int host) {
        int i = c % rings.length;
        if (alternate && host % 2 == 1) i ^= 1;
        return rings[i].clone();
    }

    /** Rank orders (host-major ranks) of channels 0..channels−1. */
    int[][] orders(int channels) {
        int[][] out = new int[channels][];
        for (int c = 0; c < channels; c++) {
            int[] ring = new int[ppn * nNodes];
            int k = 0;
            for (int h = 0; h < nNodes; h++) {
                for (int local : hostOrder(c, h)) ring[k++] = h * ppn + local;
            }
            out[c] = ring;
        }
        return out;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("RailRings[");
        for (int i = 0; i < rings.length; i++) b.append(i == 0 ? "" : ", ").append(Arrays.toString(rings[i]));
        return b.append(alternate ? ", alternating]" : "]").toString();
    }
}
