package io.ccsim.algorithms.net;

/**
 * NCCL's path types between two topology nodes, best first (src/graph/topo.h, NVIDIA/nccl v2.28.9): LOC the
 * same node, NVL NVLink, NVB NVLink through a GPU, C2C chip-to-chip, PIX one PCIe switch, PXB several PCIe
 * switches, P2C a GPU's C2C link and the CPU's PCIe to a NIC, PXN a GPU's NVLink to a peer GPU and that GPU's
 * PCIe to a NIC, PHB through a CPU's host bridge, SYS across CPU sockets, NET through the network, DIS no path.
 */
public enum PathType {
    LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB, SYS, NET, DIS;

    /** NCCL's old integer levels (paths.cc levelsOldToNew): 0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 and above SYS. */
    private static final PathType[] OLD_LEVELS = {LOC, PIX, PXB, PHB, SYS, SYS};

    /**
     * A level as NCCL's ncclGetLevel reads NCCL_NET_GDR_LEVEL and NCCL_P2P_LEVEL: a name LOC..SYS (exact case),
     * or an old-style integer (0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 or more SYS).
     *
     * @throws IllegalArgumentException for anything else (NCCL ignores it; ccsim refuses it)
     */
    public static PathType parseLevel(String s) {
        for (PathType t : values()) {
            if (t.ordinal() <= SYS.ordinal() && t.name().equals(s)) return t;
        }
        if (!s.isEmpty() && s.chars().allMatch(Character::isDigit)) {
            int old = s.length() > 2 ? OLD_LEVELS.length - 1 : Math.min(Integer.parseInt(s), OLD_LEVELS.length - 1);
            return OLD_LEVELS[old];
        }
        throw new IllegalArgumentException("not a path level: \"" + s + "\"");
    }

    /** The valid spellings of a level, for error messages. */
    public static String levelSpellings() {
        StringBuilder b = new StringBuilder();
        for (PathType t : values()) {
            if (t.ordinal() > SYS.ordinal()) break;
            b.append(t.name()).append(", ");
        }
        return b.append("or 0-5 (0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 SYS)").toString();
    }
}
