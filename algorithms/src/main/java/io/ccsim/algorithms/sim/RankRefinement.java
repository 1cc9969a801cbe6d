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
     *     start phase, its channel's multiplicity (and, folding inside channels only, the channel itself) and its
     *     step sequence with peers replaced by their position in the order the unit first meets its connections (inc[u]:
     *     connection k * 2 + 1 if it receives on k, k * 2 if it sends);
     *   connection k of a simulated channel (connection channel, from, to): initial colour its connection index, hop
     *     latency and the steps at which its sender and its receiver use it; related to its sender's and receiver's units and to the links its route crosses, each way;
     *   link l of the flow network: initial colour its capacity, sharing and duplex efficiency.
     * A round (ColourRefinement) splits each class by its members' neighbours' classes: a unit's connections in its own
     * order; a connection's two units and the multiset of (link class, direction) of its hops; a link's multiset of
     * (connection class, direction) crossing it. A multiset is hashed as the sum of its members' hashes, which no order
     * changes (no sort: a spine link is crossed by thousands of connections). Classes only split; when a round splits
     * nothing the partition is the coarsest equitable one finer than the initial colours, and the final colours name
     * its classes.
     * A link entity that never binds (SlackLinks: its crossing connections' rate bounds fit in its capacity) takes no
     * part: it relates no connections, is no part of a connection's colour and is no hop of the quotient, since the
     * max-min fair rates are those of the network without it (its latency is the connection's, kept apart).
     */
    static final long SEED = 0x243F6A8885A308D3L;
    /** the low bits of a merge key that hold a connection's position in its unit's order (fewer than 2^20 met) */
    private static final long POSITION = 0xFFFFFL;
    /** plan steps read between two polls of the run's stop request (a few ms) */
    private static final int CHECK_STEPS = 1 << 16;

    private final Plan plan;
    private final ChannelFolding channels;
    /** channel c starts in phase c mod phases */
    private final int phases;
    /** whether classes stay inside one channel (the channel is part of a unit's colour) */
    private final boolean perChannel;
    private final int nA;
    private final int nCh;
    /** a run's stop request, polled while routing the connections with the part of them routed (it throws to abandon) */
    private final java.util.function.DoubleConsumer routing;
    /** a run's stop request, polled while refining with the part of the step reading done (it throws to abandon) */
    private final java.util.function.DoubleConsumer checkpoint;
    /** the run's checkpoint for the refinement's rounds, with the part of the work budget spent */
    private final java.util.function.DoubleConsumer refining;
    /** entity updates after which the refinement stops unsettled */
    private final long maxWork;
    /** plan steps the first pass reads in all, and has read so far */
    private long toRead;
    private long read;
    private final ConnIndex full = new ConnIndex();
    private int[][] hops;
    private long[] latency;
    /** per unit: connections met, in order (k * 2 + 1 receiving, k * 2 sending); null for units of replica channels */
    private int[][] inc;
    /** per unit, aligned with inc: a hash of the (lane, step) positions at which the unit uses the connection */
    private long[][] usage;
    private long[] uc;
    private long[] kc;
    /** per link entity (see {@link #entity}) */
    private long[] lc;
    /** per link: whether its two directions are independent constraints, each its own entity */
    private boolean[] split;
    /** per link entity: whether it never binds ({@link SlackLinks}), so that it relates no connections and is no hop */
    private boolean[] dropped;
    /** per link: crossings (k * 2 + reverse), CSR */
    private int[] linkStart;
    private int[] linkCross;
    /** per connection: the hops that relate it to link entities (not dropped), each entity << 1 | direction */
    private int[][] connLinks;

    private RankRefinement(Plan plan, ChannelFolding channels, int phases, boolean perChannel,
                           java.util.function.DoubleConsumer routing, java.util.function.DoubleConsumer checkpoint,
                           java.util.function.DoubleConsumer refining, long maxWork) {
        this.routing = routing;
        this.checkpoint = checkpoint;
        this.refining = refining;
        this.maxWork = maxWork;
        this.plan = plan;
        this.channels = channels;
        this.phases = phases;
        this.perChannel = perChannel;
        this.nA = plan.nActors();
        this.nCh = plan.nChannels();
    }

    /**
     * The coarsest exact folding of {@code plan} (see {@link RankFolding#of}): with classes across channels where every
     * representative's peers have their representatives in its channel, else with classes inside channels.
     */
    static RankFolding fold(Plan plan, ChannelFolding channels, int phases, ConnectionPaths paths, FlowNetwork net,
                            java.util.function.DoubleConsumer routing, java.util.function.DoubleConsumer checkpoint,
                            java.util.function.DoubleConsumer refining, long maxWork) {
        RankFolding across = new RankRefinement(plan, channels, phases, false, routing, checkpoint, refining, maxWork)
                .run(paths, net);
        return across != null ? across
                : new RankRefinement(plan, channels, phases, true, routing, checkpoint, refining, maxWork).run(paths, net);
    }

    /** The folding of this refinement's colours, or null if a representative's peer is represented in another channel. */
    private RankFolding run(ConnectionPaths paths, FlowNetwork net) {
        connections(paths);
        checkpoint.accept(Double.NaN);
        units();
        links(net, slackHops(paths, net));
        checkpoint.accept(Double.NaN);
        int unsettled = refine();
        if (unsettled > 0) return RankFolding.unsettled(nA, nCh, unsettled);
        return quotient();
    }

    /** A unit's colour before its steps: what of its channel may tell it apart from a unit of another channel. */
    private long channelColour(int c) {
        return mix(mix(SEED, perChannel ? c : c % phases), channels.multiplicity(c));
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
            if ((k & 255) == 255) routing.accept(k / (double) nk);
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
        // per channel: the first unit read whole for each sequence key, and the steps at which it first met each
        // connection; a unit with the same key meets its connections, in the same order, at those steps alone
        java.util.HashMap<Long, Integer> keyed = new java.util.HashMap<>();
        long[][] firstMet = new long[nu][];
        toRead = Math.max(1, FoldingReads.of(plan, channels::simulated));
        for (int c = 0; c < nCh; c++) {
            if (!channels.simulated(c)) continue;
            keyed.clear();
            for (int a = 0; a < nA; a++) {
                int u = c * nA + a;
                long k = FoldingReads.unitKey(plan, a, c);
                Integer first = k == Plan.NO_KEY ? null : keyed.get(k);
                if (first != null) {
                    walk.meetAt(a, c, firstMet[first]);
                    uc[u] = uc[first];
                    usage[u] = usage[first];
                } else {
                    uc[u] = walk.run(a, c);
                    usage[u] = Arrays.copyOf(walk.used, walk.n);
                    if (k != Plan.NO_KEY) {
                        keyed.put(k, u);
                        firstMet[u] = Arrays.copyOf(walk.at, walk.n);
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
        /** aligned with met: the step (lane << 32 | index) at which each connection was first met */
        long[] at = new long[8];
        int n;
        /** steps read since the last poll of the run's stop request */
        private int sinceCheck;

        Walk(int ends, int maxPeers) {
            cur = new StepCursor(maxPeers);
            local = new int[ends];
            Arrays.fill(local, -1);
        }

        /** Hashes actor a's steps of channel c, meeting its connections in order. */
        long run(int a, int c) {
            long h = mix(channelColour(c), plan.isSwitchActor(a) ? 1 : 0);
            for (int l = 0; l < plan.nLanes(); l++) {
                int steps = plan.stepCount(a, c, l);
                h = mix(h, ((long) l << 32) | steps);
                for (int i = 0; i < steps; i++) {
                    if (++sinceCheck == CHECK_STEPS) {
                        sinceCheck = 0;
                        read += CHECK_STEPS;
                        // a plan no key covers may take minutes to read (FoldingReads)
                        checkpoint.accept(Math.min(1, read / (double) toRead));
                    }
                    plan.step(a, c, l, i, cur);
                    h = mix(h, ((long) cur.prim().ordinal() << 48) | ((long) cur.slots() << 32) | (cur.continued() ? 2 : 0)
                            | (cur.memory() ? 1 : 0));
                    h = mix(h, ((long) cur.count() << 16) | ((long) cur.nRecv() << 8) | cur.nSend());
                    if (cur.hasParts()) h = mix(h, cur.partElems());
                    int rc = plan.connectionChannel(c, cur.recvConn());
                    for (int p = 0; p < cur.nRecv(); p++) h = mix(h, meet(full.find(rc, cur.recvPeer(p), a) * 2 + 1, l, i) * 2L + 1);
                    int sc = plan.connectionChannel(c, cur.sendConn());
                    for (int p = 0; p < cur.nSend(); p++) h = mix(h, meet(full.find(sc, a, cur.sendPeer(p)) * 2, l, i) * 2L);
                }
            }
            return h;
        }

        /**
         * Meets actor a's connections of channel c reading only the steps {@code steps} (ascending, lane << 32 |
         * index): those at which a unit of the same sequence key first met its connections, so a meets its own in the
         * same order. Its hash and usage are that unit's.
         */
        void meetAt(int a, int c, long[] steps) {
            long last = -1;
            for (long x : steps) {
                if (x == last) continue;
                last = x;
                int l = (int) (x >>> 32);
                int i = (int) x;
                plan.step(a, c, l, i, cur);
                int rc = plan.connectionChannel(c, cur.recvConn());
                for (int p = 0; p < cur.nRecv(); p++) meet(full.find(rc, cur.recvPeer(p), a) * 2 + 1, l, i);
                int sc = plan.connectionChannel(c, cur.sendConn());
                for (int p = 0; p < cur.nSend(); p++) meet(full.find(sc, a, cur.sendPeer(p)) * 2, l, i);
            }
        }

        /** Notes that connection end x is used at (lane l, step i); returns its position in met. */
        private int meet(int x, int l, int i) {
            if (local[x] < 0) {
                if (n == met.length) {
                    met = Arrays.copyOf(met, 2 * n);
                    used = Arrays.copyOf(used, 2 * n);
                    at = Arrays.copyOf(at, 2 * n);
                }
                local[x] = n;
                used[n] = SEED;
                at[n] = ((long) l << 32) | i;
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

    /**
     * Initial link colours and each link entity's crossings. A full-duplex link without a duplex limit is two
     * independent constraints, one per direction, so each direction is an entity of its own (a spine cable crossed one
     * way by one connection and the other way by another is then alike to one crossed one way only); any other link
     * is one entity whose crossings carry their direction.
     */
    private void links(FlowNetwork net, boolean[] slack) {
        int nl = net.linkCount();
        int ne = 2 * nl;
        split = new boolean[nl];
        dropped = new boolean[ne];
        lc = new long[ne];
        for (int l = 0; l < nl; l++) {
            split[l] = net.sharing(l) == io.ccsim.sim.Sharing.FULL_DUPLEX && net.duplexEfficiency(l) == 1.0;
            // a split link's directions are dropped one by one; any other link only with both
            dropped[2 * l] = split[l] ? slack[2 * l] : slack[2 * l] && slack[2 * l + 1];
            dropped[2 * l + 1] = split[l] ? slack[2 * l + 1] : dropped[2 * l];
            long c = mix(mix(mix(SEED, Double.doubleToLongBits(net.capacity(l))), net.sharing(l).ordinal()),
                    Double.doubleToLongBits(net.duplexEfficiency(l)));
            lc[2 * l] = c;
            lc[2 * l + 1] = c;
        }
        linkStart = new int[ne + 1];
        for (int[] hk : hops) for (int h : hk) if (!dropped[entity(h)]) linkStart[entity(h) + 1]++;
        for (int e = 0; e < ne; e++) linkStart[e + 1] += linkStart[e];
        linkCross = new int[linkStart[ne]];
        connLinks = new int[hops.length][];
        int[] fill = Arrays.copyOf(linkStart, ne);
        for (int k = 0; k < hops.length; k++) {
            int[] rel = new int[hops[k].length];
            int n = 0;
            for (int h : hops[k]) {
                if (dropped[entity(h)]) continue;
                linkCross[fill[entity(h)]++] = k * 2 + direction(h);
                rel[n++] = entity(h) << 1 | direction(h);
            }
            connLinks[k] = n == rel.length ? rel : Arrays.copyOf(rel, n);
        }
    }

    /**
     * Per hop of the network, whether the constraint it loads never binds under the execution's connections
     * ({@link SlackLinks}); none when a link of the fabric flaps (capacities that change during the run).
     */
    private boolean[] slackHops(ConnectionPaths paths, FlowNetwork net) {
        int nk = hops.length;
        if (paths.capacitiesChange()) return new boolean[2 * net.linkCount()];
        int[] mult = new int[nk];
        int[] flows = new int[nk];
        double[] cap = new double[nk];
        for (int k = 0; k < nk; k++) {
            mult[k] = channels.multiplicity(full.channel(k) % nCh);
            flows[k] = plan.nLanes();
            cap[k] = SlackLinks.rateCapBound(plan, full.from(k), paths.channelCapBps());
        }
        return SlackLinks.of(net, hops, mult, flows, cap);
    }

    /** The link entity hop h crosses: the hop itself for a split link, else the link's (link << 1). */
    private int entity(int h) {
        return split[h >>> 1] ? h : h & ~1;
    }

    /** The direction a crossing of hop h records: 0 on a split link (its entity is one direction), else h's. */
    private int direction(int h) {
        return split[h >>> 1] ? 0 : h & 1;
    }

    private int unitOf(int k, boolean sender) {
        return (full.channel(k) % nCh) * nA + (sender ? full.from(k) : full.to(k));
    }

    /*
     * Rounds (ColourRefinement: each round recolours only the neighbours of what the last one split, with the partition
     * and round count of recolouring everything). Rings settle in a round or two and trees in about their depth (14
     * rounds at 1,024 GPUs, about a third of the entities each), but a chain (a ring broadcast or reduce) tells its
     * ranks apart one step from the root per round: n / 2 rounds (a broadcast on 100,000 GPUs: about 50,000). A chain's
     * ranks never fold within a channel, so the refinement stops after the rounds that MAX_WORK entity updates of every
     * entity would take (at least MIN_ROUNDS) and nothing folds: exact, with every worker simulated. Below that budget
     * the scale benchmark's cases settle (the 1,024-GPU broadcast in about 512 rounds); at 100,000 GPUs a broadcast
     * of 1 MiB stops after 405 rounds, in 0.22 s (10.0 s when every round recoloured every entity).
     */
    /** Entity updates (rounds x entities) after which an unsettled refinement stops. */
    static final long MAX_WORK = 1L << 29;
    /** Rounds an unsettled refinement runs at least, whatever its size. */
    static final int MIN_ROUNDS = 64;

    /** Recolours until a round splits no class (returns 0) or the work budget is spent (returns the rounds run). */
    private int refine() {
        int nl = lc.length;
        if (distinct(uc, true) == activeUnits()) return 0; // every worker differs already: nothing can fold
        long entities = (long) activeUnits() + kc.length + nl;
        long maxRounds = Math.max(MIN_ROUNDS, maxWork / Math.max(1, entities));
        int nk = kc.length;
        int[] sendUnit = new int[nk];
        int[] recvUnit = new int[nk];
        for (int k = 0; k < nk; k++) {
            sendUnit[k] = unitOf(k, true);
            recvUnit[k] = unitOf(k, false);
        }
        return new ColourRefinement(inc, sendUnit, recvUnit, connLinks, linkStart, linkCross)
                .run(uc, kc, lc, maxRounds, refining);
    }

    private int activeUnits() {
        int n = 0;
        for (int[] i : inc) if (i != null) n++;
        return n;
    }

    /** Distinct colours among the entities (for units, only those of simulated channels): a hash set's count. */
    private int distinct(long[] colours, boolean units) {
        int cap = Integer.highestOneBit(Math.max(2, colours.length) * 2 - 1) * 2; // a power of two >= 2 x entities
        long[] table = new long[cap];
        boolean[] used = new boolean[cap];
        int mask = cap - 1;
        int d = 0;
        for (int i = 0; i < colours.length; i++) {
            if (units && inc[i] == null) continue;
            long c = colours[i];
            int slot = (int) mix(SEED, c) & mask;
            while (used[slot] && table[slot] != c) slot = (slot + 1) & mask;
            if (!used[slot]) {
                used[slot] = true;
                table[slot] = c;
                d++;
            }
        }
        return d;
    }

    /**
     * The folding the final colours give: identity if nothing folds, a receiver has no quotient connection or a quotient
     * connection no receiver; null if
     * a representative's peer has its representative in another channel (only when classes cross channels).
     */
    private RankFolding quotient() {
        int nu = nA * nCh;
        int[] repUnit = new int[nu];
        int[][] members = new int[nu][];
        for (int u = 0; u < nu; u++) repUnit[u] = u;
        int total = activeUnits();
        int simulated = classes(repUnit, members);
        if (simulated == total) return RankFolding.identity(nA, nCh);
        int[] rep = new int[nu];
        for (int u = 0; u < nu; u++) rep[u] = repUnit[u] % nA;
        if (!peersInChannel(repUnit)) return null;
        if (!mergesAreSimultaneous(repUnit, rep)) return RankFolding.identity(nA, nCh);
        QuotientConnections q = new QuotientConnections();
        int nk = full.size();
        int[] real = new int[nk]; // per quotient connection: a real one of its class that its representative sends on
        for (int k = 0; k < nk; k++) {
            int c = full.channel(k) % nCh;
            int from = c * nA + full.from(k);
            if (repUnit[from] != from) continue;
            int before = q.size();
            int i = q.add(full.channel(k), full.from(k), rep[c * nA + full.to(k)], kc[k]);
            if (q.size() > before) real[i] = k; // else a connection of one class to an equivalent peer, merged
            q.map(full.channel(k), full.from(k), full.to(k), i);
        }
        boolean[] received = new boolean[q.size()];
        for (int k = 0; k < nk; k++) {
            int c = full.channel(k) % nCh;
            int to = c * nA + full.to(k);
            if (repUnit[to] != to) continue;
            int i = q.indexOf(full.channel(k), rep[c * nA + full.from(k)], full.to(k), kc[k]);
            if (i < 0) return RankFolding.identity(nA, nCh);
            q.map(full.channel(k), full.from(k), full.to(k), i);
            received[i] = true;
        }
        for (boolean r : received) if (!r) return RankFolding.identity(nA, nCh);
        int[] linkRep = linkRepresentatives();
        CrossingCounts crossings = new CrossingCounts(linkStart, linkCross, kc);
        for (int i = 0; i < q.size(); i++) {
            if ((i & 4095) == 4095) checkpoint.accept(Double.NaN);
            q.setRoute(i, weightedHops(real[i], linkRep, crossings), latency[real[i]]);
        }
        return new RankFolding(nA, nCh, repUnit, members, q, simulated, total);
    }

    /** Whether every representative's peers have their representatives in its channel (the quotient's connections). */
    private boolean peersInChannel(int[] repUnit) {
        for (int u = 0; u < inc.length; u++) {
            if (inc[u] == null || repUnit[u] != u) continue;
            int c = u / nA;
            for (int x : inc[u]) {
                int k = x >>> 1;
                int peer = c * nA + ((x & 1) == 1 ? full.from(k) : full.to(k));
                if (repUnit[peer] / nA != c) return false;
            }
        }
        return true;
    }

    /**
     * Whether every representative's connections that merge into one quotient connection (same direction, connection
     * channel and colour, peers of one class) are used at the same steps: merging connections used at different steps
     * (a GPU talking to equivalent NVLS heads one after another) would put their steps on one connection. A connection's
     * colour includes the steps at which its ends use it, so this fails only if two colours collide.
     */
    private boolean mergesAreSimultaneous(int[] repUnit, int[] rep) {
        long[] key = new long[8];
        long[] use = new long[8];
        for (int u = 0; u < inc.length; u++) {
            int[] in = inc[u];
            if (in == null || repUnit[u] != u || in.length < 2) continue;
            int c = u / nA;
            int n = in.length;
            if (key.length < n) {
                key = new long[n];
                use = new long[n];
            }
            // a hash of (direction, connection channel, peer's representative, colour) in the high bits, the position
            // in the low ones: equal high bits merge
            for (int i = 0; i < n; i++) {
                int k = in[i] >>> 1;
                boolean recv = (in[i] & 1) == 1;
                int peerRep = rep[c * nA + (recv ? full.from(k) : full.to(k))];
                long merged = mix(mix(mix(SEED, full.channel(k)), (long) peerRep << 1 | (in[i] & 1)), kc[k]);
                key[i] = (merged & ~POSITION) | i;
            }
            Arrays.sort(key, 0, n);
            for (int i = 0; i < n; i++) use[i] = usage[u][(int) (key[i] & POSITION)];
            for (int i = 1; i < n; i++) {
                if ((key[i] & ~POSITION) == (key[i - 1] & ~POSITION) && use[i] != use[i - 1]) return false;
            }
        }
        return true;
    }

    /**
     * Classes of the units of simulated channels by final colour: fills repUnit (each class's lowest unit) and members
     * (the representative's class, ascending); returns the class count.
     */
    private int classes(int[] repUnit, int[][] members) {
        // unit ids sorted by (colour, unit): a class is a run, its first unit the lowest
        Integer[] order = new Integer[activeUnits()];
        int n = 0;
        for (int u = 0; u < inc.length; u++) {
            if (inc[u] != null) order[n++] = u;
        }
        Arrays.sort(order, (x, y) -> uc[x] != uc[y] ? Long.compare(uc[x], uc[y]) : Integer.compare(x, y));
        int classes = 0;
        for (int a = 0; a < n; ) {
            int b = a;
            while (b < n && uc[order[b]] == uc[order[a]]) b++;
            int[] m = new int[b - a];
            for (int t = a; t < b; t++) m[t - a] = order[t];
            for (int x : m) repUnit[x] = m[0];
            members[m[0]] = m;
            classes++;
            a = b;
        }
        return classes;
    }

    /**
     * Per link entity, the least entity of its colour among the entities some connection crosses (−1 for an entity
     * none crosses).
     */
    private int[] linkRepresentatives() {
        int ne = lc.length;
        int[] linkRep = new int[ne];
        java.util.HashMap<Long, Integer> first = new java.util.HashMap<>();
        for (int e = 0; e < ne; e++) {
            if (linkStart[e + 1] == linkStart[e]) {
                linkRep[e] = -1;
                continue;
            }
            Integer r = first.putIfAbsent(lc[e], e);
            linkRep[e] = r == null ? e : r;
        }
        return linkRep;
    }

    /** The quotient's hop for hop h: its entity's representative, crossed h's way (a split one's own way). */
    private int quotientHop(int h, int[] linkRep) {
        int re = linkRep[entity(h)];
        return split[h >>> 1] ? re : re | (h & 1);
    }

    /**
     * Connection k's hops in the quotient: per distinct (link class, direction) it crosses, the class's representative,
     * repeated once per connection of k's colour crossing that representative that way.
     */
    private int[] weightedHops(int k, int[] linkRep, CrossingCounts crossings) {
        int[] out = new int[8];
        int n = 0;
        int[] hk = hops[k];
        for (int i = 0; i < hk.length; i++) {
            if (dropped[entity(hk[i])]) continue; // never binds: no constraint of the quotient
            int re = linkRep[entity(hk[i])];
            int hop = quotientHop(hk[i], linkRep);
            boolean seen = false;
            for (int j = 0; j < i && !seen; j++) seen = quotientHop(hk[j], linkRep) == hop;
            if (seen) continue;
            int weight = crossings.of(re, direction(hk[i]), kc[k]);
            for (int w = 0; w < weight; w++) {
                if (n == out.length) out = Arrays.copyOf(out, 2 * n);
                out[n++] = hop;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** splitmix64 of h combined with v. */
    static long mix(long h, long v) {
        return io.ccsim.sim.HashKeys.spread(h * 0x9E3779B97F4A7C15L + v + 0x632BE59BD9B4E019L);
    }
}
