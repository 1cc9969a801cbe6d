package io.ccsim.sim.flow;

import java.util.Arrays;

/**
 * The flows that have a completion time, ordered by ({@link Flow#completionTime} in ps, then {@link Flow#id()}):
 * what {@link FlowNetwork#nextCompletionTime()} reads. An indexed binary min-heap: each flow keeps its position in
 * {@link Flow#heapPos} (-1 when absent), so a flow whose completion time changed is moved in O(log n).
 *
 * <p>Contract: {@link #add} takes an absent flow, {@link #remove} and {@link #fix} a present one ({@code remove} of
 * an absent flow does nothing); a flow's completion time may change only while it is absent or just before a
 * {@link #fix}. Holds no flow after its removal. The array grows by doubling; nothing else is allocated.
 */
final class CompletionQueue {
    /* The classic array heap (Williams 1964) with positions kept in the elements (as in an indexed priority queue). */
    private Flow[] heap = new Flow[16];
    private int size;

    /** @return the least completion time of a queued flow, ps, or {@link Long#MAX_VALUE} if none */
    long nextTime() {
        return size == 0 ? Long.MAX_VALUE : heap[0].completionTime;
    }

    /** @return the number of queued flows */
    int size() {
        return size;
    }

    /** Queues f (absent). */
    void add(Flow f) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        f.heapPos = size;
        heap[size++] = f;
        up(f.heapPos);
    }

    /** Removes f if it is queued. */
    void remove(Flow f) {
        int pos = f.heapPos;
        if (pos < 0) {
            return;
        }
        f.heapPos = -1;
        int last = --size;
        if (pos != last) {
            Flow m = heap[last];
            heap[pos] = m;
            m.heapPos = pos;
            heap[last] = null;
            up(pos);
            down(m.heapPos);
        } else {
            heap[last] = null;
        }
    }

    /** Restores f's place after its completion time changed (f queued). */
    void fix(Flow f) {
        up(f.heapPos);
        down(f.heapPos);
    }

    private static boolean before(Flow a, Flow b) {
        return a.completionTime < b.completionTime
                || (a.completionTime == b.completionTime && a.id() < b.id());
    }

    private void up(int pos) {
        Flow f = heap[pos];
        while (pos > 0) {
            int parent = (pos - 1) >>> 1;
            Flow p = heap[parent];
            if (before(f, p)) {
                heap[pos] = p;
                p.heapPos = pos;
                pos = parent;
            } else {
                break;
            }
        }
        heap[pos] = f;
        f.heapPos = pos;
    }

    private void down(int pos) {
        Flow f = heap[pos];
        int n = size;
        while (true) {
            int c = 2 * pos + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && before(heap[c + 1], heap[c])) {
                c++;
            }
            if (before(heap[c], f)) {
                heap[pos] = heap[c];
                heap[pos].heapPos = pos;
                pos = c;
            } else {
                break;
            }
        }
        heap[pos] = f;
        f.heapPos = pos;
    }
}
