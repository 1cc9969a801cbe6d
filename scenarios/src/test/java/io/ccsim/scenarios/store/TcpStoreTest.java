package io.ccsim.scenarios.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.format.Units;
import io.ccsim.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TcpStoreTest {
    static final long LAT = Units.PS_PER_US * 50; // one-way latency of every client

    private final Simulator sim = new Simulator(1);
    private final SimHost host = new SimHost(sim);
    private final TcpStore store = new TcpStore(host, 0, r -> LAT);

    @Test
    void setThenGetTakesTwoRoundTrips() {
        List<Long> at = new ArrayList<>();
        List<String> got = new ArrayList<>();
        store.set(1, "k", "v", () -> {
            at.add(host.now());
            store.get(2, "k", 0, Store.Callback.of(v -> { got.add(v); at.add(host.now()); }));
        });
        sim.run();
        assertThat(at).containsExactly(2 * LAT, 4 * LAT);
        assertThat(got).containsExactly("v");
    }

    @Test
    void getBlocksUntilTheKeyIsSet() {
        List<Long> at = new ArrayList<>();
        store.get(2, "late", 0, Store.Callback.of(v -> at.add(host.now())));
        host.after(Units.s(3), () -> store.set(1, "late", "x", () -> {}));
        sim.run();
        // set reaches the server at 3 s + LAT, the parked get answers one latency later
        assertThat(at).containsExactly(Units.s(3) + 2 * LAT);
    }

    @Test
    void getTimesOutWithPyTorchWording() {
        List<String> errors = new ArrayList<>();
        store.get(3, "never", Units.ms(300_000), new Store.Callback<>() {
            @Override public void onValue(String v) { errors.add("value " + v); }
            @Override public void onTimeout(StoreTimeoutException e) { errors.add(host.now() + " " + e.getMessage()); }
        });
        sim.run();
        assertThat(errors).containsExactly(Units.ms(300_000) + " wait timeout after 300000ms, keys: never");
    }

    @Test
    void addCompareSetDeleteAndVersions() {
        List<Object> out = new ArrayList<>();
        store.add(1, "n", 5, Store.Callback.of(v -> {
            out.add(v);
            store.add(2, "n", -2, Store.Callback.of(v2 -> {
                out.add(v2);
                store.compareSet(1, "n", "3", "7", Store.Callback.of(v3 -> {
                    out.add(v3);
                    store.compareSet(1, "n", "3", "9", Store.Callback.of(v4 -> {
                        out.add(v4);
                        store.delete(2, "n", Store.Callback.of(d -> {
                            out.add(d);
                            store.delete(2, "n", Store.Callback.of(out::add));
                        }));
                    }));
                }));
            }));
        }));
        sim.run();
        assertThat(out).containsExactly(5L, 3L, "7", "7", true, false);
        assertThat(store.log()).filteredOn(e -> e.op().equals("COMPARE_SET")).extracting(StoreEvent::version)
                .containsExactly(3L, 3L);
    }

    @Test
    void overwrittenValueIsVersionedAndAStaleReadIsVisibleInTheLog() {
        store.set(0, "UniqueNCCLID:1", "round0", () -> {});
        host.after(Units.s(1), () -> store.get(2, "UniqueNCCLID:1", 0, Store.Callback.of(v -> {})));
        host.after(Units.s(2), () -> store.set(1, "UniqueNCCLID:1", "round1", () -> {}));
        sim.run();
        StoreEvent read = store.log().stream().filter(e -> e.op().equals("GET")).findFirst().orElseThrow();
        assertThat(read.value()).isEqualTo("round0");
        assertThat(read.version()).isEqualTo(1);
        assertThat(read.writtenPs()).isEqualTo(LAT);
    }

    @Test
    void prefixStoreNamespacesKeysAndNests() {
        PrefixStore pg = new PrefixStore("default_pg", store);
        PrefixStore nested = new PrefixStore("sub", pg);
        List<String> got = new ArrayList<>();
        nested.set(0, "0", "id", () -> store.get(1, "default_pg/sub/0", 0, Store.Callback.of(got::add)));
        sim.run();
        assertThat(got).containsExactly("id");
        assertThat(nested.fullKey("0")).isEqualTo("default_pg/sub/0");
    }

    @Test
    void multiGetWaitsForAllKeys() {
        List<Object> got = new ArrayList<>();
        store.multiGet(0, List.of("a", "b"), 0, Store.Callback.of(v -> { got.add(v); got.add(host.now()); }));
        host.after(Units.ms(1), () -> store.set(1, "a", "1", () -> {}));
        host.after(Units.ms(2), () -> store.set(1, "b", "2", () -> {}));
        sim.run();
        assertThat(got).containsExactly(List.of("1", "2"), Units.ms(2) + 2 * LAT);
    }

    @Test
    void awaitWaitsForEveryKeyAndCompareSetCreatesAnAbsentKeyOnlyFromEmpty() {
        List<Object> out = new ArrayList<>();
        store.await(0, List.of("x", "y"), Units.s(1), Store.Callback.of(b -> out.add(host.now())));
        host.after(Units.ms(5), () -> store.set(1, "x", "1", () -> {}));
        host.after(Units.ms(9), () -> store.set(1, "y", "2", () -> {}));
        store.compareSet(2, "absent", "nope", "v", Store.Callback.of(out::add));
        host.after(Units.ms(1), () -> store.compareSet(2, "absent", "", "v", Store.Callback.of(out::add)));
        sim.run();
        // a mismatched compare on an absent key leaves it absent and answers the expected value
        assertThat(out).containsExactly("nope", "v", Units.ms(9) + 2 * LAT);
    }
}
