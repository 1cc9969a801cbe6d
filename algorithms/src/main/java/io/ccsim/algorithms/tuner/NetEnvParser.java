package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.net.HcaSelector;
import io.ccsim.algorithms.net.NetPolicy;
import io.ccsim.algorithms.net.PathType;
import java.util.List;
import java.util.Map;

/**
 * The network variables of an NCCL environment, parsed into a {@link NetPolicy} (NVIDIA/nccl v2.28.9):
 * NCCL_CROSS_NIC (0, 1, 2; default 2; src/graph/search.cc), NCCL_PXN_DISABLE (0, 1; default 0; src/graph/paths.cc),
 * NCCL_IB_HCA (src/misc/utils.cc parseStringList) and NCCL_NET_GDR_LEVEL (paths.cc ncclGetLevel: a path name LOC
 * .. SYS or an old integer level).
 */
final class NetEnvParser {
    static final String NCCL_CROSS_NIC = "NCCL_CROSS_NIC";
    static final String NCCL_PXN_DISABLE = "NCCL_PXN_DISABLE";
    static final String NCCL_IB_HCA = "NCCL_IB_HCA";
    static final String NCCL_NET_GDR_LEVEL = "NCCL_NET_GDR_LEVEL";

    private NetEnvParser() { }

    /** @throws NcclEnvException naming the variable and its valid values */
    static NetPolicy parse(Map<String, String> env) {
        NetPolicy d = NetPolicy.DEFAULT;
        int crossNic = d.crossNic();
        String v = value(env, NCCL_CROSS_NIC);
        if (v != null) {
            long n = NcclEnv.parseNumber(NCCL_CROSS_NIC, v);
            if (n < 0 || n > 2) {
                throw new NcclEnvException(NCCL_CROSS_NIC, v, v, List.of("0 (leave a node by the NIC a ring entered by)",
                        "1 (any NIC)", "2 (default: 0 unless only alternating NIC pairs are found)"), "out of range");
            }
            crossNic = (int) n;
        }
        boolean pxn = d.pxn();
        v = value(env, NCCL_PXN_DISABLE);
        if (v != null) {
            long n = NcclEnv.parseNumber(NCCL_PXN_DISABLE, v);
            if (n != 0 && n != 1) throw new NcclEnvException(NCCL_PXN_DISABLE, v, v, List.of("0", "1"), "not a boolean");
            pxn = n == 0;
        }
        HcaSelector hca = d.hca();
        v = value(env, NCCL_IB_HCA);
        if (v != null) {
            try {
                hca = HcaSelector.parse(v);
            } catch (IllegalArgumentException e) {
                throw new NcclEnvException(NCCL_IB_HCA, v, v, List.of("[^][=]name[:port],... with ccsim's NIC names mlx5_0,"
                        + " mlx5_1, ... (the host's NICs in order)"), e.getMessage());
            }
        }
        PathType gdr = d.gdrLevel();
        v = value(env, NCCL_NET_GDR_LEVEL);
        if (v != null) {
            try {
                gdr = PathType.parseLevel(v);
            } catch (IllegalArgumentException e) {
                throw new NcclEnvException(NCCL_NET_GDR_LEVEL, v, v, List.of(PathType.levelSpellings()), "not a path level");
            }
        }
        return new NetPolicy(pxn, crossNic, hca, gdr);
    }

    private static String value(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? null : v;
    }
}
