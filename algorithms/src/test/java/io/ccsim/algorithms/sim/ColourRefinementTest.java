package io.ccsim.algorithms.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The incremental refinement gives, after each round, the partition that recolouring every entity each round gives
 * (written out here as the reference: each entity's new colour hashes its colour and its neighbours' colours), and
 * stops after the same number of rounds, settled or not, on random units, connections and links: trees, chains and
 * rings of a few to a few hundred entities, with units that take no part.
 */
class ColourRefinementTest {

    /** A random instance: units (some taking no part), connections between units, link entities they cross. */
    private static final class Instance {
        int[][] inc;
        int[] send;
        int[] recv;
        int[][] connLinks;
        int[] linkStart;
        int[] linkCross;
        long[] uc;
        long[] kc;
        long[] lc;

        static Instance random(Random rnd, int shape) {
            Instance x = new Instance();
            int units = 4 + rnd.nextInt(60);
            int links = 2 + rnd.nextInt(30);
            int colours = 1 + rnd.nextInt(3);
            List<int[]> conns = new ArrayList<>();
            for (int u = 0; u < units; u++) {
                int peers = shape == 0 ? 1 : shape == 1 ? 2 : 1 + rnd.nextInt(3);
                for (int p = 0; p < peers; p++) {
                    int v = shape == 0 ? (u + 1) % units              // a ring
                            : shape == 1 ? (p == 0 ? (u - 1) / 2 : u * 2 + 1) // a binary tree's parent, a child
                            : rnd.nextInt(units);
                    if (v < 0 || v >= units || v == u) continue;
                    conns.add(new int[] {u, v});
                }
            }
            int nk = conns.size();
            x.send = new int[nk];
            x.recv = new int[nk];
            x.connLinks = new int[nk][];
            List<List<Integer>> byUnit = new ArrayList<>();
            for (int u = 0; u < units; u++) byUnit.add(new ArrayList<>());
            List<List<Integer>> byLink = new ArrayList<>();
            for (int l = 0; l < links; l++) byLink.add(new ArrayList<>());
            for (int k = 0; k < nk; k++) {
                x.send[k] = conns.get(k)[0];
                x.recv[k] = conns.get(k)[1];
                byUnit.get(x.send[k]).add(k * 2);
                byUnit.get(x.recv[k]).add(k * 2 + 1);
                int hops = rnd.nextInt(4);
                x.connLinks[k] = new int[hops];
                for (int h = 0; h < hops; h++) {
                    int l = shape == 0 ? (x.send[k] + h) % links : rnd.nextInt(links);
                    int dir = rnd.nextInt(2);
                    x.connLinks[k][h] = l << 1 | dir;
                    byLink.get(l).add(k * 2 + dir);
                }
            }
            x.inc = new int[units][];
            x.uc = new long[units];
            for (int u = 0; u < units; u++) {
                // a unit with no connection takes no part now and then, as a replica channel's
                boolean part = !byUnit.get(u).isEmpty() || rnd.nextBoolean();
                List<Integer> mine = byUnit.get(u);
                java.util.Collections.shuffle(mine, rnd);
                x.inc[u] = part ? mine.stream().mapToInt(Integer::intValue).toArray() : null;
                x.uc[u] = rnd.nextInt(colours);
            }
            x.kc = new long[nk];
            for (int k = 0; k < nk; k++) x.kc[k] = rnd.nextInt(colours);
            x.linkStart = new int[links + 1];
            for (int l = 0; l < links; l++) x.linkStart[l + 1] = x.linkStart[l] + byLink.get(l).size();
            x.linkCross = new int[x.linkStart[links]];
            for (int l = 0, i = 0; l < links; l++) for (int c : byLink.get(l)) x.linkCross[i++] = c;
            x.lc = new long[links];
            for (int l = 0; l < links; l++) x.lc[l] = rnd.nextInt(colours);
            return x;
        }

        /** A unit that takes part in none of the connections is never an endpoint: none here is. */
        boolean endpointsTakePart() {
            for (int k = 0; k < send.length; k++) if (inc[send[k]] == null || inc[recv[k]] == null) return false;
            return true;
        }
    }

    /**
     * The reference: every entity recoloured every round from its colour and its neighbours' colours until a round adds
     * no class, at most maxRounds rounds; returns 0 if settled, else the rounds. Colours are left in the arrays.
     */
    private static int synchronous(Instance x, long[] uc, long[] kc, long[] lc, long maxRounds) {
        int classes = count(x, uc, kc, lc);
        for (int round = 0; ; round++) {
            if (round == maxRounds) return round;
            long[] nu = uc.clone();
            for (int u = 0; u < uc.length; u++) {
                if (x.inc[u] == null) continue;
                long h = uc[u];
                for (int c : x.inc[u]) h = RankRefinement.mix(h, RankRefinement.mix(kc[c >>> 1], c & 1));
                nu[u] = h;
            }
            long[] nk = new long[kc.length];
            for (int k = 0; k < kc.length; k++) {
                long links = 0;
                for (int l : x.connLinks[k]) links += RankRefinement.mix(lc[l >>> 1], l & 1);
                nk[k] = RankRefinement.mix(RankRefinement.mix(RankRefinement.mix(kc[k], uc[x.send[k]]), uc[x.recv[k]]), links);
            }
            long[] nl = new long[lc.length];
            for (int l = 0; l < lc.length; l++) {
                long crossing = 0;
                for (int j = x.linkStart[l]; j < x.linkStart[l + 1]; j++) {
                    crossing += RankRefinement.mix(kc[x.linkCross[j] >>> 1], x.linkCross[j] & 1);
                }
                nl[l] = RankRefinement.mix(lc[l], crossing);
            }
            System.arraycopy(nu, 0, uc, 0, uc.length);
            System.arraycopy(nk, 0, kc, 0, kc.length);
            System.arraycopy(nl, 0, lc, 0, lc.length);
            int now = count(x, uc, kc, lc);
            if (now == classes) return 0;
            classes = now;
        }
    }

    private static int count(Instance x, long[] uc, long[] kc, long[] lc) {
        java.util.Set<Long> u = new java.util.HashSet<>();
        for (int i = 0; i < uc.length; i++) if (x.inc[i] != null) u.add(uc[i]);
        return u.size() + Arrays.stream(kc).distinct().toArray().length + Arrays.stream(lc).distinct().toArray().length;
    }

    /** The partition of the entities that {@code colours} give, as each entity's first entity of equal colour. */
    private static int[] partition(long[] colours, int[][] inc) {
        Map<Long, Integer> first = new HashMap<>();
        int[] p = new int[colours.length];
        for (int i = 0; i < colours.length; i++) {
            if (inc != null && inc[i] == null) {
                p[i] = -1;
                continue;
            }
            Integer f = first.putIfAbsent(colours[i], i);
            p[i] = f == null ? i : f;
        }
        return p;
    }

    @Test
    void partitionsAndRoundsAreThoseOfRecolouringEverything() {
        Random rnd = new Random(7);
        int checked = 0;
        int unsettled = 0;
        for (int t = 0; t < 600; t++) {
            Instance x = Instance.random(rnd, t % 3);
            if (!x.endpointsTakePart()) continue;
            long maxRounds = t % 4 == 0 ? 1 + rnd.nextInt(4) : Long.MAX_VALUE;
            long[] uc = x.uc.clone(), kc = x.kc.clone(), lc = x.lc.clone();
            int expected = synchronous(x, uc, kc, lc, maxRounds);
            long[] ru = x.uc.clone(), rk = x.kc.clone(), rl = x.lc.clone();
            int got = new ColourRefinement(x.inc, x.send, x.recv, x.connLinks, x.linkStart, x.linkCross)
                    .run(ru, rk, rl, maxRounds, f -> { });
            assertThat(got).as("instance %d: rounds", t).isEqualTo(expected);
            assertThat(partition(ru, x.inc)).as("instance %d: units", t).isEqualTo(partition(uc, x.inc));
            assertThat(partition(rk, null)).as("instance %d: connections", t).isEqualTo(partition(kc, null));
            assertThat(partition(rl, null)).as("instance %d: links", t).isEqualTo(partition(lc, null));
            checked++;
            if (got > 0) unsettled++;
        }
        assertThat(checked).isGreaterThan(300);
        assertThat(unsettled).as("instances stopped unsettled").isGreaterThan(10);
    }

    @Test
    void aChainSplitsOneHopFromTheRootPerRound() {
        // a chain of n units: each round tells the next unit from the far end apart; n / 2 rounds or so to settle
        int n = 41;
        int nk = n - 1;
        int[] send = new int[nk];
        int[] recv = new int[nk];
        int[][] inc = new int[n][];
        for (int k = 0; k < nk; k++) {
            send[k] = k;
            recv[k] = k + 1;
        }
        for (int u = 0; u < n; u++) {
            List<Integer> m = new ArrayList<>();
            if (u > 0) m.add((u - 1) * 2 + 1);
            if (u < n - 1) m.add(u * 2);
            inc[u] = m.stream().mapToInt(Integer::intValue).toArray();
        }
        int[][] connLinks = new int[nk][0];
        long[] uc = new long[n];
        long[] kc = new long[nk];
        long[] lc = new long[0];
        int got = new ColourRefinement(inc, send, recv, connLinks, new int[] {0}, new int[0]).run(uc, kc, lc, 1000, f -> { });
        assertThat(got).isZero();
        assertThat(Arrays.stream(uc).distinct().count()).as("every unit apart").isEqualTo(n);
        long[] uc2 = new long[n];
        long[] kc2 = new long[nk];
        assertThat(new ColourRefinement(inc, send, recv, connLinks, new int[] {0}, new int[0]).run(uc2, kc2, lc, 5, f -> { }))
                .as("stopped after 5 rounds").isEqualTo(5);
        assertThat(Arrays.stream(uc2).distinct().count()).as("after 5 rounds").isLessThan(n);
    }
}
