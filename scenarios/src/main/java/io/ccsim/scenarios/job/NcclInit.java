package io.ccsim.scenarios.job;

import io.ccsim.scenarios.bootstrap.Bootstrap;
import io.ccsim.scenarios.bootstrap.UniqueIdExchange;
import io.ccsim.scenarios.cluster.RingData;
import io.ccsim.scenarios.comm.Communicator;
import io.ccsim.scenarios.comm.ProcessGroupState;
import io.ccsim.scenarios.diagnosis.InitRecord;
import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.format.Units;
import java.util.List;

/**
 * One rank creating one communicator of a process group, as ProcessGroupNCCL::initNCCLComm and
 * NCCL's ncclCommInitRank / ncclCommInitRankScalable do it:
 *
 * <ol>
 * <li>the unique-id exchange through the group's store ({@link UniqueIdExchange});
 * <li>NCCL's allocation of its buffers ({@link Communicator#bufferBytes}, cudaMalloc from memory
 *     nobody holds); a rank that cannot allocate them stalls silently;
 * <li>the bootstrap ({@link Bootstrap}), blocking with no timeout;
 * <li>transport setup with the ring neighbours (one round trip) — then the communicator is ready;
 * </ol>
 * or, for a group split from another, NCCL's ncclCommSplit: the buffers, then one all-gather over the
 * parent communicator. No phase is covered by the collective watchdog: no WorkNCCL exists yet. Every
 * init leaves an {@link InitRecord}.
 */
final class NcclInit {
    /*
     * The silent stall on a failed buffer allocation is the Megatron report's (NVIDIA-NeMo PR #9486:
     * "NCCL_TIMEOUT does NOT cover the bootstrap phase").
     */
    private final RankProcess p;
    private final ProcessGroupState pg;
    private final String commKey;
    private final ProcessGroupState.CommState state;
    private final int initSeq;
    private final long startPs;
    private boolean scalable;
    private int myRoot;
    private List<String> keys = List.of();
    private List<String> ids = List.of();
    private boolean recorded;

    NcclInit(RankProcess p, ProcessGroupState pg, String commKey, ProcessGroupState.CommState state) {
        this.p = p;
        this.pg = pg;
        this.commKey = commKey;
        this.state = state;
        this.initSeq = pg.nextInitSeq();
        this.startPs = p.host.now();
    }

    void run() {
        p.job.activeInits.add(this);
        p.log("INIT_START", "initNCCLComm: creating communicator #" + initSeq + " of group " + pg.name()
                + (commKey.isEmpty() ? "" : " for device key " + commKey));
        if (pg.splitFrom() != null) {
            split();
            return;
        }
        UniqueIdExchange exchange = new UniqueIdExchange(pg.store(), p.rank, pg.groupRank(), pg.members(), initSeq,
                p.job.settings);
        scalable = exchange.scalable();
        myRoot = exchange.myRoot();
        p.setPhase(RankPhase.STORE_WAIT, "exchanging ncclUniqueId through the store (group " + pg.name() + ")");
        keys = exchange.fullKeys();
        exchange.run((rootIdx, nRoots, block) -> p.job.createRoot(p.rank, pg.uid(), initSeq, rootIdx, nRoots, block),
                p::guard, this::afterIds, this::fail);
    }

    private long commId() {
        long h = 0x9E3779B97F4A7C15L;
        for (String id : ids) h = RingData.mix(h ^ id.hashCode());
        return h;
    }

    private void afterIds(List<String> got) {
        ids = List.copyOf(got);
        Settings s = p.job.settings;
        p.log("INIT_IDS", "NCCL INFO ncclCommInitRank" + (scalable ? "Scalable" : "") + " comm rank " + pg.groupRank()
                + " nranks " + pg.size() + " cudaDev " + p.gpuLocal() + " commId 0x" + Long.toHexString(commId())
                + " - Init START");
        long bytes = Communicator.bufferBytes(s.channels());
        if (!p.memory.cudaMallocNccl(bytes)) {
            String msg = "cudaMalloc of " + Units.formatBytes(bytes) + " for NCCL buffers failed during creation of communicator #"
                    + initSeq + " of group " + pg.name() + ": " + Units.formatBytes(p.memory.freeForCudaMalloc())
                    + " free of " + Units.formatBytes(p.memory.capacity()) + " (" + Units.formatBytes(p.memory.used())
                    + " in tensors, " + Units.formatBytes(p.memory.cached()) + " cached by PyTorch's allocator); "
                    + "the init thread stalls silently (no NCCL error, not covered by the watchdog)";
            p.setPhase(RankPhase.INIT_ALLOC_STALL, msg);
            p.log("INIT_ALLOC_STALL", msg);
            record(-1, "stalled: " + msg);
            return;
        }
        state.setBufferBytes(bytes);
        // the host of a root hands its ids to its root thread (for the root-to-root exchange)
        for (int i = 0; i < ids.size(); i++) {
            Bootstrap.Root r = p.job.bootstrap.rootAt(Bootstrap.addressOf(ids.get(i)));
            if (r != null && r.hostRank() == p.rank && r.initSeq() == initSeq && r.group().equals(pg.uid())) {
                p.job.bootstrap.hostReady(r, ids, err -> p.guard(() -> fail("NCCL WARN " + err)).run());
            }
        }
        String rootAddr = Bootstrap.addressOf(ids.get(myRoot));
        p.setPhase(RankPhase.BOOTSTRAP_CONNECT, "connecting to bootstrap root " + rootAddr);
        p.job.bootstrap.connect(p.rank, rootAddr, p.guard(() -> {
            p.setPhase(RankPhase.BOOTSTRAP_ROOT_WAIT, "waiting (no timeout) for bootstrap root " + rootAddr
                    + " to collect all ranks of communicator #" + initSeq + " of group " + pg.name());
            Bootstrap.Root root = p.job.bootstrap.rootAt(rootAddr);
            p.job.bootstrap.checkIn(root, p.rank, succ -> p.guard(this::ring).run());
        }), err -> p.guard(() -> fail("NCCL WARN " + err)).run());
    }

    private void ring() {
        p.setPhase(RankPhase.BOOTSTRAP_RING, "bootstrap ring all-gather (no timeout) of communicator #" + initSeq
                + " of group " + pg.name());
        long rtt = 2 * p.job.settings.bootstrapLatencyPs();
        p.host.after(rtt, p.guard(() -> p.job.bootstrap.joinRing(pg.uid(), initSeq, pg.size(), p.rank,
                p.guard(() -> p.host.after(rtt, p.guard(this::ready))))));
    }

    private void split() {
        ProcessGroupState parent = p.groups.get(pg.splitFrom());
        if (parent == null) {
            fail("ncclCommSplit for group " + pg.name() + ": rank " + p.rank + " is not in parent group " + pg.splitFrom());
            return;
        }
        p.ensureComm(parent, "", parentComm -> {
            scalable = false;
            long bytes = Communicator.bufferBytes(p.job.settings.channels());
            if (!p.memory.cudaMallocNccl(bytes)) {
                String msg = "cudaMalloc of " + Units.formatBytes(bytes) + " for NCCL buffers failed in ncclCommSplit of group "
                        + pg.name() + ": " + Units.formatBytes(p.memory.freeForCudaMalloc()) + " free; the init stalls silently";
                p.setPhase(RankPhase.INIT_ALLOC_STALL, msg);
                p.log("INIT_ALLOC_STALL", msg);
                record(-1, "stalled: " + msg);
                return;
            }
            state.setBufferBytes(bytes);
            p.setPhase(RankPhase.BOOTSTRAP_RING, "ncclCommSplit of " + pg.splitFrom() + " into " + pg.name()
                    + " (an all-gather on the parent communicator, no timeout)");
            // ncclCommSplit is collective over the whole parent: every part's ranks take part in one exchange
            p.job.bootstrap.joinRing("split:" + pg.name() + "<" + parentComm.group() + "#" + parentComm.initSeq(), initSeq,
                    parentComm.size(), p.rank,
                    p.guard(this::ready));
        });
    }

    private void ready() {
        Communicator c = p.job.communicatorFor(pg, initSeq);
        record(p.host.now(), "ok");
        p.log("INIT_DONE", "NCCL INFO ncclCommInitRank comm rank " + pg.groupRank() + " nranks " + pg.size()
                + " commId 0x" + Long.toHexString(commId()) + " - Init COMPLETE (group " + pg.name() + ", "
                + Units.formatDuration(p.host.now() - startPs) + ")");
        p.commReady(pg, state, c);
    }

    private void fail(String msg) {
        record(p.host.now(), "error: " + msg);
        state.fail();
        p.processError("DistBackendError: NCCL error in ProcessGroupNCCL::initNCCLComm (group " + pg.name()
                + ", communicator #" + initSeq + "): " + msg);
    }

    private void record(long endPs, String result) {
        if (recorded) return;
        recorded = true;
        p.job.activeInits.remove(this);
        p.job.trace.inits.add(new InitRecord(p.job.attempt, p.rank, pg.uid(), commKey, initSeq, scalable, keys, ids,
                commId(), startPs, endPs, result));
    }

    /** At the end of a run: an init that never finished. */
    void flushPending() { record(-1, "pending"); }
}
