package io.ccsim.topology.smi;

import io.ccsim.topology.Hardware;
import java.util.Arrays;
import java.util.List;

/**
 * What the NV# cells between GPUs say about the board.
 *
 * @param nvswitch    whether the GPUs sit on NVSwitch chips: 3 or more GPUs and the same NV# between every pair
 * @param linksPerGpu the NV# of every GPU pair when {@code nvswitch}; not meaningful otherwise
 * @param nvlink4     whether any GPU pair shows NV18, the NVLink4 count of an HGX H100/H200 board
 */
record NvlinkShape(boolean nvswitch, int linksPerGpu, boolean nvlink4) {

    /*
     * A GPU with # NVLinks cannot have # direct links to each of two or more peers, so the same NV# between
     * every pair of 3 or more GPUs means a switched fabric. How the # links split over the NVSwitch chips:
     * - NV18 (HGX H100/H200): 4 chips with 5/4/4/5 links (the <nvlink count="5"/"4"> entries of an H100 NCCL
     *   topology dump, aliyun/SimAI issue #128), as TopologyCatalog's hgx boards;
     * - other even # >= 12: #/2 chips x 2 links (DGX A100: 12 NVLink3 links over 6 chips);
     * - else # chips x 1 link.
     * NV18 also marks the board generation: NVLink4 links (Hardware.NVLINK4_LINK_BW), PCIe Gen5 and NDR NICs
     * (ConnectX-7); every other board is taken as NVLink2/3, PCIe Gen4 and HDR NICs (ConnectX-6).
     */

    /** The shape of the NVLinks between {@code gpus} (device indices of {@code m}). */
    static NvlinkShape of(SmiMatrix m, List<Integer> gpus) {
        int uniform = -1;
        boolean allSame = gpus.size() >= 3;
        boolean nvlink4 = false;
        for (int a : gpus) {
            for (int b : gpus) {
                if (a == b) {
                    continue;
                }
                Connection c = m.at(a, b);
                if (c.level() != Connection.Level.NV || (uniform != -1 && c.nvlinks() != uniform)) {
                    allSame = false;
                } else {
                    uniform = c.nvlinks();
                }
                if (c.level() == Connection.Level.NV && c.nvlinks() == 18) {
                    nvlink4 = true;
                }
            }
        }
        return new NvlinkShape(allSame && uniform > 0, uniform, nvlink4);
    }

    /** Bandwidth of one NVLink, bytes/s per direction. */
    double laneBandwidth() {
        return nvlink4 ? Hardware.NVLINK4_LINK_BW : Hardware.NVLINK3_LINK_BW;
    }

    /** PCIe generation of every PCIe link of the board (all x16). */
    int pcieGen() {
        return nvlink4 ? 5 : 4;
    }

    /** Line rate of the board's NICs, bytes/s per direction. */
    double nicBandwidth() {
        return nvlink4 ? Hardware.NDR_BW : Hardware.HDR_BW;
    }

    /** NVLinks from one GPU to each NVSwitch chip, one entry per chip; only for an {@link #nvswitch} shape. */
    int[] lanesPerSwitch() {
        int[] lanes;
        if (linksPerGpu == 18) {
            lanes = new int[] {5, 4, 4, 5};
        } else if (linksPerGpu % 2 == 0 && linksPerGpu >= 12) {
            lanes = new int[linksPerGpu / 2];
            Arrays.fill(lanes, 2);
        } else {
            lanes = new int[linksPerGpu];
            Arrays.fill(lanes, 1);
        }
        return lanes;
    }
}
