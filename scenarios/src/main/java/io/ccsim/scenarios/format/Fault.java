package io.ccsim.scenarios.format;

/**
 * A fault injected into a run, at a simulated time ({@code atPs}, ps from the start of the first
 * attempt) or at an event (a training iteration). Link ids are topology link ids.
 */
public sealed interface Fault {
    /** A link's rate multiplied by {@code factor} (0 &lt; factor &lt;= 1) from {@code atPs} on. */
    record LinkDegrade(String link, double factor, long atPs) implements Fault {}

    /** A link down from {@code atPs} for {@code durationPs} (0 = for good). */
    record LinkDown(String link, long atPs, long durationPs) implements Fault {}

    /** A link flapping: {@code count} times down for {@code downPs} then up for {@code upPs}, from {@code atPs}. */
    record LinkFlap(String link, long atPs, long downPs, long upPs, int count) implements Fault {}

    /** A rank's process dies at {@code atPs}. */
    record RankCrash(int rank, long atPs) implements Fault {}

    /**
     * A fault triggered by an event instead of a time: when rank {@code rank} starts training
     * iteration {@code iteration} of the first launch, {@code fault} happens at once (its own time
     * is ignored).
     */
    record OnIteration(int rank, int iteration, Fault fault) implements Fault {}

    /** A rank whose process is never launched (a Slurm/launcher failure). */
    record NeverStarts(int rank) implements Fault {}

    /** A rank's GPU computes {@code factor} times slower (thermal throttling, a bad HBM stack) from {@code atPs}. */
    record SlowGpu(int rank, double factor, long atPs) implements Fault {}

    /**
     * A rank's GPU stops making progress at {@code atPs} (a hung kernel, Xid 79 "fallen off the bus"):
     * its work never completes and CUDA calls on it block, the watchdog thread included.
     */
    record GpuHang(int rank, long atPs) implements Fault {}

    /** {@code bytes} of a rank's GPU memory taken at {@code atPs} (another process, a leak). */
    record MemoryPressure(int rank, long bytes, long atPs) implements Fault {}

    /** One bit flipped in the data crossing {@code link} at {@code atPs} (an NVLink/PCIe error CRC missed). */
    record BitFlipLink(String link, long atPs) implements Fault {}

    /** One bit flipped in a rank's GPU memory at {@code atPs} (an uncorrected ECC error). */
    record BitFlipGpuMemory(int rank, long atPs) implements Fault {}

    /** An outside writer (another job sharing the store) sets {@code key} to {@code value} at {@code atPs}. */
    record StoreKeyCollision(String key, String value, long atPs) implements Fault {}
}
