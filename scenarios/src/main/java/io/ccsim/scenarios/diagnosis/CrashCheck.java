package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.format.Units;
import java.util.List;

/**
 * Processes that stopped: a GPU that hung and the heartbeat monitor that killed its process
 * ({@link Category#GPU_HANG}), and crashes ({@link Category#RANK_CRASH}), in the order they happened.
 */
final class CrashCheck extends Check {
    CrashCheck(Trace t) { super(t); }

    @Override
    void run() {
        for (RankEvent e : t.events()) {
            if (e.kind().equals("GPU_HANG")) {
                String killed = "";
                for (RankEvent k : t.events()) {
                    if (k.rank() == e.rank() && k.kind().equals("ERROR") && k.text().contains("Heartbeat monitor timed out")) {
                        killed = "; " + s(k.timePs() - e.timePs()) + " later the heartbeat monitor (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC="
                                + Units.toMillis(t.settings().heartbeatTimeoutPs()) / 1000 + ", checked once per period) killed the process: "
                                + k.text();
                        break;
                    }
                }
                add(Category.GPU_HANG, List.of(e.rank()), List.of(), "rank " + e.rank() + ": " + e.text() + " at " + s(e.timePs())
                        + "; its watchdog thread blocked on the GPU, so no collective timeout fired on it" + killed
                        + (killed.endsWith(".") ? "" : ".") + " Its peers stall in the collective it never finished; check dmesg for Xid 79/119 on " + gpu(e.rank()));
            }
            if (e.kind().equals("CRASH")) {
                add(Category.RANK_CRASH, List.of(e.rank()), List.of(), "rank " + e.rank() + " (" + gpu(e.rank()) + ") crashed at "
                        + s(e.timePs()) + " (attempt " + e.attempt() + "): " + e.text() + "; its peers stall in their next collective"
                        + " on it until the elastic agent stops them or the watchdog times out");
            }
        }
    }
}
