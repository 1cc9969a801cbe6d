package io.ccsim.scenarios.job;

import io.ccsim.scenarios.cluster.SimHost;
import io.ccsim.scenarios.format.Units;

/**
 * ProcessGroupNCCL's watchdog for one rank: a thread that wakes every 100 ms from the process start
 * and checks each enqueued work; a work older than its timeout (measured from its creation) is
 * reported as {@link #timeoutMessage}. It also picks up asynchronous NCCL errors (ncclRemoteError from
 * the network) at its next wake-up. With async error handling the process is then taken down; with
 * blocking wait the waiting thread raises the same error.
 *
 * <p>What it does NOT cover: communicator creation. initNCCLComm runs before any WorkNCCL exists,
 * so a bootstrap that blocks (root accept, ring all-gather) or stalls is never timed out by it.
 */
final class Watchdog {
    /*
     * torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp: Watchdog::runLoop (kWatchdogThreadSleepMillis
     * = 100 ms) and WorkNCCL::checkTimeout, whose message timeoutMessage reproduces.
     */
    static final long POLL_PS = Units.ms(100);

    private final SimHost host;
    private final long processStartPs;

    Watchdog(SimHost host, long processStartPs) {
        this.host = host;
        this.processStartPs = processStartPs;
    }

    /** When the process (and its watchdog and heartbeat monitor) started, ps. */
    long startPs() { return processStartPs; }

    /** The first watchdog wake-up strictly after {@code t}. */
    long nextPollAfter(long t) {
        long since = t - processStartPs;
        return processStartPs + (since / POLL_PS + 1) * POLL_PS;
    }

    /**
     * Arms the timeout of a work created now; {@code onTimeout} receives the detection time. Returns
     * the handle to cancel when the work completes.
     */
    long arm(long timeoutPs, java.util.function.LongConsumer onTimeout) {
        long created = host.now();
        long detect = nextPollAfter(created + timeoutPs);
        return host.after(detect - created, () -> onTimeout.accept(host.now()));
    }

    void disarm(long handle) { host.cancel(handle); }

    /** PyTorch's wording of a collective timeout. */
    static String timeoutMessage(int rank, long seq, String opType, long numelIn, long numelOut, long timeoutPs,
                                 long ranForPs) {
        return "[Rank " + rank + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + seq + ", OpType="
                + opType + ", NumelIn=" + numelIn + ", NumelOut=" + numelOut + ", Timeout(ms)="
                + Units.toMillis(timeoutPs) + ") ran for " + Units.toMillis(ranForPs)
                + " milliseconds before timing out.";
    }
}
