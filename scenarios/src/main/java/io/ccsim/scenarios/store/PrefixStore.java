package io.ccsim.scenarios.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A namespace over another store, as c10d's {@code PrefixStore}
 * (torch/csrc/distributed/c10d/PrefixStore.cpp joins {@code prefix + "/" + key}). PyTorch wraps the
 * job's store once per process group (the group name) and, for the NCCL backend, keys the unique
 * id exchange under it; prefixes nest.
 */
public final class PrefixStore implements Store {
    private final String prefix;
    private final Store inner;

    public PrefixStore(String prefix, Store inner) {
        if (prefix == null || prefix.isEmpty()) throw new IllegalArgumentException("store prefix must be non-empty");
        this.prefix = prefix;
        this.inner = Objects.requireNonNull(inner);
    }

    /** The key as the wrapped store sees it. */
    private String inner(String key) { return prefix + "/" + key; }

    /** The full key as the underlying server stores it (through every nested prefix). */
    public String fullKey(String key) {
        return inner instanceof PrefixStore ? ((PrefixStore) inner).fullKey(inner(key)) : inner(key);
    }

    private List<String> inner(List<String> keys) {
        List<String> out = new ArrayList<>(keys.size());
        for (String k : keys) out.add(inner(k));
        return out;
    }

    @Override public void set(int c, String key, String value, Runnable done) { inner.set(c, inner(key), value, done); }
    @Override public void get(int c, String key, long t, Callback<String> cb) { inner.get(c, inner(key), t, cb); }
    @Override public void multiGet(int c, List<String> keys, long t, Callback<List<String>> cb) { inner.multiGet(c, inner(keys), t, cb); }
    @Override public void await(int c, List<String> keys, long t, Callback<Boolean> cb) { inner.await(c, inner(keys), t, cb); }
    @Override public void add(int c, String key, long d, Callback<Long> cb) { inner.add(c, inner(key), d, cb); }
    @Override public void compareSet(int c, String key, String e, String d, Callback<String> cb) { inner.compareSet(c, inner(key), e, d, cb); }
    @Override public void delete(int c, String key, Callback<Boolean> cb) { inner.delete(c, inner(key), cb); }
}
