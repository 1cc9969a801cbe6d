package io.ccsim.scenarios.bootstrap;

import io.ccsim.scenarios.format.Settings;
import io.ccsim.scenarios.store.PrefixStore;
import io.ccsim.scenarios.store.Store;
import io.ccsim.scenarios.store.StoreTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * How one rank of a process group obtains the ncclUniqueIds of a new communicator through the group's
 * store, as ProcessGroupNCCL does before calling NCCL. With at most TORCH_NCCL_RANKS_PER_ROOT ranks,
 * group rank 0 creates the one root and sets its id under the key {@code "<init counter>"} while the
 * others get it; above, every ranks-per-root-th rank creates a root for its block and sets its id
 * under {@code "UniqueNCCLID:<root>"} (or {@code "<init counter>:UniqueNCCLID:<root>"} with scoped
 * keys), and every rank multiGets all roots' keys. Unscoped keys outlive their init round: a rank that
 * reads before a late root rewrites its key gets the previous round's id.
 */
public final class UniqueIdExchange {
    /*
     * torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp: broadcastUniqueNCCLID (key
     * std::to_string(ncclCommCounter_++)) and allgatherUniqueNCCLIDs (keys "UniqueNCCLID:" + rootIdx,
     * not scoped per init round until pytorch PR #178493 prefixed them with the communicator counter).
     */

    /** ncclGetUniqueId on this rank for a root of the group: opens the root and returns its unique id. */
    @FunctionalInterface
    public interface RootFactory {
        /**
         * @param rootIndex index of the root among the group's roots
         * @param nRoots    the group's roots
         * @param block     global ranks of the root's block, in group order
         */
        String create(int rootIndex, int nRoots, List<Integer> block);
    }

    private final Store store;
    private final int rank;
    private final int groupRank;
    private final List<Integer> members;
    private final Settings settings;
    private final boolean scalable;
    /** Keys as the group's store names them, one per root. */
    private final List<String> keys = new ArrayList<>();
    /** The same keys with every store prefix (as the server stores them). */
    private final List<String> fullKeys = new ArrayList<>();

    /**
     * @param store     the group's store namespace
     * @param rank      the calling rank (global)
     * @param groupRank its rank in the group
     * @param members   the group's global ranks in group order
     * @param initSeq   the group's communicator counter for this init
     */
    public UniqueIdExchange(Store store, int rank, int groupRank, List<Integer> members, int initSeq, Settings settings) {
        this.store = store;
        this.rank = rank;
        this.groupRank = groupRank;
        this.members = List.copyOf(members);
        this.settings = settings;
        this.scalable = members.size() > settings.ranksPerRoot();
        if (!scalable) {
            keys.add(Integer.toString(initSeq));
        } else {
            String prefix = settings.scopedScalableKeys() ? initSeq + ":" : "";
            for (int i = 0; i < roots(); i++) keys.add(prefix + "UniqueNCCLID:" + i);
        }
        for (String k : keys) fullKeys.add(store instanceof PrefixStore ? ((PrefixStore) store).fullKey(k) : k);
    }

    /** Whether the group uses several roots (ncclCommInitRankScalable). */
    public boolean scalable() { return scalable; }

    /** The full store keys the ids are read from, one per root. */
    public List<String> fullKeys() { return List.copyOf(fullKeys); }

    /** The root of this rank's block (0 with a single root). */
    public int myRoot() { return scalable ? groupRank / settings.ranksPerRoot() : 0; }

    private int roots() {
        int rpr = settings.ranksPerRoot();
        return (members.size() + rpr - 1) / rpr;
    }

    /**
     * Runs the exchange: a root rank creates its root and sets its id, then everyone reads the ids.
     *
     * @param guard   wraps every continuation (a dead process ignores the replies still in flight)
     * @param onIds   the ids, one per root
     * @param onError PyTorch's message for a store timeout
     */
    public void run(RootFactory roots, UnaryOperator<Runnable> guard, Consumer<List<String>> onIds, Consumer<String> onError) {
        if (!scalable) {
            String key = keys.get(0);
            if (groupRank == 0) {
                String id = roots.create(0, 1, members);
                store.set(rank, key, id, guard.apply(() -> onIds.accept(List.of(id))));
            } else {
                store.get(rank, key, settings.storeTimeoutPs(), new Store.Callback<>() {
                    @Override public void onValue(String v) { guard.apply(() -> onIds.accept(List.of(v))).run(); }
                    @Override public void onTimeout(StoreTimeoutException e) {
                        guard.apply(() -> onError.accept("[rank " + rank + "] is setting up NCCL communicator and retrieving"
                                + " ncclUniqueId from [0] via c10d key-value store by key '" + key + "', but store->get('" + key
                                + "') got error: " + e.getMessage())).run();
                    }
                });
            }
            return;
        }
        int rpr = settings.ranksPerRoot();
        List<String> ks = List.copyOf(keys);
        Runnable gather = () -> store.multiGet(rank, ks, settings.storeTimeoutPs(), new Store.Callback<>() {
            @Override public void onValue(List<String> v) { guard.apply(() -> onIds.accept(v)).run(); }
            @Override public void onTimeout(StoreTimeoutException e) {
                guard.apply(() -> onError.accept("[rank " + rank + "] allgatherUniqueNCCLIDs: store->multiGet got error: "
                        + e.getMessage())).run();
            }
        });
        if (groupRank % rpr == 0) {
            int rootIdx = groupRank / rpr;
            List<Integer> block = members.subList(rootIdx * rpr, Math.min(members.size(), (rootIdx + 1) * rpr));
            String id = roots.create(rootIdx, roots(), block);
            store.set(rank, ks.get(rootIdx), id, guard.apply(gather));
        } else {
            gather.run();
        }
    }
}
