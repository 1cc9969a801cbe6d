package io.ccsim.sim;

import java.util.Arrays;

/**
 * Storage for queue entries: fixed-size chunks of (time, handle, insertion sequence) entries, chained into lists.
 *
 * <p>An entry is addressed by its index {@code chunk << CHUNK_BITS | offset}. A list is a chain of chunks linked
 * through {@link #nextChunk}; its owner keeps the head, the tail and how many entries the tail holds. Chunks are
 * taken from and returned to a free list; the arrays grow by doubling when none is free, so storing an entry
 * allocates nothing in steady state, and the memory held is that of the most entries ever stored at once plus one
 * partial chunk per list. Not thread-safe.
 */
abstract class EntryChunks {
    /*
     * Why chunks rather than one array per list: the event queue keeps 1,792 lists (7 levels of 256 buckets), and a
     * list that once held the 16,000 events of one instant would keep that capacity for good; with chunks, a
     * drained list gives its memory back to the others. A chunk of 64 entries is 1.5 KiB: long enough to be read
     * and written as a stream, short enough that the partial last chunks of many small lists cost little.
     *
     * Why a superclass: the queue reaches the arrays without one more dependent load (see EventQueue).
     */
    static final int CHUNK_BITS = 6;
    static final int CHUNK = 1 << CHUNK_BITS;

    /** Per entry: time (ps) at {@code 3e}, handle at {@code 3e + 1}, insertion sequence at {@code 3e + 2}. */
    long[] key = new long[3 * 16 * CHUNK];
    /** Per chunk: the next chunk of its list, or -1. */
    int[] nextChunk = new int[16];
    private int freeChunk; // head of the free list, -1 if empty
    private int chunksUsed; // chunks [0, chunksUsed) have been handed out at least once

    EntryChunks() {
        freeChunk = -1;
    }

    /** @return a chunk with no successor, from the free list or new */
    final int newChunk() {
        int c = freeChunk;
        if (c >= 0) {
            freeChunk = nextChunk[c];
        } else {
            if (chunksUsed == nextChunk.length) {
                int n = 2 * chunksUsed;
                nextChunk = Arrays.copyOf(nextChunk, n);
                key = Arrays.copyOf(key, 3 * n * CHUNK);
            }
            c = chunksUsed++;
        }
        nextChunk[c] = -1;
        return c;
    }

    /** Returns the chain {@code head .. tail} (linked through {@link #nextChunk}) to the free list. */
    final void freeChain(int head, int tail) {
        nextChunk[tail] = freeChunk;
        freeChunk = head;
    }

    /** Writes an entry. */
    final void setEntry(int e, long time, long handle, long seq) {
        key[3 * e] = time;
        key[3 * e + 1] = handle;
        key[3 * e + 2] = seq;
    }
}
