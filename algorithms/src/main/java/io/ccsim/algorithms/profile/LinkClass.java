package io.ccsim.algorithms.profile;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The link classes NCCL's cost model distinguishes (src/graph/tuning.cc: NCCL_HW_NVLINK, NCCL_HW_PCI,
 * NCCL_HW_NET index the {@code hwLatencies} table).
 */
public enum LinkClass {
    /** NVLink, direct or through NVSwitch (NCCL graph typeIntra == LINK_NVL). */
    NVLINK("nvlink"),
    /** PCIe (and anything intra-node that is not NVLink: SHM through the CPU, etc.). */
    PCIE("pcie"),
    /** The inter-node network (InfiniBand / RoCE through a NIC). */
    NET("net");

    private final String jsonName;

    LinkClass(String jsonName) { this.jsonName = jsonName; }

    /** The key used in profile JSON: {@code nvlink}, {@code pcie}, {@code net}. */
    public String jsonName() { return jsonName; }

    /** Parses a JSON key case-insensitively; unknown names raise an error listing the valid ones. */
    public static LinkClass parse(String s) {
        for (LinkClass c : values()) if (c.jsonName.equalsIgnoreCase(s.trim())) return c;
        throw new IllegalArgumentException("unknown link class '" + s + "'; valid: "
                + Arrays.stream(values()).map(LinkClass::jsonName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() { return jsonName.toLowerCase(Locale.ROOT); }
}
