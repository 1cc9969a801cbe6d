package io.ccsim.algorithms.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An actor's step sequence in one channel as text, for tests that compare sequences. */
final class StepSequences {
    private StepSequences() {
    }

    /**
     * Actor a's steps on channel c, every lane: primitive, count, slots, flags and each peer, named by the order in
     * which a first meets that connection ({@code relative}) or by its id.
     */
    static List<String> of(Plan p, int a, int c, boolean relative) {
        StepCursor cur = new StepCursor(p.maxPeers());
        Map<String, Integer> met = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (int l = 0; l < p.nLanes(); l++) {
            out.add("lane " + l + ": " + p.stepCount(a, c, l));
            for (int i = 0; i < p.stepCount(a, c, l); i++) {
                p.step(a, c, l, i, cur);
                StringBuilder b = new StringBuilder(cur.prim() + " " + cur.count() + " " + cur.slots() + " "
                        + cur.continued() + " " + cur.memory());
                for (int k = 0; k < cur.nRecv(); k++) b.append(" r").append(peer(met, "r", cur.recvPeer(k), relative));
                for (int k = 0; k < cur.nSend(); k++) b.append(" s").append(peer(met, "s", cur.sendPeer(k), relative));
                out.add(b.toString());
            }
        }
        return out;
    }

    private static int peer(Map<String, Integer> met, String direction, int peer, boolean relative) {
        return relative ? met.computeIfAbsent(direction + peer, x -> met.size()) : peer;
    }
}
