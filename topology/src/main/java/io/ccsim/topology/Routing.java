package io.ccsim.topology;

/**
 * How a route is chosen among equal shortest paths ({@link Topology#route(int, int, long)}).
 */
public enum Routing {
    /**
     * A hash of (seed, source, destination, flow key): each queue pair of a connection takes its own path, as Ethernet
     * switches hashing RoCE's UDP source port do. Two connections may land on one uplink where others spread.
     */
    ECMP,
    /**
     * Destination-based (d-mod-k): of the equal paths, ordered by their links, the one at position d mod P, where d is
     * the destination's host index (a switch's local index) and P the number of paths. Every flow to one destination
     * takes the same path whatever its source or flow key, as InfiniBand's forwarding tables do.
     */
    DESTINATION;

    /** The name {@code --routing} takes and outputs print: {@code ecmp} or {@code dmodk}. */
    public String cliName() {
        return this == ECMP ? "ecmp" : "dmodk";
    }

    /** The routing whose {@link #cliName} is {@code name}, or null for any other text. */
    public static Routing ofCliName(String name) {
        for (Routing r : values()) if (r.cliName().equals(name)) return r;
        return null;
    }

    /**
     * The routing a fabric of {@code links} has unless told otherwise: {@link #DESTINATION} where its network is
     * InfiniBand (some link is {@link LinkKind#INFINIBAND}, none {@link LinkKind#ROCE}), {@link #ECMP} otherwise (RoCE, or
     * no network: inside a host no route has a choice between flow-network groups, so the two agree).
     */
    public static Routing ofFabric(java.util.Collection<Link> links) {
        boolean ib = false;
        for (Link l : links) {
            if (l.kind() == LinkKind.ROCE) return ECMP;
            ib |= l.kind() == LinkKind.INFINIBAND;
        }
        return ib ? DESTINATION : ECMP;
    }

    /*
     * Where each applies. InfiniBand switches forward by destination LID from tables the subnet manager fills; OpenSM's
     * fat-tree engine (ftree) assigns each destination an up-port at each level in turn, which on a two-level tree is the
     * destination's index modulo the leaf's up-ports: d-mod-k (Zahavi, "Optimized InfiniBand fat-tree routing for shift
     * all-to-all communication patterns", Concurrency and Computation 22(2), 2010; Gomez et al., "Deterministic versus
     * adaptive routing in fat-trees", IPDPS 2007). With hosts numbered leaf by leaf and as many up-ports as host ports
     * (the non-blocking rail-optimized leaf), the host at position p of its leaf is reached through spine p from every
     * leaf, so the down-link spine p -> leaf carries only that host's traffic and every rail routes alike. NCCL enables
     * InfiniBand adaptive routing by default (net_ib.cc, ncclIbDevs[].ar = 1 on an IB link layer; NCCL_IB_ADAPTIVE_ROUTING),
     * which lets switches that have it enabled spread packets over the up-ports; neither model here is that: DESTINATION
     * is the fabric with static routing, ECMP the RoCE fabric. The destination's host index stands for its LID, so that
     * the NICs of one host on the different rails take the same spine position.
     *
     * Why an InfiniBand fabric defaults to DESTINATION: its switches forward by destination LID from the subnet
     * manager's tables (ftree, updn and minhop alike) wherever adaptive routing is not enabled on them, and where it is,
     * DESTINATION is the closer of the two models: both spread one rail's flows evenly over the spines, while a hash
     * collides. ECMP's per-queue-pair hash is RoCE's behaviour (switches hash the UDP source port NCCL sets per QP).
     * On an InfiniBand fat-tree ECMP would model collisions the fabric does not make: two tree edges hashed onto one
     * spine uplink halve their rate on some rails and not others (64 hosts: rails 1, 5 and 6).
     */
}
