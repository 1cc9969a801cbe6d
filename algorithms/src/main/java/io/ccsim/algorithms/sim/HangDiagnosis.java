package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.plan.Primitive;
import java.util.ArrayList;
import java.util.List;

/**
 * What each unfinished worker of an execution waits for, read from its state without changing it: for the report of
 * a simulation that quiesced with the execution unfinished (a hang).
 */
final class HangDiagnosis {
    /*
     * Reasons, first match wins:
     *   "kernel never launched"    its rank was never launched;
     *   "kernel starting"          launched, its channel not started yet (launch latency, channel skew);
     *   "starting its step"        a wake-up is pending, or its flows are in their latency phase;
     *   "transfer in progress (stalled link?)"  its flows run (a link down leaves them at rate 0);
     *   "waiting for data from" P  an input on a connection from rank P was not even sent;
     *   "waiting for free slots at" P  (first sub-transfer only) slots on a connection to rank P are not freed even
     *                              once the credits in flight land;
     *   "runnable"                 none of the above (it would start on its next evaluation).
     */
    private static final Primitive[] PRIMS = Primitive.values();

    private HangDiagnosis() {}

    /**
     * The unfinished workers, in worker order, and what each waits for at {@code nowPs}; replica channels' workers
     * (no steps) are left out. {@code rankLaunched[r]}: whether rank r was launched.
     */
    static List<SimExecution.Blocked> blocked(Workers workers, Connections conns, boolean[] rankLaunched, long nowPs) {
        List<SimExecution.Blocked> out = new ArrayList<>();
        for (int w = 0; w < workers.count(); w++) {
            if (!workers.hasStepsLeft(w)) continue; // done, or a replica channel
            int rank = workers.rank(w);
            String reason;
            int peer = -1;
            int flags = workers.flags(w);
            if (!rankLaunched[rank]) {
                reason = "kernel never launched";
            } else if ((flags & Workers.F_STARTED) == 0) {
                reason = "kernel starting";
            } else if ((flags & Workers.F_WAKE) != 0 || ((flags & Workers.F_BUSY) != 0 && workers.stepStartPs(w) > nowPs)) {
                reason = "starting its step";
            } else if ((flags & Workers.F_BUSY) != 0) {
                reason = "transfer in progress (stalled link?)";
            } else {
                int k = missingInput(workers, conns, w);
                if (k >= 0) {
                    peer = conns.from(k);
                    reason = "waiting for data from";
                } else if ((k = missingCredit(workers, conns, w)) >= 0) {
                    peer = conns.to(k);
                    reason = "waiting for free slots at";
                } else {
                    reason = "runnable";
                }
            }
            out.add(new SimExecution.Blocked(rank, workers.channel(w), workers.lane(w), workers.stepIndex(w),
                    workers.stepCount(w), PRIMS[workers.primitive(w)].name(), peer, reason));
        }
        return out;
    }

    /** The first receive connection of {@code w}'s current sub-transfer whose input was not even sent, or −1. */
    private static int missingInput(Workers workers, Connections conns, int w) {
        boolean whole = workers.units(w) == 1;
        long need = whole ? workers.slots(w) : workers.sub(w) + 1;
        for (int i = 0; i < workers.nRecv(w); i++) {
            int k = workers.recvConn(w, i);
            if (!conns.eventuallyArrives(k, whole, need)) return k;
        }
        return -1;
    }

    /** The first send connection of {@code w}'s current step (first sub-transfer only) without free slots, or −1. */
    private static int missingCredit(Workers workers, Connections conns, int w) {
        if (workers.sub(w) != 0) return -1;
        for (int i = 0; i < workers.nSend(w); i++) {
            int k = workers.sendConn(w, i);
            if (!conns.eventuallyFree(k, workers.slots(w))) return k;
        }
        return -1;
    }
}
