package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ccsim.sim.RunControl;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The heap watch starts when a command declares itself stoppable, before its work. */
class HeapWatchTest {
    @Test
    void aCommandThatRunsStartsTheHeapWatchAtFullOfEveryWatchablePool() {
        Main.Session session = new Main.Session(new RunControl(), false, System::nanoTime, Runtime.getRuntime().maxMemory(),
                true, new AtomicBoolean());
        StringWriter out = new StringWriter();
        int code = Main.execute(new String[] {"topology", "hgx-h200", "--gpus", "4"}, new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true), Map.of(), session);
        assertThat(code).isZero();
        int watched = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() != MemoryType.HEAP || !pool.isCollectionUsageThresholdSupported()
                    || !pool.isUsageThresholdSupported() || pool.getUsage().getMax() <= 0) {
                continue;
            }
            assertThat(pool.getCollectionUsageThreshold()).as(pool.getName())
                    .isEqualTo((long) (pool.getUsage().getMax() * HeapWatch.FULL));
            watched++;
        }
        assertThat(watched).as("the JVM has a heap pool that reports collection usage").isPositive();
    }
}
