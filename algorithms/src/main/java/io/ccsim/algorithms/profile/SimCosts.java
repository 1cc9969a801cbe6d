package io.ccsim.algorithms.profile;

import io.ccsim.algorithms.Protocol;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The simulator's own timing parameters (JSON section {@code sim}), separate from NCCL's tuner constants
 * so that fitting the simulator to measurements cannot move the Tuner's NCCL-faithful choices.
 *
 * <p>The latencies of the tree and point-to-point algorithms override the ring ones of the same
 * protocol ({@link LatencyCosts#baseLatencyUs()} is read as the launch latency, µs); step overhead,
 * per-channel limit and forwarding unit are the protocol's for every algorithm.
 *
 * @param protocols per protocol: ring latencies, step overhead, per-channel limit, forwarding unit
 * @param tree      per protocol: launch and hop latencies of the tree algorithm
 * @param p2p       per protocol: launch and hop latencies of send/recv and all-to-all
 */
public record SimCosts(Map<Protocol, SimProtocolCosts> protocols, Map<Protocol, LatencyCosts> tree,
                       Map<Protocol, LatencyCosts> p2p) {

    public SimCosts {
        protocols = complete(protocols, "sim protocols");
        tree = complete(tree, "sim.tree");
        p2p = complete(p2p, "sim.p2p");
    }

    private static <V> Map<Protocol, V> complete(Map<Protocol, V> m, String name) {
        Objects.requireNonNull(m, name);
        EnumMap<Protocol, V> copy = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            V v = m.get(p);
            if (v == null) {
                throw new IllegalArgumentException(name + " lacks protocol '" + p.ncclName() + "'; all of LL, LL128, Simple are required");
            }
            copy.put(p, v);
        }
        return Collections.unmodifiableMap(copy);
    }

    /** The costs of protocol {@code p}. */
    public SimProtocolCosts protocol(Protocol p) { return protocols.get(p); }

    /** A copy with protocol {@code p}'s costs replaced. */
    public SimCosts withProtocol(Protocol p, SimProtocolCosts c) {
        EnumMap<Protocol, SimProtocolCosts> m = new EnumMap<>(protocols);
        m.put(p, c);
        return new SimCosts(m, tree, p2p);
    }

    /** A copy with the tree latencies of {@code p} replaced. */
    public SimCosts withTree(Protocol p, LatencyCosts c) {
        EnumMap<Protocol, LatencyCosts> m = new EnumMap<>(tree);
        m.put(p, c);
        return new SimCosts(protocols, m, p2p);
    }

    /** A copy with the point-to-point latencies of {@code p} replaced. */
    public SimCosts withP2p(Protocol p, LatencyCosts c) {
        EnumMap<Protocol, LatencyCosts> m = new EnumMap<>(p2p);
        m.put(p, c);
        return new SimCosts(protocols, tree, m);
    }
}
