package io.ccsim.topology;

import io.ccsim.sim.Sharing;
import java.util.List;

/**
 * One constraint of the flow network: a plain link, or a striped bundle of links whose capacity is
 * shared by all traffic over any of them. All members of a striped group share endpoint {@code a} (the
 * GPU of an NVLink stripe); "forward" is away from it.
 *
 * <p>Capacity of a striped group, bytes/s per direction: {@code liveLanes x min over live members of
 * (effective bandwidth / lanes)}, where a member that is down contributes no lanes and a degraded member
 * slows every lane; 0 if every member is down. A plain group's capacity is its link's effective bandwidth.
 *
 * @param index   position in {@link Topology#fabric()}; route hops refer to it
 * @param id      unique id (a plain group has its link's id)
 * @param members the links, at least one; exactly one when not striped
 * @param striped whether traffic is spread evenly over the members' lanes
 * @param sharing direction sharing policy, the same for every member
 */
public record LinkGroup(int index, String id, List<Link> members, boolean striped, Sharing sharing) {

    /*
     * NVLink on NVSwitch boards is striped: a GPU spreads its traffic evenly over all its NVLinks to all
     * NVSwitch chips (on HGX H100/H200, 18 NVLink4 links split 5/4/4/5 over 4 chips), so a GPU-to-GPU
     * transfer is limited by the GPU's whole port group, not by one switch. Striping sends an equal share of
     * the bytes over every lane, so the slowest lane paces all of them. A down member removes its lanes
     * because the NVLink hardware and fabric manager re-stripe over the remaining links, which is how an HGX
     * board keeps running with a failed NVLink at reduced bandwidth.
     */

    public LinkGroup {
        members = List.copyOf(members);
        if (members.isEmpty()) {
            throw new IllegalArgumentException("link group '" + id + "' must have at least one member");
        }
        if (!striped && members.size() != 1) {
            throw new IllegalArgumentException("link group '" + id + "' is not striped, so it must have exactly"
                    + " one member, got " + members.size());
        }
    }

    /** Total lanes of all members that are not down. */
    public int liveLanes() {
        int lanes = 0;
        for (Link l : members) {
            if (!l.health().down()) {
                lanes += l.lanes();
            }
        }
        return lanes;
    }

    /** Capacity with the members' current health, bytes/s per direction, as defined above. */
    public double capacityBytesPerSec() {
        if (!striped) {
            return members.get(0).effectiveBandwidth();
        }
        int lanes = 0;
        double minPerLane = Double.POSITIVE_INFINITY;
        for (Link l : members) {
            if (l.health().down()) {
                continue;
            }
            lanes += l.lanes();
            minPerLane = Math.min(minPerLane, l.effectiveBandwidth() / l.lanes());
        }
        return lanes == 0 ? 0.0 : lanes * minPerLane;
    }

    /** Capacity with every member healthy, bytes/s per direction. */
    public double nominalCapacityBytesPerSec() {
        if (!striped) {
            return members.get(0).bandwidthBytesPerSecPerDirection();
        }
        int lanes = 0;
        double minPerLane = Double.POSITIVE_INFINITY;
        for (Link l : members) {
            lanes += l.lanes();
            minPerLane = Math.min(minPerLane, l.bandwidthBytesPerSecPerDirection() / l.lanes());
        }
        return lanes * minPerLane;
    }

    /** The node all members start from (endpoint a). */
    public String anchor() {
        return members.get(0).a();
    }
}
