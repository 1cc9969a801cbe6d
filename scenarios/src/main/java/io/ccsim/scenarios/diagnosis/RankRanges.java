package io.ccsim.scenarios.diagnosis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Lists of ranks as people read them: sorted, runs of three or more as ranges ({@code 0-3, 5, 6, 9}). */
public final class RankRanges {
    private RankRanges() {}

    /** The ranks sorted, each run of three or more consecutive ranks written {@code first-last}. */
    public static String format(Iterable<Integer> ranks) {
        List<Integer> rs = new ArrayList<>();
        for (int r : ranks) rs.add(r);
        Collections.sort(rs);
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < rs.size()) {
            int j = i;
            while (j + 1 < rs.size() && rs.get(j + 1) == rs.get(j) + 1) j++;
            if (sb.length() > 0) sb.append(", ");
            sb.append(rs.get(i));
            if (j > i + 1) sb.append('-').append(rs.get(j));
            else if (j == i + 1) sb.append(", ").append(rs.get(j));
            i = j + 1;
        }
        return sb.toString();
    }
}
