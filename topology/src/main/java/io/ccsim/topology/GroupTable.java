package io.ccsim.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The flow-network groups of a topology as index arrays: every declared striped group, plus one plain
 * group per link that is in no striped group, ordered by their smallest member link index. A plain group
 * has its link's id. Group {@code g} of this table is {@code Topology.fabric().get(g)}.
 */
final class GroupTable {

    /** Group of every link, by link index. */
    final int[] ofLink;
    /** Member link indices of every group: a striped group's in declaration order, a plain group's one link. */
    final int[][] members;
    /** Whether each group is striped. */
    final boolean[] striped;
    /** Id of each group. */
    final String[] ids;
    /** Group index of every striped group by id; a plain group is found through its link's index. */
    final Map<String, Integer> stripedIndex;

    private record Group(String id, int[] members, boolean striped, int first) { }

    private GroupTable(List<Group> groups, int linkCount, String topology, Map<String, Integer> linkIndex) {
        int gc = groups.size();
        ofLink = new int[linkCount];
        members = new int[gc][];
        striped = new boolean[gc];
        ids = new String[gc];
        stripedIndex = new HashMap<>();
        for (int g = 0; g < gc; g++) {
            Group x = groups.get(g);
            Integer prev = x.striped ? stripedIndex.putIfAbsent(x.id, g) : null;
            if (x.striped && prev == null && linkIndex.containsKey(x.id)) {
                prev = linkIndex.get(x.id);
            }
            if (prev != null) {
                throw new IllegalArgumentException("topology '" + topology + "': group id '" + x.id
                        + "' is used twice (a plain link's group has the link's id); group ids must be unique");
            }
            members[g] = x.members;
            striped[g] = x.striped;
            ids[g] = x.id;
            for (int li : x.members) {
                ofLink[li] = g;
            }
        }
    }

    /**
     * The groups of {@code links} with the declared striped groups.
     *
     * @param topology       name of the topology, for errors
     * @param links          all links, by index
     * @param linkIndex      index of every link id
     * @param stripedIds     ids of the declared striped groups
     * @param stripedMembers member link ids of each declared striped group, in the same order
     * @param control        stops the build on request (null: never)
     * @throws IllegalArgumentException naming the group for one without members, a missing member link, a link
     *                                  in two groups, members that do not share endpoint {@code a} or sharing,
     *                                  or a group id used twice (also by a plain group, i.e. a link id)
     */
    static GroupTable of(String topology, List<Link> links, Map<String, Integer> linkIndex, List<String> stripedIds,
                         List<List<String>> stripedMembers, io.ccsim.sim.RunControl control) {
        int m = links.size();
        int[] declaredGroup = new int[m];
        Arrays.fill(declaredGroup, -1);
        List<Group> groups = new ArrayList<>();
        for (int g = 0; g < stripedIds.size(); g++) {
            TopologyStructure.poll(control, g);
            int[] mem = stripedMembers(topology, links, linkIndex, stripedIds, g, stripedMembers.get(g),
                    declaredGroup);
            groups.add(new Group(stripedIds.get(g), mem, true, Arrays.stream(mem).min().orElseThrow()));
        }
        for (int i = 0; i < m; i++) {
            TopologyStructure.poll(control, i);
            if (declaredGroup[i] == -1) {
                groups.add(new Group(links.get(i).id(), new int[] {i}, false, i));
            }
        }
        groups.sort(Comparator.comparingInt(Group::first));
        TopologyStructure.poll(control, 0);
        return new GroupTable(groups, m, topology, linkIndex);
    }

    /** The member link indices of declared group {@code g}, checked; marks them in {@code declaredGroup}. */
    private static int[] stripedMembers(String topology, List<Link> links, Map<String, Integer> linkIndex,
                                        List<String> stripedIds, int g, List<String> ids, int[] declaredGroup) {
        String gid = stripedIds.get(g);
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("topology '" + topology + "': group '" + gid
                    + "' has no members; a group needs at least one link");
        }
        int[] mem = new int[ids.size()];
        for (int k = 0; k < ids.size(); k++) {
            Integer li = linkIndex.get(ids.get(k));
            if (li == null) {
                throw new IllegalArgumentException("topology '" + topology + "': group '" + gid
                        + "' names missing link '" + ids.get(k) + "'");
            }
            if (declaredGroup[li] != -1) {
                throw new IllegalArgumentException("topology '" + topology + "': link '" + ids.get(k)
                        + "' is in two groups ('" + stripedIds.get(declaredGroup[li]) + "' and '" + gid
                        + "'); a link belongs to at most one group");
            }
            declaredGroup[li] = g;
            mem[k] = li;
            Link first = links.get(mem[0]);
            Link l = links.get(li);
            if (!l.a().equals(first.a())) {
                throw new IllegalArgumentException("topology '" + topology + "': striped group '" + gid
                        + "': every member must start at the same node (endpoint a); '" + l.id()
                        + "' starts at '" + l.a() + "', '" + first.id() + "' at '" + first.a() + "'");
            }
            if (l.sharing() != first.sharing()) {
                throw new IllegalArgumentException("topology '" + topology + "': striped group '" + gid
                        + "': members must have the same sharing; '" + l.id() + "' is " + l.sharing()
                        + ", '" + first.id() + "' is " + first.sharing());
            }
        }
        return mem;
    }

    /** Number of groups. */
    int size() {
        return ids.length;
    }
}
