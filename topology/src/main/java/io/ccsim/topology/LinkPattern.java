package io.ccsim.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Links named the way a user types them: a link id ({@code n5.nic3~leaf.r3.0}, also with its endpoints swapped,
 * {@code leaf.r3.0~n5.nic3}), or a glob over ids where {@code *} stands for any run of characters and {@code ?} for
 * one ({@code n5.nic3~*}, {@code leaf.r3.*~spine.*}).
 *
 * @param text the id or glob as given, non-blank
 */
public record LinkPattern(String text) {

    /*
     * Suggestions for an id that names no link: if a '~'-separated part of it is a node id, that node's links (a user
     * who typed the NIC "n5.nic3" means one of its cables), else all links, ranked by edit distance (Levenshtein),
     * computed with a cut-off so that a 70,000-link cluster costs a few milliseconds.
     */

    /** How many nearest ids {@link #nearest} gives at most. */
    public static final int SUGGESTIONS = 4;

    public LinkPattern {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a link id or glob must be non-blank");
        }
        text = text.strip();
    }

    /** Whether {@link #text} is a glob (has {@code *} or {@code ?}). */
    public boolean isGlob() {
        return text.indexOf('*') >= 0 || text.indexOf('?') >= 0;
    }

    /**
     * The indices in {@link Topology#links()} of the links named, ascending; empty if none. An id matches itself or
     * its reverse ({@code b~a}); a glob matches ids only as written.
     */
    public List<Integer> match(Topology t) {
        List<Integer> out = new ArrayList<>();
        if (!isGlob()) {
            if (t.structure().linkIndex.containsKey(text)) {
                out.add(t.linkIndex(text));
            } else {
                int sep = text.indexOf('~');
                String reversed = sep < 0 ? null : text.substring(sep + 1) + "~" + text.substring(0, sep);
                if (reversed != null && t.structure().linkIndex.containsKey(reversed)) out.add(t.linkIndex(reversed));
            }
            return out;
        }
        Pattern p = glob(text);
        List<Link> links = t.links();
        for (int i = 0; i < links.size(); i++) {
            if (p.matcher(links.get(i).id()).matches()) out.add(i);
        }
        return out;
    }

    /**
     * Up to {@link #SUGGESTIONS} link ids near {@link #text}, the nearest first by edit distance (a glob's text before
     * its first wildcard compared with the ids' same-length prefixes): among the links of the nodes it names where it
     * names one, else among all links.
     */
    public List<String> nearest(Topology t) {
        List<Link> candidates = new ArrayList<>();
        for (String part : text.split("~")) {
            String node = part.strip();
            if (!node.isEmpty() && t.hasNode(node)) {
                for (Link l : t.neighbours(node)) if (!candidates.contains(l)) candidates.add(l);
            }
        }
        if (candidates.isEmpty()) candidates = t.links();
        String key = isGlob() ? text.substring(0, firstWildcard()) : text;
        record Scored(String id, int distance) { }
        List<Scored> best = new ArrayList<>();
        int bound = Integer.MAX_VALUE;
        for (Link l : candidates) {
            String id = isGlob() ? l.id().substring(0, Math.min(key.length(), l.id().length())) : l.id();
            int d = distance(key, id, bound);
            if (d > bound) continue;
            best.add(new Scored(l.id(), d));
            best.sort(Comparator.comparingInt(Scored::distance));
            if (best.size() > SUGGESTIONS) best.remove(best.size() - 1);
            if (best.size() == SUGGESTIONS) bound = best.get(SUGGESTIONS - 1).distance();
        }
        return best.stream().map(Scored::id).toList();
    }

    private int firstWildcard() {
        int star = text.indexOf('*');
        int q = text.indexOf('?');
        return star < 0 ? q : q < 0 ? star : Math.min(star, q);
    }

    /** The glob as a regular expression over whole ids. */
    static Pattern glob(String glob) {
        StringBuilder re = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) re.append(Pattern.quote(literal.toString()));
                literal.setLength(0);
                re.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) re.append(Pattern.quote(literal.toString()));
        return Pattern.compile(re.toString());
    }

    /** The Levenshtein distance of a and b, or some value above {@code bound} once it must exceed it. */
    static int distance(String a, String b, int bound) {
        if (Math.abs(a.length() - b.length()) > bound) return bound == Integer.MAX_VALUE ? bound : bound + 1;
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            int rowMin = cur[0];
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
                rowMin = Math.min(rowMin, cur[j]);
            }
            if (rowMin > bound) return bound + 1;
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
