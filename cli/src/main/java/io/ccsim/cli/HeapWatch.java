package io.ccsim.cli;

import io.ccsim.sim.RunControl;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;
import javax.management.NotificationEmitter;

/**
 * The memory budget of a running command: when a heap pool that garbage collection empties into (ParallelGC's old
 * generation) is still {@link #FULL} of its maximum right after a collection, the run is stopped through its
 * {@link RunControl} with a reason that names the heap and the option that raises it, instead of collecting for
 * minutes before an {@link OutOfMemoryError}. {@link RunBudget} refuses, before they start, the runs it can size; this
 * catches what grows while running (a scenario's records).
 */
final class HeapWatch {
    /** The fraction of a pool's maximum in use after a collection at which the run is stopped. */
    static final double FULL = 0.95;

    private HeapWatch() {}

    /** Watches the heap from now on for {@code control} (where the JVM reports collection usage). */
    static void install(RunControl control) {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            // the old generation: eden and survivor spaces (full after every young collection by design) support no
            // usage threshold
            if (pool.getType() != MemoryType.HEAP || !pool.isCollectionUsageThresholdSupported()
                    || !pool.isUsageThresholdSupported()) {
                continue;
            }
            long max = pool.getUsage().getMax();
            if (max <= 0) continue;
            pool.setCollectionUsageThreshold((long) (max * FULL));
        }
        NotificationEmitter emitter = (NotificationEmitter) ManagementFactory.getMemoryMXBean();
        emitter.addNotificationListener((n, handback) -> {
            if (!MemoryNotificationInfo.MEMORY_COLLECTION_THRESHOLD_EXCEEDED.equals(n.getType())) return;
            control.requestStop(reason(Runtime.getRuntime().maxMemory()));
        }, null, null);
    }

    /**
     * The line for a run that ran out of a heap of {@code maxBytes} outright ({@link OutOfMemoryError}: an allocation
     * larger than what the budget foresaw, before the watch could stop it).
     */
    static String outOfMemory(long maxBytes) {
        return String.format(Locale.ROOT, "stopped by budget before any result: out of heap (all of its %s in use, more than"
                + " the run's estimate); valid here: fewer --nodes, smaller sizes, or more heap: %s", RunBudget.gb(maxBytes),
                twiceTheHeap(maxBytes));
    }

    /** Whether {@code t} or one of its causes is an {@link OutOfMemoryError}. */
    static boolean outOfMemory(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof OutOfMemoryError) return true;
        }
        return false;
    }

    /** The stop reason for a heap of {@code maxBytes} that stayed full. */
    static String reason(long maxBytes) {
        return String.format(Locale.ROOT, "%s: a full heap (%.0f %% of its %s in use after a garbage collection; raise it with"
                + " %s)", RunControl.BUDGET, FULL * 100, RunBudget.gb(maxBytes), twiceTheHeap(maxBytes));
    }

    /** The launcher's options with twice a heap of {@code maxBytes}, in whole GiB rounded up (at least 1). */
    private static String twiceTheHeap(long maxBytes) {
        long g = Math.max(1, (long) Math.ceil(2.0 * maxBytes / (1L << 30)));
        return "CCSIM_JAVA_OPTS='" + RunBudget.JAVA_OPTS + " -Xmx" + g + "g'";
    }
}
