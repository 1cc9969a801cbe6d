package io.ccsim.scenarios.cluster;

import io.ccsim.topology.Link;
import io.ccsim.topology.LinkGroup;
import io.ccsim.topology.Node;
import io.ccsim.topology.Topology;
import java.util.List;

/**
 * The cluster a scenario runs on: its topology, the GPU of each rank (rank r on GPU r, host-major),
 * and the health that faults give its links now (a degrade factor in (0, 1], or down). Capacities
 * are those of the topology's link groups (a striped NVLink port group is one constraint), computed
 * with the health set here. Not the algorithms module's {@code io.ccsim.algorithms.sim.Fabric}, which
 * carries the flows: the collective engine pushes this health to it.
 */
public final class Cluster {
    private final Topology topo;
    private final List<Node> gpus;
    private final double[] factor;   // per link index
    private final boolean[] down;    // per link index

    public Cluster(Topology topo) {
        this.topo = topo;
        this.gpus = topo.gpus();
        this.factor = new double[topo.links().size()];
        java.util.Arrays.fill(factor, 1.0);
        this.down = new boolean[topo.links().size()];
    }

    public Topology topology() { return topo; }

    public int gpuCount() { return gpus.size(); }

    /** Topology id of GPU {@code g} (rank order: host, then local index). */
    public String gpuId(int g) { return gpus.get(g).id(); }

    public int hostOf(int g) { return gpus.get(g).host(); }

    public int localOf(int g) { return gpus.get(g).localIndex(); }

    /** The topology's {@code memory_bytes} attribute of GPU {@code g}, or null where it gives none. */
    public String gpuMemoryAttribute(int g) { return gpus.get(g).attr("memory_bytes"); }

    /** GPU memory in bytes, from the topology's {@code memory_bytes} attribute. */
    public long gpuMemoryBytes(int g) {
        String m = gpus.get(g).attr("memory_bytes");
        if (m == null) throw new IllegalStateException("GPU " + gpuId(g) + " has no memory_bytes attribute");
        return Long.parseLong(m);
    }

    /** Checks a link id, with the topology's error naming valid ids. */
    public void requireLink(String linkId) { topo.linkIndex(linkId); }

    public void setFactor(String linkId, double f) { factor[topo.linkIndex(linkId)] = f; }

    public void setDown(String linkId, boolean d) { down[topo.linkIndex(linkId)] = d; }

    /** Degrade factor of link index {@code i} now (1 = nominal). */
    double factorOf(int i) { return factor[i]; }

    /** Whether link index {@code i} is down now. */
    boolean downOf(int i) { return down[i]; }

    /** Bytes/s per direction of a link now. */
    double linkRate(Link l) {
        int i = topo.linkIndex(l.id());
        return down[i] ? 0.0 : l.bandwidthBytesPerSecPerDirection() * factor[i];
    }

    /** Health factor of a link now: 0 if down, else its degrade factor. */
    double healthOf(String linkId) {
        int i = topo.linkIndex(linkId);
        return down[i] ? 0.0 : factor[i];
    }

    /** Capacity of a group now, with the striping rule of {@link LinkGroup}, bytes/s per direction. */
    double groupCapacity(int groupIndex) {
        LinkGroup g = topo.fabric().get(groupIndex);
        if (!g.striped()) return linkRate(g.members().get(0));
        int lanes = 0;
        double minPerLane = Double.POSITIVE_INFINITY;
        for (Link l : g.members()) {
            double r = linkRate(l);
            if (r == 0.0) continue;
            lanes += l.lanes();
            minPerLane = Math.min(minPerLane, r / l.lanes());
        }
        return lanes == 0 ? 0.0 : lanes * minPerLane;
    }

    double groupNominal(int groupIndex) { return topo.fabric().get(groupIndex).nominalCapacityBytesPerSec(); }

    /** The member of a group with the lowest health (the culprit inside a stripe), or its first member. */
    String worstMember(int groupIndex) {
        LinkGroup g = topo.fabric().get(groupIndex);
        String worst = g.members().get(0).id();
        double w = 2;
        for (Link l : g.members()) {
            double h = healthOf(l.id());
            if (h < w) { w = h; worst = l.id(); }
        }
        return worst;
    }

    public int groupIndexOfLink(String linkId) { return topo.groupOf(linkId).index(); }
}
