package io.ccsim.scenarios.bootstrap;

import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.format.Units;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * NCCL's bootstrap network for one attempt of a job: the root listeners created by
 * {@code ncclGetUniqueId}, socket connects with NCCL's retry policy, and the bootstrap ring.
 *
 * <p>Every rank connects to its root (the root of its block of ranks with several roots) and sends
 * its address. A root waits until every rank of its block checked in, and, with several roots, until
 * the next root has sent it the address of that root's first rank; it then tells each of its ranks its
 * ring successor and stops listening. The ranks then all-gather over the ring (n-1 steps of one
 * bootstrap latency). None of it has a timeout: one rank that never arrives blocks everyone, silently.
 *
 * <p>A refused connect is retried {@link Settings#retryCount()} times, the k-th retry after sleeping
 * k x 100 ms; the next refusal fails with "connect returned Connection refused, exceeded error retry
 * count (n)". Every message costs one bootstrap latency ({@link Settings#bootstrapLatencyPs()}).
 */
public final class Bootstrap {
    /*
     * NCCL src/bootstrap.cc (bootstrapRoot, bootstrapInit; ncclCommInitRankScalable for several
     * roots) and src/misc/socket.cc (socketPollConnect: NCCL_RETRY_CNT = 34 retries, sleeps of
     * k x 100 ms, 59.5 s in all before the 35th refusal fails).
     */
    static final long RETRY_SLEEP_STEP_PS = Units.ms(100);

    private final SimHost host;
    private final Settings settings;
    private final int attempt;
    private final RefusalLog log;
    private final Map<String, Root> roots = new HashMap<>();
    private final Map<String, Session> sessions = new HashMap<>();
    private int nextPort = 40000;

    /** Where a rank's refused connects are logged (NCCL's warning, one per retry). */
    @FunctionalInterface
    public interface RefusalLog {
        void refused(int rank, String message);
    }

    /**
     * @param attempt the elastic attempt (for the roots' records)
     * @param log     receives each refused connect that will be retried
     */
    public Bootstrap(SimHost host, Settings settings, int attempt, RefusalLog log) {
        this.host = host;
        this.settings = settings;
        this.attempt = attempt;
        this.log = log;
    }

    /** A root listener. */
    public final class Root {
        final String address;
        final String id;
        final int hostRank;
        final String group;
        final int initSeq;
        final int rootIndex;
        final int nRoots;
        final List<Integer> expected;
        final List<Integer> arrived = new ArrayList<>();
        final Map<Integer, Consumer<Integer>> replies = new HashMap<>();
        final long createdPs;
        boolean nextRootInfo;
        boolean rangeSent;
        long closedPs = -1;
        /** The ids as the host rank read them (for the root-to-root connect); set when the host enters init. */
        List<String> hostIds;
        Consumer<String> onHostError;

        Root(String address, String id, int hostRank, String group, int initSeq, int rootIndex, int nRoots,
             List<Integer> expected) {
            this.address = address;
            this.id = id;
            this.hostRank = hostRank;
            this.group = group;
            this.initSeq = initSeq;
            this.rootIndex = rootIndex;
            this.nRoots = nRoots;
            this.expected = List.copyOf(expected);
            this.createdPs = host.now();
            this.nextRootInfo = nRoots == 1;
        }

        boolean open() { return closedPs < 0; }

        /** The global rank whose process runs the root. */
        public int hostRank() { return hostRank; }

        /** The group's communicator counter of the init that created it. */
        public int initSeq() { return initSeq; }

        /** The process group (its unique name) of that init. */
        public String group() { return group; }
    }

    /**
     * ncclGetUniqueId on {@code hostRank}: opens a root listener for {@code expected} (global ranks
     * of the root's block) and returns the unique id, which carries the listener's address.
     */
    public String createRoot(int hostRank, int hostGpuHost, int hostGpuLocal, String group, int initSeq, int rootIndex,
                      int nRoots, List<Integer> expected) {
        int port = nextPort++;
        String address = String.format(Locale.ROOT, "10.0.%d.%d:%d", hostGpuHost, 10 + hostGpuLocal, port);
        String id = address + "#" + Long.toHexString(host.randomId());
        roots.put(address, new Root(address, id, hostRank, group, initSeq, rootIndex, nRoots, expected));
        return id;
    }

    public static String addressOf(String uniqueId) {
        int i = uniqueId.indexOf('#');
        return i < 0 ? uniqueId : uniqueId.substring(0, i);
    }

    public Root rootAt(String address) { return roots.get(address); }

    /**
     * Connects {@code fromRank} to {@code address}: accepted if a listener is open there when the
     * SYN arrives, else retried as NCCL does. {@code onRefusedOnce} sees each refusal (for logs).
     */
    public void connect(int fromRank, String address, Runnable onConnected, Consumer<String> onFailed) {
        attemptConnect(fromRank, address, 0, onConnected, onFailed);
    }

    private void attemptConnect(int fromRank, String address, int retries, Runnable ok, Consumer<String> fail) {
        long lat = settings.bootstrapLatencyPs();
        host.after(lat, () -> {
            Root r = roots.get(address);
            boolean accepted = r != null && r.open();
            host.after(lat, () -> {
                if (accepted) {
                    ok.run();
                    return;
                }
                if (retries >= settings.retryCount()) {
                    fail.accept("socketPollConnect: connect to " + address
                            + " returned Connection refused, exceeded error retry count (" + (retries + 1) + ")");
                    return;
                }
                int k = retries + 1;
                log.refused(fromRank, "socketPollConnect: connect to " + address
                        + " returned Connection refused, retrying (" + k + "/" + settings.retryCount()
                        + ") after sleep for " + (k * 100) + " msec");
                host.after(k * RETRY_SLEEP_STEP_PS, () -> attemptConnect(fromRank, address, k, ok, fail));
            });
        });
    }

    /**
     * Rank {@code rank} (already connected) sends its info to {@code root}; {@code onReply} gets the
     * global rank of its ring successor when the root answers.
     */
    public void checkIn(Root root, int rank, Consumer<Integer> onReply) {
        host.after(settings.bootstrapLatencyPs(), () -> {
            if (!root.open()) return;
            if (!root.arrived.contains(rank)) root.arrived.add(rank);
            root.replies.put(rank, onReply);
            progress(root);
        });
    }

    /** The host rank entered init with these ids: its root can now reach the previous root. */
    public void hostReady(Root root, List<String> ids, Consumer<String> onError) {
        root.hostIds = List.copyOf(ids);
        root.onHostError = onError;
        progress(root);
    }

    private void progress(Root root) {
        if (!root.open()) return;
        boolean rangeComplete = root.arrived.size() == root.expected.size();
        if (rangeComplete && root.nRoots > 1 && !root.rangeSent && root.hostIds != null) {
            root.rangeSent = true;
            int prev = Math.floorMod(root.rootIndex - 1, root.nRoots);
            String prevAddr = addressOf(root.hostIds.get(prev));
            connect(root.hostRank, prevAddr, () -> host.after(settings.bootstrapLatencyPs(), () -> {
                Root p = roots.get(prevAddr);
                if (p != null && p.open()) {
                    p.nextRootInfo = true;
                    progress(p);
                }
            }), msg -> {
                if (root.onHostError != null) root.onHostError.accept(msg);
            });
        }
        if (rangeComplete && root.nextRootInfo) {
            root.closedPs = host.now();
            for (int i = 0; i < root.expected.size(); i++) {
                int rank = root.expected.get(i);
                Consumer<Integer> reply = root.replies.get(rank);
                int successor = i + 1 < root.expected.size() ? root.expected.get(i + 1) : -1; // -1: the next block's first
                host.after(settings.bootstrapLatencyPs(), () -> reply.accept(successor));
            }
        }
    }

    /** The ring of one communicator init: completes when every rank joined it. */
    final class Session {
        final String group;
        final int initSeq;
        final int size;
        final List<Integer> joined = new ArrayList<>();
        final Map<Integer, Runnable> onComplete = new HashMap<>();

        Session(String group, int initSeq, int size) {
            this.group = group;
            this.initSeq = initSeq;
            this.size = size;
        }
    }

    /**
     * Rank {@code rank} connected to its successor and joins the ring all-gather of its init;
     * {@code done} runs when the all-gather completes: n-1 steps of one bootstrap message each.
     */
    public void joinRing(String group, int initSeq, int size, int rank, Runnable done) {
        String key = group + "#" + initSeq;
        Session s = sessions.computeIfAbsent(key, k -> new Session(group, initSeq, size));
        s.joined.add(rank);
        s.onComplete.put(rank, done);
        if (s.joined.size() == s.size) {
            long t = (s.size - 1L) * settings.bootstrapLatencyPs();
            for (int r : s.joined) host.after(t, s.onComplete.get(r));
        }
    }

    /** Every root of the attempt and who reached it, in creation order, for the analyzer. */
    public List<RootRecord> roots() {
        List<Root> all = new ArrayList<>(roots.values());
        all.sort((a, b) -> a.createdPs != b.createdPs ? Long.compare(a.createdPs, b.createdPs) : a.address.compareTo(b.address));
        List<RootRecord> out = new ArrayList<>();
        for (Root r : all) {
            out.add(new RootRecord(attempt, r.address, r.id, r.hostRank, r.group, r.initSeq, r.rootIndex,
                    r.expected, List.copyOf(r.arrived), r.createdPs, r.closedPs));
        }
        return out;
    }
}
