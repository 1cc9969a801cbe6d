package io.ccsim.scenarios.job;

import io.ccsim.scenarios.comm.GroupRegistry;
import io.ccsim.scenarios.comm.ProcessGroupState;
import io.ccsim.scenarios.diagnosis.RankPhase;
import io.ccsim.scenarios.diagnosis.SymmMemRecord;
import io.ccsim.scenarios.format.Step;
import io.ccsim.scenarios.format.SymmBackend;
import io.ccsim.scenarios.format.Units;
import io.ccsim.scenarios.store.PrefixStore;
import io.ccsim.scenarios.store.Store;
import io.ccsim.scenarios.store.StoreTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One rank's {@code symm_mem.rendezvous(tensor, group_name)}: resolve the group by name, publish this
 * rank's handle through the store, wait for every peer's, check them, barrier; the NCCL backend first
 * gets the group's communicator and ends with its window registration.
 */
final class SymmRendezvous {
    /*
     * PyTorch (torch/csrc/distributed/c10d/symm_mem/): the rendezvous is a collective over the group.
     * - Group: the NCCL backend resolves the process group by name (resolve_process_group, in
     *   NCCLPeerAllocInfo) and takes its NCCL communicator; the CUDA and NVSHMEM backends get
     *   {rank, world size, store} through enable_symm_mem_for_group, which resolves it too. An
     *   unregistered name fails with c10d's "Could not resolve the process group registered under the
     *   name ...". nvFuser's native path uses its own communicator's store and resolves nothing.
     * - Handles: StoreExchange all_gather through a PrefixStore "symmetric_memory-<name>" of the store
     *   (each rank sets key <seq>/handle/<rank> and waits for all of them); the sizes must agree
     *   (CUDASymmetricMemory.cu rendezvous checks buffer sizes); every pair of GPUs must map each other
     *   (CUDA P2P: one NVLink domain); then a store barrier (<seq>/barrier/<rank>).
     * - NCCL: ncclCommWindowRegister(comm, ptr, size, NCCL_WIN_COLL_SYMMETRIC) of the buffer and of an
     *   ncclMemAlloc'd signal pad; it is collective with a bootstrap barrier, modelled as a second store
     *   barrier (<seq>/window/<rank>).
     * - A wrapper registered on a rank outside the group (rank = group size, null backend): the NCCL
     *   backend dereferences the null backend's communicator (a segmentation fault); CUDA and NVSHMEM get
     *   through the handle exchange with the out-of-range rank and then wait forever in the descriptor
     *   exchange (IpcChannel::all_gather_fds is a ring: the peer before it, group rank size-1, sends to
     *   group rank 0, never to it).
     */
    private final SymmMemory sm;
    private final RankProcess p;
    private final Step.SymmRendezvous rv;
    private SymmMemory.Tensor tensor;

    SymmRendezvous(SymmMemory sm, RankProcess p, Step.SymmRendezvous rv) {
        this.sm = sm;
        this.p = p;
        this.rv = rv;
    }

    /** @return true if done at once (a non-member's no-op), false if a callback continues the program */
    boolean run() {
        ProcessGroupState pg = p.groups.get(rv.group());
        if (pg == null && !p.job.isKnownGroup(rv.group())) {
            p.processError("ValueError: process group '" + rv.group() + "' was never created; known groups: " + p.job.groupNames());
            return false;
        }
        tensor = sm.tensor(rv.tensor());
        if (tensor == null) {
            if (pg == null) return true;
            p.processError("RuntimeError: rendezvous: input must be allocated with empty_strided_p2p() (no symmetric tensor '"
                    + rv.tensor() + "' on this rank)");
            return false;
        }
        if (tensor.backend() == SymmBackend.NATIVE) {
            if (pg == null) return true;
            exchange("nvfuser-" + pg.uid(), pg.members(), pg.groupRank(), () -> done(pg.members(), pg.groupRank(), pg.uid()));
            return false;
        }
        GroupRegistry.Registration reg = sm.registry.resolve(rv.groupName());
        if (reg == null) {
            if (pg == null) return true; // a non-member with nothing registered skips, as PyTorch's non-members do
            resolution(null, "unresolved");
            p.processError("DistBackendError: c10::Error: Could not resolve the process group registered under the name "
                    + rv.groupName());
            return false;
        }
        if (reg.nullBackend() || !reg.rankInRange()) {
            invalid(reg);
            return false;
        }
        resolution(reg, "ok");
        String key = reg.group() + ":" + rv.groupName();
        Runnable finish = () -> done(reg.members(), reg.groupRank(), key);
        if (tensor.backend() == SymmBackend.NCCL) {
            p.setPhase(RankPhase.SYMM_RENDEZVOUS, "symm_mem rendezvous of '" + rv.tensor() + "': getting the NCCL communicator of "
                    + reg.group());
            p.ensureComm(p.groups.get(reg.group()), "", c -> exchange(rv.groupName(), reg.members(), reg.groupRank(),
                    () -> window(reg, finish)));
        } else {
            exchange(rv.groupName(), reg.members(), reg.groupRank(), finish);
        }
        return false;
    }

    private void resolution(GroupRegistry.Registration reg, String outcome) {
        sm.record(new SymmMemRecord.Resolution(p.rank, p.host.now(), rv.groupName(), rv.group(), reg, sm.registry.all(),
                tensor.backend(), outcome));
    }

    /** The resolved wrapper was built on a non-member: crash (NCCL) or hang after the handle exchange. */
    private void invalid(GroupRegistry.Registration reg) {
        String what = "ProcessGroup '" + reg.name() + "' resolved with rank " + reg.groupRank() + " of size " + reg.size()
                + (reg.nullBackend() ? " and a null NCCL backend" : "");
        if (tensor.backend() == SymmBackend.NCCL) {
            resolution(reg, "crashed");
            p.crash("Segmentation fault (SIGSEGV) in symm_mem rendezvous (NCCL backend): " + what
                    + "; the NCCL communicator of its backend was dereferenced");
            return;
        }
        resolution(reg, "hung");
        exchange(rv.groupName(), reg.members(), reg.groupRank(), () -> p.setPhase(RankPhase.SYMM_RENDEZVOUS,
                "symm_mem rendezvous (" + tensor.backend().label() + ") waits forever in IpcChannel::all_gather_fds: " + what
                        + "; its ring predecessor, group rank " + (reg.size() - 1) + ", sends to group rank 0"));
    }

    private void done(List<Integer> members, int groupRank, String key) {
        sm.handleReady(rv.tensor(), rv.group(), new SymmMemory.Handle(members, groupRank, key));
    }

    /** Publishes this rank's handle, waits for every member's, checks them, then a store barrier; then {@code then}. */
    private void exchange(String name, List<Integer> members, int groupRank, Runnable then) {
        Store ns = new PrefixStore("symmetric_memory-" + name, p.job.rendezvousStore());
        String seq = sm.nextRendezvous(name) + "/";
        p.setPhase(RankPhase.SYMM_RENDEZVOUS, "symm_mem rendezvous of '" + rv.tensor() + "' on '" + name
                + "': exchanging handles through the store");
        ns.set(p.rank, seq + "handle/" + groupRank, p.rank + "|" + tensor.bytes(), p.guard(() ->
                ns.multiGet(p.rank, keys(seq + "handle/", members.size()), p.job.settings.storeTimeoutPs(), callback(values -> {
                    if (!check(values)) return;
                    barrier(ns, seq + "barrier/", members.size(), groupRank, then);
                }))));
    }

    /** Every peer's buffer has this rank's size and lies on a GPU this one maps. */
    private boolean check(List<String> values) {
        int myGpu = p.job.gpuOf(p.rank);
        for (String v : values) {
            int peer = Integer.parseInt(v.substring(0, v.indexOf('|')));
            long bytes = Long.parseLong(v.substring(v.indexOf('|') + 1));
            if (bytes != tensor.bytes()) {
                p.processError("RuntimeError: rendezvous: symmetric tensors differ in size across the group: rank " + p.rank + " has "
                        + Units.formatBytes(tensor.bytes()) + ", rank " + peer + " has " + Units.formatBytes(bytes));
                return false;
            }
            if (!p.job.engine.p2pReachable(myGpu, p.job.gpuOf(peer))) {
                p.processError("RuntimeError: rendezvous: GPU " + p.job.cluster.gpuId(myGpu) + " cannot map the buffer of rank " + peer
                        + " on " + p.job.cluster.gpuId(p.job.gpuOf(peer)) + " (no CUDA P2P: not one NVLink domain)");
                return false;
            }
        }
        return true;
    }

    /** The NCCL backend's window registration: a signal pad, then the collective ncclCommWindowRegister. */
    private void window(GroupRegistry.Registration reg, Runnable then) {
        long pad = SymmMemory.roundUp(SymmMemory.SIGNAL_PAD, SymmMemory.GRANULARITY);
        if (!p.memory.allocSymmetric(pad)) {
            p.processError("torch.OutOfMemoryError: CUDA out of memory. ncclMemAlloc of the " + Units.formatBytes(pad)
                    + " signal pad failed during the rendezvous on " + rv.groupName());
            return;
        }
        p.setPhase(RankPhase.SYMM_RENDEZVOUS, "ncclCommWindowRegister of '" + rv.tensor() + "' on the communicator of " + reg.group());
        Store ns = new PrefixStore("symmetric_memory-" + rv.groupName(), p.job.rendezvousStore());
        barrier(ns, sm.nextRendezvous(rv.groupName()) + "/window/", reg.size(), reg.groupRank(), then);
    }

    private void barrier(Store ns, String prefix, int n, int groupRank, Runnable then) {
        ns.set(p.rank, prefix + groupRank, "1", p.guard(() -> ns.await(p.rank, keys(prefix, n), p.job.settings.storeTimeoutPs(),
                callback(ok -> then.run()))));
    }

    private static List<String> keys(String prefix, int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(prefix + i);
        return out;
    }

    private <T> Store.Callback<T> callback(Consumer<T> onValue) {
        return new Store.Callback<>() {
            @Override public void onValue(T value) {
                if (p.alive()) onValue.accept(value);
            }

            @Override public void onTimeout(StoreTimeoutException e) {
                if (p.alive()) p.processError("DistStoreError: symm_mem rendezvous on '" + rv.groupName() + "': " + e.getMessage());
            }
        };
    }
}
