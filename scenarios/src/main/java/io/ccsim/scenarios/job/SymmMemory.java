package io.ccsim.scenarios.job;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.scenarios.cluster.CollectiveEngine;
import io.ccsim.scenarios.comm.GroupRegistry;
import io.ccsim.scenarios.comm.ProcessGroupState;
import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.diagnosis.SymmMemRecord;
import io.ccsim.scenarios.format.JobEnv;
import io.ccsim.scenarios.format.Step;
import io.ccsim.scenarios.format.SymmBackend;
import io.ccsim.scenarios.format.Units;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One rank's symmetric memory and c10d group registry: the backend (fixed by the first allocation),
 * its symmetric tensors and their rendezvous handles, {@code register_process_group}, and the
 * symmetric-memory all-reduces ({@link SymmRendezvous} does the rendezvous itself).
 */
final class SymmMemory {
    /*
     * Backend choice: TORCH_SYMMMEM (default CUDA) or symm_mem.set_backend(name); set_backend raises
     * "Backend can not be changed after use" once the allocator was used, i.e. after the first allocation
     * (torch/csrc/distributed/c10d/symm_mem/SymmetricMemory.cpp, AllocatorMap). A job on nvFuser chooses
     * with NVFUSER_ENABLE ({@link NvfuserSymmOption}) and calls set_backend once before its first
     * allocation.
     *
     * Memory charged per allocation (outside PyTorch's caching allocator, so a failure is a CUDA OOM):
     * CUDA and NVSHMEM: one block of roundup(roundup(size, 16) + signal pad, granularity)
     * (CUDASymmetricMemory.cu alloc: the signal pad sits after the buffer); NCCL and nvFuser's native
     * path: roundup(size, granularity) (ncclMemAlloc and cuMem VMM), NCCL's signal pad is a second
     * window-registered ncclMemAlloc at rendezvous. Signal pad: 32 blocks x 72 ranks x 4 B = 9216 B
     * (CUDASymmetricMemoryTypes.hpp, default_signal_pad_size). Granularity: 2 MiB, the usual cuMem
     * granularity of a GPU's device memory (an assumption of this model; cuMemGetAllocationGranularity
     * tells the real one).
     */
    static final long GRANULARITY = 2L << 20;
    static final long SIGNAL_PAD = 32L * 72 * 4;

    private final RankProcess p;
    final GroupRegistry registry = new GroupRegistry();
    private SymmBackend backend;
    private String chosenBy;
    private boolean used;
    private final Map<String, Tensor> tensors = new HashMap<>();
    private final Map<String, Handle> handles = new HashMap<>();
    private final Map<String, Integer> opIndex = new HashMap<>();
    private final Map<String, Integer> rendezvousSeq = new HashMap<>();
    private PendingOp pending;

    /** A symmetric tensor of this rank: its size and the backend that allocated it. */
    record Tensor(long bytes, SymmBackend backend) {}

    /** A rendezvoused tensor on a group: the members, this rank's index, and the key ops are matched by. */
    record Handle(List<Integer> members, int groupRank, String key) {}

    private record PendingOp(long startPs, Step.SymmAllReduce step, Tensor tensor) {}

    SymmMemory(RankProcess p) {
        this.p = p;
        JobEnv env = p.job.spec.env();
        this.backend = env.torchSymmMem();
        this.chosenBy = "TORCH_SYMMMEM=" + backend.label();
    }

    Tensor tensor(String name) { return tensors.get(name); }

    /** The next rendezvous number in namespace {@code ns} on this rank, from 0. */
    int nextRendezvous(String ns) { return rendezvousSeq.merge(ns, 1, Integer::sum) - 1; }

    void record(SymmMemRecord r) { p.job.trace.symmMem.add(r); }

    /** A group torch.distributed created (world, new_group): registered under its name on this member. */
    void registerMember(ProcessGroupState pg) {
        if (registry.resolve(pg.name()) != null) return;
        registry.register(new GroupRegistry.Registration(pg.name(), pg.name(), pg.members(), pg.groupRank(), false, p.host.now()));
    }

    boolean setBackend(Step.SymmSetBackend s) {
        if (used) {
            p.processError("RuntimeError: Backend can not be changed after use: symm_mem.set_backend('" + s.backend().label()
                    + "') after this rank's first symmetric allocation, which used " + backend.label());
            return false;
        }
        backend = s.backend();
        chosenBy = "symm_mem.set_backend('" + backend.label() + "')";
        p.log("SYMM_BACKEND", "symm_mem.set_backend('" + backend.label() + "')");
        return true;
    }

    boolean alloc(Step.SymmAlloc a) {
        if (!used) chooseAtFirstAllocation();
        long charge = charge(backend, a.bytes());
        if (!p.memory.allocSymmetric(charge)) {
            p.processError("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate " + Units.formatBytes(charge)
                    + " of symmetric memory (" + backend.label() + "). GPU " + p.gpuLocal() + " has a total capacity of "
                    + Units.formatBytes(p.memory.capacity()) + " of which " + Units.formatBytes(p.memory.capacity() - p.memory.held())
                    + " is free.");
            return false;
        }
        tensors.put(a.tensor(), new Tensor(a.bytes(), backend));
        handles.keySet().removeIf(k -> k.startsWith(a.tensor() + "\u0000"));
        p.log("SYMM_ALLOC", "symmetric tensor '" + a.tensor() + "' of " + Units.formatBytes(a.bytes()) + " allocated by the "
                + backend.label() + " backend (" + Units.formatBytes(charge) + " of GPU memory)");
        return true;
    }

    /** The first allocation fixes the backend; a job on nvFuser chooses it from NVFUSER_ENABLE. */
    private void chooseAtFirstAllocation() {
        used = true;
        JobEnv env = p.job.spec.env();
        String arg = env.nvfuserSymmArg();
        boolean fellBack = false;
        List<String> valid = SymmBackend.TORCH_NAMES;
        if (arg != null) {
            backend = NvfuserSymmOption.choose(arg);
            fellBack = backend == SymmBackend.NATIVE;
            chosenBy = "NVFUSER_ENABLE=" + env.nvfuserEnable();
            valid = NvfuserSymmOption.VALID;
        }
        record(new SymmMemRecord.BackendChoice(p.rank, p.host.now(), backend, chosenBy, arg, valid, fellBack));
        p.log("SYMM_BACKEND", "symmetric memory backend " + backend.label() + " (" + chosenBy + ")");
    }

    /** GPU memory an allocation of {@code bytes} takes with {@code b}, bytes. */
    static long charge(SymmBackend b, long bytes) {
        if (b == SymmBackend.CUDA || b == SymmBackend.NVSHMEM) return roundUp(roundUp(bytes, 16) + SIGNAL_PAD, GRANULARITY);
        return roundUp(bytes, GRANULARITY);
    }

    static long roundUp(long v, long unit) { return (v + unit - 1) / unit * unit; }

    /** {@code register_process_group} of a wrapper of {@code g.group()} built on this rank. */
    boolean register(Step.RegisterGroup g) {
        ProcessGroupState pg = p.groups.get(g.group());
        if (pg == null && !p.job.isKnownGroup(g.group())) {
            p.processError("ValueError: process group '" + g.group() + "' was never created; known groups: " + p.job.groupNames());
            return false;
        }
        if (pg == null && g.membersOnly()) return true;
        List<Integer> members = pg != null ? pg.members() : p.job.membersOf(g.group());
        int rank = pg != null ? pg.groupRank() : members.size();
        try {
            registry.register(new GroupRegistry.Registration(g.name(), g.group(), members, rank, pg == null, p.host.now()));
        } catch (IllegalStateException e) {
            p.processError("RuntimeError: " + e.getMessage());
            return false;
        }
        p.log("REGISTER_PG", "register_process_group('" + g.name() + "') for group " + g.group() + " " + members + " with rank "
                + rank + " of " + members.size() + (pg == null ? " and a null NCCL backend (this rank is not a member)" : ""));
        return true;
    }

    boolean rendezvous(Step.SymmRendezvous rv) { return new SymmRendezvous(this, p, rv).run(); }

    /** The rendezvous of {@code tensor} on {@code group} completed. */
    void handleReady(String tensor, String group, Handle h) {
        handles.put(tensor + "\u0000" + group, h);
        p.log("SYMM_RENDEZVOUS", "rendezvous of '" + tensor + "' on group " + group + " done (rank " + h.groupRank() + " of "
                + h.members().size() + ")");
        p.next();
    }

    boolean allReduce(Step.SymmAllReduce ar) {
        ProcessGroupState pg = p.groups.get(ar.group());
        Tensor t = tensors.get(ar.tensor());
        if (pg == null) return p.collective(ar.group(), CollectiveOp.ALL_REDUCE, 1, ar.dtype(), "", false, "ALLREDUCE");
        if (t == null) {
            p.processError("RuntimeError: " + ar.algo().id() + "_all_reduce: input must be allocated with empty_strided_p2p()"
                    + " (no symmetric tensor '" + ar.tensor() + "' on this rank)");
            return false;
        }
        if (t.backend() == SymmBackend.NATIVE) return nativeAllReduce(ar, t);
        Handle h = handles.get(ar.tensor() + "\u0000" + ar.group());
        if (h == null) {
            p.processError("RuntimeError: " + ar.algo().id() + "_all_reduce: tensor '" + ar.tensor() + "' has no rendezvous on group "
                    + ar.group() + " (symm_mem.rendezvous must come first)");
            return false;
        }
        int k = opIndex.merge(h.key(), 1, Integer::sum) - 1;
        pending = new PendingOp(p.host.now(), ar, t);
        p.setPhase(RankPhase.COLLECTIVE, "symm_mem " + ar.algo().id() + " all-reduce #" + (k + 1) + " of '" + ar.tensor()
                + "' on group " + ar.group() + " (" + t.backend().label() + ")");
        OpMatch m = p.job.symmOps.computeIfAbsent(h.key() + "#" + k, x -> new OpMatch());
        int[] gpus = new int[h.members().size()];
        for (int i = 0; i < gpus.length; i++) gpus[i] = p.job.gpuOf(h.members().get(i));
        List<Integer> members = h.members();
        boolean ok = m.join(ar.algo(), t.bytes(), () -> p.job.engine.startSymmetric(ar.algo(), t.bytes(), gpus, end -> {
            for (int r : members) p.job.ranks[r].symm.opDone(end);
        }));
        if (ok && !p.gpuHung) m.execution.launch(h.groupRank());
        return false;
    }

    /** The native path has no symm_mem kernel: the all-reduce goes to the group's ProcessGroupNCCL. */
    private boolean nativeAllReduce(Step.SymmAllReduce ar, Tensor t) {
        long start = p.host.now();
        p.onCollectiveDone = end -> record(new SymmMemRecord.Op(p.rank, start, end, ar.group(), ar.tensor(), ar.algo().id(),
                SymmBackend.NATIVE, t.bytes()));
        long count = Math.max(1, t.bytes() / ar.dtype().bytes());
        return p.collective(ar.group(), CollectiveOp.ALL_REDUCE, count, ar.dtype(), "", false, "ALLREDUCE");
    }

    /** The symmetric all-reduce this rank waits for completed at {@code endPs}. */
    void opDone(long endPs) {
        PendingOp op = pending;
        if (!p.alive() || op == null) return;
        pending = null;
        record(new SymmMemRecord.Op(p.rank, op.startPs(), endPs, op.step().group(), op.step().tensor(), op.step().algo().id(),
                op.tensor().backend(), op.tensor().bytes()));
        p.collectivePs += endPs - op.startPs();
        p.next();
    }

    /**
     * The k-th symmetric all-reduce of every member of a group: the first call starts the execution; a
     * call with another algorithm or size never launches (its peers wait for it forever).
     */
    static final class OpMatch {
        private Step.SymmAlgo algo;
        private long bytes;
        private boolean mismatched;
        CollectiveEngine.Execution execution;

        boolean join(Step.SymmAlgo a, long b, Supplier<CollectiveEngine.Execution> start) {
            if (algo == null) {
                algo = a;
                bytes = b;
                execution = start.get();
            } else if (algo != a || bytes != b) {
                mismatched = true;
            }
            return !mismatched;
        }
    }
}
