package io.ccsim.topology;

import java.util.Map;
import java.util.Objects;

/**
 * A vertex of the hardware graph.
 *
 * @param id         unique, non-blank id, e.g. {@code n3.gpu1}
 * @param kind       what the node is
 * @param host       index of the machine (board) the node belongs to, 0 for a single box;
 *                   {@code -1} only for network switches that belong to no host
 * @param localIndex index of the node among the nodes of its kind in its host (GPU 0..7), >= 0
 * @param attrs      free attributes (GPUs: {@code model}, {@code memory_bytes}, {@code numa};
 *                   NICs: {@code rail}, {@code rate_gbps}, {@code device}; NVSwitches: {@code generation},
 *                   {@code multicast} = {@code true} where it can multicast and reduce for NCCL's NVLS); copied,
 *                   immutable (iteration order
 *                   unspecified: sort the keys where order matters)
 */
public record Node(String id, NodeKind kind, int host, int localIndex, Map<String, String> attrs) {

    public Node {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("node id must be a non-blank string, got '" + id + "'");
        }
        Objects.requireNonNull(kind, () -> "node '" + id + "': kind must be one of "
                + java.util.Arrays.toString(NodeKind.values()));
        if (host < -1 || (host == -1 && kind != NodeKind.NET_SWITCH)) {
            throw new IllegalArgumentException("node '" + id + "': host must be >= 0 (or -1 for a network"
                    + " switch outside any host), got " + host);
        }
        if (localIndex < 0) {
            throw new IllegalArgumentException("node '" + id + "': localIndex must be >= 0, got " + localIndex);
        }
        attrs = attrs == null ? Map.of() : Map.copyOf(attrs);
    }

    /** A node without attributes. */
    public Node(String id, NodeKind kind, int host, int localIndex) {
        this(id, kind, host, localIndex, Map.of());
    }

    /** The attribute {@code key}, or {@code null}. */
    public String attr(String key) {
        return attrs.get(key);
    }
}
