package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;

import java.util.Arrays;
import java.util.Objects;

/**
 * One allowed (algorithm, protocol) for a call: its predicted time for every channel count in
 * [{@link #minChannels()}, {@link #maxChannels()}], NCCL's channel choice, and NCCL's selection cost.
 * Immutable.
 */
public final class Candidate {
    private final Algorithm algorithm;
    private final Protocol protocol;
    private final int minChannels;
    private final double[] timesUs;
    private final int channels;
    private final double costUs;
    private final double latencyUs;
    private final double bandwidthGBs;

    Candidate(Algorithm algorithm, Protocol protocol, int minChannels, double[] timesUs, int channels,
              double costUs, double latencyUs, double bandwidthGBs) {
        this.algorithm = Objects.requireNonNull(algorithm);
        this.protocol = Objects.requireNonNull(protocol);
        this.minChannels = minChannels;
        this.timesUs = timesUs.clone();
        this.channels = channels;
        this.costUs = costUs;
        this.latencyUs = latencyUs;
        this.bandwidthGBs = bandwidthGBs;
        if (channels < minChannels || channels > maxChannels()) {
            throw new IllegalArgumentException("channels " + channels + " outside [" + minChannels + ", "
                    + maxChannels() + "]");
        }
    }

    public Algorithm algorithm() { return algorithm; }

    public Protocol protocol() { return protocol; }

    /** Smallest channel count predicted (NCCL_MIN_NCHANNELS, or 1). */
    public int minChannels() { return minChannels; }

    /** Largest channel count predicted: the communicator's channels after NCCL_MIN/MAX_NCHANNELS. */
    public int maxChannels() { return minChannels + timesUs.length - 1; }

    /** Predicted time with {@code nChannels} channels, µs. */
    public double timeUs(int nChannels) {
        if (nChannels < minChannels || nChannels > maxChannels()) {
            throw new IllegalArgumentException("nChannels must be in " + minChannels + ".." + maxChannels()
                    + ", got " + nChannels);
        }
        return timesUs[nChannels - minChannels];
    }

    /**
     * The channel count NCCL would launch with (enqueue.cc topoGetAlgoInfo: fewer channels while each
     * thread would get less than its threshold of work), kept within the NCCL_MIN/MAX_NCHANNELS bounds.
     */
    public int channels() { return channels; }

    /** Predicted time at {@link #channels()}, µs. */
    public double timeUs() { return timeUs(channels); }

    /**
     * NCCL's selection cost, µs: the time of ncclTopoGetAlgoTime at the communicator's full channel count
     * ({@link #maxChannels()}), the value NCCL compares across (algorithm, protocol) pairs.
     */
    public double costUs() { return costUs; }

    /** NCCL's latency term ({@code comm->latencies[coll][a][p]}, before per-size factors), µs. */
    public double latencyUs() { return latencyUs; }

    /**
     * NCCL's bandwidth term at the full channel count ({@code comm->bandwidths[coll][a][p]}: bus bandwidth
     * converted to algorithm bandwidth), GB/s; the time is {@code latency + nBytes / (1000 × bandwidth)} µs.
     */
    public double bandwidthGBs() { return bandwidthGBs; }

    /**
     * This candidate launched with {@code nChannels} channels instead of NCCL's choice (as a tuner plugin sets
     * them), kept within [{@link #minChannels()}, {@link #maxChannels()}].
     */
    Candidate withChannels(int nChannels) {
        int nc = Math.max(minChannels, Math.min(maxChannels(), nChannels));
        return new Candidate(algorithm, protocol, minChannels, timesUs, nc, costUs, latencyUs, bandwidthGBs);
    }

    /** {@code Ring/Simple}. */
    public String label() { return algorithm.ncclName() + "/" + protocol.ncclName(); }

    @Override
    public String toString() {
        return label() + "{channels=" + channels + ", time=" + timeUs() + " us, cost=" + costUs + " us, times="
                + Arrays.toString(timesUs) + "}";
    }
}
