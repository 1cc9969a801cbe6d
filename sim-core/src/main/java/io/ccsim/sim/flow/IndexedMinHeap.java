package io.ccsim.sim.flow;

/**
 * A binary min-heap of the items 0..n-1, each with a double key held here, that knows every item's position: the
 * filling's heap of a component's constraints (item = the constraint's index in the component) by saturation level.
 *
 * <p>Contract: {@link #reset} empties the heap for items in [0, n); {@link #append} adds an item without restoring
 * the order, {@link #heapify} restores it for everything appended; then {@link #top}, {@link #topKey},
 * {@link #raiseTopKey}, {@link #lowerTopKey} and {@link #removeAt} keep it. Keys are compared with {@code <} (NaN
 * keys are not supported); among equal keys the order is that of the sift operations, deterministic for a given
 * sequence of calls. Nothing is allocated after the arrays have grown to the largest n seen.
 */
final class IndexedMinHeap {
    /*
     * The classic array heap (Williams 1964, Floyd's bottom-up heapify): item[p] is the item at position p, its
     * children at 2p + 1 and 2p + 2; pos[i] is the position of item i, -1 when absent. A key raised at the top is
     * sifted down (the filling raises a constraint's stale level when it surfaces); a key lowered at the top stays.
     */
    private int[] item = new int[16];
    private int[] pos = new int[16];
    private double[] key = new double[16];
    private int size;

    /** Empties the heap and makes room for items 0..n-1 (n {@code >= 0}). */
    void reset(int n) {
        if (item.length < n) {
            int c = Math.max(n, 2 * item.length);
            item = new int[c];
            pos = new int[c];
            key = new double[c];
        }
        size = 0;
    }

    /** Adds item i (absent, in [0, n)) with key k at the end, without restoring the heap order ({@link #heapify}). */
    void append(int i, double k) {
        key[i] = k;
        pos[i] = size;
        item[size++] = i;
    }

    /** Marks item i absent (for {@link #contains}) without touching the heap. */
    void markAbsent(int i) {
        pos[i] = -1;
    }

    /** Restores the heap order after {@link #append}s: O(size). */
    void heapify() {
        for (int p = size / 2 - 1; p >= 0; p--) {
            down(p);
        }
    }

    /** @return the number of items in the heap */
    int size() {
        return size;
    }

    /** @return whether item i is in the heap (as of the last {@link #append}, {@link #markAbsent} or removal) */
    boolean contains(int i) {
        return pos[i] >= 0;
    }

    /** @return the item with the least key (size {@code > 0}) */
    int top() {
        return item[0];
    }

    /** @return the least key (size {@code > 0}) */
    double topKey() {
        return key[item[0]];
    }

    /** Sets the top item's key to {@code k}, {@code >=} its key, and sifts it down. */
    void raiseTopKey(double k) {
        key[item[0]] = k;
        down(0);
    }

    /** Sets the top item's key to {@code k}, {@code <=} its key: it stays the top. */
    void lowerTopKey(double k) {
        key[item[0]] = k;
    }

    /** Removes the item at position p (0 for the top). */
    void removeAt(int p) {
        int i = item[p];
        pos[i] = -1;
        int last = --size;
        if (p != last) {
            int moved = item[last];
            item[p] = moved;
            pos[moved] = p;
            up(p);
            down(pos[moved]);
        }
    }

    private void up(int p) {
        int i = item[p];
        double k = key[i];
        while (p > 0) {
            int parent = (p - 1) >>> 1;
            int pi = item[parent];
            if (k < key[pi]) {
                item[p] = pi;
                pos[pi] = p;
                p = parent;
            } else {
                break;
            }
        }
        item[p] = i;
        pos[i] = p;
    }

    private void down(int p) {
        int i = item[p];
        double k = key[i];
        int n = size;
        while (true) {
            int c = 2 * p + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && key[item[c + 1]] < key[item[c]]) {
                c++;
            }
            int ci = item[c];
            if (key[ci] < k) {
                item[p] = ci;
                pos[ci] = p;
                p = c;
            } else {
                break;
            }
        }
        item[p] = i;
        pos[i] = p;
    }
}
