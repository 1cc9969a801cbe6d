package io.ccsim.topology.json;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the optional {@code $.groups}: striped groups, each with an {@code id} (unique among groups and
 * link ids), {@code members} (at least one link id, each link in at most one group, all with the same
 * endpoint {@code a}) and {@code striped} (true, the default; a link in no group is its own group).
 */
final class GroupsReader {

    private GroupsReader() {
    }

    /**
     * Declares every group of {@code root.groups} on {@code b}; does nothing without {@code groups}.
     *
     * @param linkA endpoint {@code a} of every link id read
     * @throws TopologyFormatException at the offending path
     */
    static void read(JsonObject root, JsonFields f, Topology.Builder b, Map<String, String> linkA) {
        if (!root.has("groups")) {
            return;
        }
        JsonArray groups = f.array(root, "groups", "$");
        Set<String> grouped = new HashSet<>();
        Set<String> groupIds = new HashSet<>();
        for (int i = 0; i < groups.size(); i++) {
            String p = "$.groups[" + i + "]";
            JsonObject o = f.only(f.object(groups.get(i), p), p, List.of("id", "members", "striped"));
            String id = f.nonBlank(o, "id", p);
            if (!groupIds.add(id) || linkA.containsKey(id)) {
                throw f.error(p + ".id", "duplicate group id '" + id + "'; a group id must differ from other"
                        + " groups and from link ids");
            }
            JsonArray mem = f.array(o, "members", p);
            if (mem.isEmpty()) {
                throw f.error(p + ".members", "a group needs at least one member link id");
            }
            boolean striped = !o.has("striped") || f.bool(o.get("striped"), p + ".striped");
            if (!striped) {
                throw f.error(p + ".striped", "only striped groups are listed (striped: true); a link not in"
                        + " a group is its own group");
            }
            b.stripedGroup(id, members(mem, f, p, id, linkA, grouped));
        }
    }

    private static List<String> members(JsonArray mem, JsonFields f, String p, String id, Map<String, String> linkA,
                                        Set<String> grouped) {
        List<String> ids = new ArrayList<>();
        for (int j = 0; j < mem.size(); j++) {
            String mp = p + ".members[" + j + "]";
            String lid = f.string(mem.get(j), mp);
            if (!linkA.containsKey(lid)) {
                throw f.error(mp, "group '" + id + "' names missing link '" + lid + "'");
            }
            if (!grouped.add(lid)) {
                throw f.error(mp, "link '" + lid + "' is already in another group; a link belongs to at"
                        + " most one group");
            }
            if (!linkA.get(lid).equals(linkA.get(f.string(mem.get(0), p + ".members[0]")))) {
                throw f.error(mp, "all members of a striped group must have the same endpoint a; '" + lid
                        + "' starts at '" + linkA.get(lid) + "'");
            }
            ids.add(lid);
        }
        return ids;
    }
}
