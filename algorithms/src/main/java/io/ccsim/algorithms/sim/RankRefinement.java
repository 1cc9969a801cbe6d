package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.StepCursor;
import io.ccsim.sim.flow.FlowNetwork;
import java.util.Arrays;

/**
 * Colour refinement over one execution's workers, connections and links, and the quotient it yields
 * ({@link RankFolding}, which says why the quotient is exact).
 */
final class RankRefinement {
    /*
     * Entities and their relations:
     *   unit u = c * nActors + a: actor a's workers of simulated channel c (all lanes). Its initial colour hashes its
     *     step sequence with peers replaced by their position in the order the unit first meets its connections (inc[u]:
     *     connection k * 2 + 1 if it receives on k, k * 2 if it sends);
     *   connection k of a simulated channel (connection channel, from, to): initial colour its connection index, hop
     *     latency and the steps at which its sender and its receiver use it; related to its sender's and receiver's units and to the links its route crosses, each way;
     *   link l of the flow network: initial colour its capacity, sharing and duplex efficiency.
     * A round recolours each entity from its colour and its neighbours' colours: a unit from its connections in its own
     * order; a connection from its two units and the sorted multiset of (link colour, direction) of its hops; a link from
     * the sorted multiset of (connection colour, direction) crossing it. Colours only split (each new colour hashes the
     * old one); when a round splits nothing the partition is the coarsest equitable one finer than the initial colours.
     */
    private static final long SEED = 0x243F6A8885A308D3L;

    private final Plan plan;
    private final ChannelFolding channels;
    private final int nA;
    private final int nCh;
    private final ConnIndex full = new ConnIndex();
    private int[][] hops;
    private long[] latency;
    /** per unit: connections met, in order (k * 2 + 1 receiving, k * 2 sending); null for units of replica channels */
    private int[][] inc;
    /** per unit, aligned with inc: a hash of the (lane, step) positions at which the unit uses the connection */
    private long[][] usage;
    private long[] uc;
    private long[] kc;
    private long[] lc;
    /** per link: crossings (k * 2 + reverse), CSR */
    private int[] linkStart;
    private int[] linkCross;

    private RankRefinement(Plan plan, ChannelFolding channels) {
        this.plan = plan;
        this.channels = channels;
        this.nA = plan.nActors();
        this.nCh = plan.nChannels();
    }

    /** The coarsest exact folding of {@code plan} (see {@link RankFolding#of}). */
    static RankFolding fold(Plan plan, ChannelFolding channels, ConnectionPaths paths, FlowNetwork net) {
        RankRefinement r = new RankRefinement(plan, channels);
        r.connections(paths);
        r.units();
        r.links(net);
        r.refine();
        return r.quotient();
    }

    private void connections(ConnectionPaths paths) {
        plan.forEachConnection((cch, from, to) -> {
            if (channels.simulated(cch % nCh)) full.add(cch, from, to);
        });
        int nk = full.size();
        hops = new int[nk][];
        latency = new long[nk];
        kc = new long[nk];
        for (int k = 0; k < nk; k++) {
            ConnectionPaths.Hops h = paths.hops(full.channel(k), full.from(k), full.to(k));
            hops[k] = h.hops();
            latency[k] = h.latencyPs();
            kc[k] = mix(mix(SEED, full.channel(k) / nCh), h.latencyPs());
        }
    }

    /** Initial unit colours (step sequences with peers by first meeting) and each unit's connections in that order. */
    private void units() {
        int nu = nA * nCh;
        uc = new long[nu];
        inc = new int[nu][];
        usage = new long[nu][];
        Walk walk = new Walk(2 * full.size(), plan.maxPeers());
        long[] use = new long[2 * full.size()]; // [k * 2 + 1]: when k's receiver uses it, [k * 2]: its sender
        for (int c = 0; c < nCh; c++) {
            if (!channels.simulated(c)) continue;
            int keyed = -1; // the first unit of this channel with a sequence key, read whole
            long key = Plan.NO_KEY;
            for (int a = 0; a < nA; a++) {
                int u = c * nA + a;
                long k = plan.nLanes() == 1 ? plan.sequenceKey(a, c, 0) : Plan.NO_KEY;
                if (k != Plan.NO_KEY && keyed >= 0 && k == key) {
                    // the same sequence as unit `keyed`: read only until it met as many connections
                    walk.run(a, c, inc[keyed].length);
                    uc[u] = uc[keyed];
                    usage[u] = usage[keyed];
                } else {
                    uc[u] = walk.run(a, c, Integer.MAX_VALUE);
                    usage[u] = Arrays.copyOf(walk.used, walk.n);
                    if (k != Plan.NO_KEY && keyed < 0) {
                        keyed = u;
                        key = k;
                    }
                }
                inc[u] = Arrays.copyOf(walk.met, walk.n);
                // a connection's colour starts with when its ends use it: equivalent peers met at different steps differ
                for (int i = 0; i < walk.n; i++) use[walk.met[i]] = usage[u][i];
                walk.reset();
            }
        }
        for (int k = 0; k < kc.length; k++) kc[k] = mix(mix(kc[k], use[2 * k]), use[2 * k + 1]);
    }

    /** Reads one unit's steps: its sequence hash, the connections it meets in order and when it uses each. */
    private final class Walk {
        private final StepCursor cur;
        /** per connection end (k * 2 + 1 receiving, k * 2 sending): its position in met, −1 if not met */
        private final int[] local;
        int[] met = new int[8];
        long[] used = new long[8];
        int n;

        Walk(int ends, int maxPeers) {
            cur = new StepCursor(maxPeers);
            local = new int[ends];
            Arrays.fill(local, -1);
        }

        /** Hashes actor a's steps of channel c, stopping once {@code stopAt} connections were met. */
        long run(int a, int c, int stopAt) {
            long h = mix(mix(SEED, c), plan.isSwitchActor(a) ? 1 : 0);
            for (int l = 0; l < plan.nLanes(); l++) {
                int steps = plan.stepCount(a, c, l);
                h = mix(h, ((long) l << 32) | steps);
                for (int i = 0; i < steps && n < stopAt; i++) {
                    plan.step(a, c, l, i, cur);
                    h = mix(h, ((long) cur.prim().ordinal() << 48) | ((long) cur.slots() << 32) | (cur.continued() ? 2 : 0)
                            | (cur.memory() ? 1 : 0));
                    h = mix(h, ((long) cur.count() << 16) | ((long) cur.nRecv() << 8) | cur.nSend());
                    int rc = plan.connectionChannel(c, cur.recvConn());
                    for (int p = 0; p < cur.nRecv(); p++) h = mix(h, meet(full.find(rc, cur.recvPeer(p), a) * 2 + 1, l, i) * 2L + 1);
                    int sc = plan.connectionChannel(c, cur.sendConn());
                    for (int p = 0; p < cur.nSend(); p++) h = mix(h, meet(full.find(sc, a, cur.sendPeer(p)) * 2, l, i) * 2L);
                }
            }
            return h;
        }

        /** Notes that connection end x is used at (lane l, step i); returns its position in met. */
        private int meet(int x, int l, int i) {
            if (local[x] < 0) {
                if (n == met.length) {
                    met = Arrays.copyOf(met, 2 * n);
                    used = Arrays.copyOf(used, 2 * n);
                }
                local[x] = n;
                used[n] = SEED;
                met[n++] = x;
            }
            used[local[x]] = mix(used[local[x]], ((long) l << 32) | i);
            return local[x];
        }

        void reset() {
            for (int i = 0; i < n; i++) local[met[i]] = -1;
            n = 0;
        }
    }

    /** Initial link colours and each link's crossings. */
    private void links(FlowNetwork net) {
        int nl = net.linkCount();
        lc = new long[nl];
        for (int l = 0; l < nl; l++) {
            lc[l] = mix(mix(mix(SEED, Double.doubleToLongBits(net.capacity(l))), net.sharing(l).ordinal()),
                    Double.doubleToLongBits(net.duplexEfficiency(l)));
        }
        linkStart = new int[nl + 1];
        for (int[] hk : hops) for (int h : hk) linkStart[(h >>> 1) + 1]++;
        for (int l = 0; l < nl; l++) linkStart[l + 1] += linkStart[l];
        linkCross = new int[linkStart[nl]];
        int[] fill = Arrays.copyOf(linkStart, nl);
        for (int k = 0; k < hops.length; k++) {
            for (int h : hops[k]) linkCross[fill[h >>> 1]++] = k * 2 + (h & 1);
        }
    }

    private int unitOf(int k, boolean sender) {
        return (full.channel(k) % nCh) * nA + (sender ? full.from(k) : full.to(k));
    }

    /** Recolours until a round splits no class. */
    private void refine() {
        int nl = lc.length;
        long[] scratch = new long[16];
        int unitClasses = distinct(uc, true);
        if (unitClasses == activeUnits()) return; // every worker differs already: nothing can fold
        int classes = unitClasses + distinct(kc, false) + distinct(lc, false);
        for (int round = 0; round < uc.length + kc.length + nl; round++) {
            long[] nu = new long[uc.length];
            for (int u = 0; u < uc.length; u++) {
                if (inc[u] == null) continue;
                long h = uc[u];
                for (int x : inc[u]) h = mix(h, mix(kc[x >>> 1], x & 1));
                nu[u] = h;
            }
            long[] nk = new long[kc.length];
            for (int k = 0; k < kc.length; k++) {
                int[] hk = hops[k];
                if (scratch.length < hk.length) scratch = new long[2 * hk.length];
                for (int i = 0; i < hk.length; i++) scratch[i] = mix(lc[hk[i] >>> 1], hk[i] & 1);
                Arrays.sort(scratch, 0, hk.length);
                long h = mix(mix(kc[k], uc[unitOf(k, true)]), uc[unitOf(k, false)]);
                for (int i = 0; i < hk.length; i++) h = mix(h, scratch[i]);
                nk[k] = h;
            }
            long[] nlc = new long[nl];
            for (int l = 0; l < nl; l++) {
                int from = linkStart[l];
                int n = linkStart[l + 1] - from;
                if (scratch.length < n) scratch = new long[2 * n];
                for (int i = 0; i < n; i++) scratch[i] = mix(kc[linkCross[from + i] >>> 1], linkCross[from + i] & 1);
                Arrays.sort(scratch, 0, n);
                long h = lc[l];
                for (int i = 0; i < n; i++) h = mix(h, scratch[i]);
                nlc[l] = h;
            }
            uc = nu;
            kc = nk;
            lc = nlc;
            int now = distinct(uc, true) + distinct(kc, false) + distinct(lc, false);
            if (now == classes) return;
            classes = now;
        }
    }

    private int activeUnits() {
        int n = 0;
        for (int[] i : inc) if (i != null) n++;
        return n;
    }

    /** Distinct colours among the entities (for units, only those of simulated channels). */
    private int distinct(long[] colours, boolean units) {
        long[] a = new long[colours.length];
        int n = 0;
        for (int i = 0; i < colours.length; i++) {
            if (!units || inc[i] != null) a[n++] = colours[i];
        }
        Arrays.sort(a, 0, n);
        int d = 0;
        for (int i = 0; i < n; i++) if (i == 0 || a[i] != a[i - 1]) d++;
        return d;
    }

    /** The folding the final colours give, or identity if nothing folds or a receiver has no quotient connection. */
    private RankFolding quotient() {
        int nu = nA * nCh;
        int[] rep = new int[nu];
        int[][] members = new int[nu][];
        int simulated = 0;
        int total = 0;
        for (int c = 0; c < nCh; c++) {
            if (!channels.simulated(c)) {
                for (int a = 0; a < nA; a++) rep[c * nA + a] = a;
                continue;
            }
            total += nA;
            simulated += classesOfChannel(c, rep, members);
        }
        if (simulated == total) return RankFolding.identity(nA, nCh);
        if (!mergesAreSimultaneous(rep)) return RankFolding.identity(nA, nCh);
        ConnIndex q = new ConnIndex();
        int nk = full.size();
        int[] real = new int[nk];
        for (int k = 0; k < nk; k++) {
            int c = full.channel(k) % nCh;
            int from = full.from(k);
            if (rep[c * nA + from] != from) continue;
            int before = q.size();
            q.add(full.channel(k), from, rep[c * nA + full.to(k)]);
            if (q.size() > before) real[before] = k; // else an equivalent peer's connection, already there
        }
        for (int k = 0; k < nk; k++) {
            int c = full.channel(k) % nCh;
            int to = full.to(k);
            if (rep[c * nA + to] == to && q.indexOf(full.channel(k), rep[c * nA + full.from(k)], to) < 0) {
                return RankFolding.identity(nA, nCh);
            }
        }
        int[] linkRep = linkRepresentatives();
        int[][] qHops = new int[q.size()][];
        long[] qLat = new long[q.size()];
        for (int i = 0; i < q.size(); i++) {
            qHops[i] = weightedHops(real[i], linkRep);
            qLat[i] = latency[real[i]];
        }
        return new RankFolding(nA, nCh, rep, members, q, qHops, qLat, simulated, total);
    }

    /**
     * Whether every representative's connections that merge into one quotient connection (same direction and
     * connection channel, peers of one class) are used at the same steps: merging connections used at different steps
     * (a GPU talking to equivalent NVLS heads one after another) would put their steps on one connection.
     */
    private boolean mergesAreSimultaneous(int[] rep) {
        long[] key = new long[8];
        long[] use = new long[8];
        for (int u = 0; u < inc.length; u++) {
            int[] in = inc[u];
            if (in == null || rep[u] != u % nA || in.length < 2) continue;
            int c = u / nA;
            int n = in.length;
            if (key.length < n) {
                key = new long[n];
                use = new long[n];
            }
            // (direction, connection channel, peer's representative) in the high bits, the position in the low ones
            for (int i = 0; i < n; i++) {
                int k = in[i] >>> 1;
                boolean recv = (in[i] & 1) == 1;
                int peerRep = rep[c * nA + (recv ? full.from(k) : full.to(k))];
                key[i] = ((((long) full.channel(k) << 21 | peerRep) << 1 | (in[i] & 1)) << 20) | i;
            }
            Arrays.sort(key, 0, n);
            for (int i = 0; i < n; i++) use[i] = usage[u][(int) (key[i] & 0xFFFFF)];
            for (int i = 1; i < n; i++) {
                if (key[i] >>> 20 == key[i - 1] >>> 20 && use[i] != use[i - 1]) return false;
            }
        }
        return true;
    }

    /** Classes of channel {@code c}'s actors by final colour: fills rep and members; returns the class count. */
    private int classesOfChannel(int c, int[] rep, int[][] members) {
        long[] key = new long[nA];
        Integer[] order = new Integer[nA];
        for (int a = 0; a < nA; a++) {
            key[a] = uc[c * nA + a];
            order[a] = a;
        }
        Arrays.sort(order, (x, y) -> key[x] != key[y] ? Long.compare(key[x], key[y]) : Integer.compare(x, y));
        int classes = 0;
        for (int i = 0; i < nA; ) {
            int j = i;
            while (j < nA && key[order[j]] == key[order[i]]) j++;
            int[] m = new int[j - i];
            for (int t = i; t < j; t++) m[t - i] = order[t];
            Arrays.sort(m);
            for (int a : m) rep[c * nA + a] = m[0];
            members[c * nA + m[0]] = m;
            classes++;
            i = j;
        }
        return classes;
    }

    /** Per link, the least link of its colour among the links some connection crosses (−1 for a link none crosses). */
    private int[] linkRepresentatives() {
        int nl = lc.length;
        int[] linkRep = new int[nl];
        java.util.HashMap<Long, Integer> first = new java.util.HashMap<>();
        for (int l = 0; l < nl; l++) {
            if (linkStart[l + 1] == linkStart[l]) {
                linkRep[l] = -1;
                continue;
            }
            Integer r = first.putIfAbsent(lc[l], l);
            linkRep[l] = r == null ? l : r;
        }
        return linkRep;
    }

    /**
     * Connection k's hops in the quotient: per distinct (link class, direction) it crosses, the class's representative
     * link, repeated once per connection of k's colour crossing that link that way.
     */
    private int[] weightedHops(int k, int[] linkRep) {
        int[] out = new int[8];
        int n = 0;
        int[] hk = hops[k];
        for (int i = 0; i < hk.length; i++) {
            int rl = linkRep[hk[i] >>> 1];
            int hop = FlowNetwork.hop(rl, (hk[i] & 1) == 1);
            boolean seen = false;
            for (int j = 0; j < i && !seen; j++) {
                seen = FlowNetwork.hop(linkRep[hk[j] >>> 1], (hk[j] & 1) == 1) == hop;
            }
            if (seen) continue;
            int weight = 0;
            for (int x = linkStart[rl]; x < linkStart[rl + 1]; x++) {
                int cross = linkCross[x];
                if ((cross & 1) == (hk[i] & 1) && kc[cross >>> 1] == kc[k]) weight++;
            }
            for (int w = 0; w < weight; w++) {
                if (n == out.length) out = Arrays.copyOf(out, 2 * n);
                out[n++] = hop;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** splitmix64 of h combined with v. */
    static long mix(long h, long v) {
        long z = h * 0x9E3779B97F4A7C15L + v + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
