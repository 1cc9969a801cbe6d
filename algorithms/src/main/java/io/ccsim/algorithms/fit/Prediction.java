package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.measurements.MeasuredRow;

/**
 * What {@code ccsim perf} predicts for one measured row.
 *
 * @param row       the measurement
 * @param timeUs    simulated time of one collective, µs
 * @param algo      the algorithm the tuner chose (the forced one for forced rows)
 * @param proto     the protocol the tuner chose
 * @param channels  the channel count the tuner chose
 */
record Prediction(MeasuredRow row, double timeUs, Algorithm algo, Protocol proto, int channels) {

    /** log(predicted / measured), the residual the fit minimises. */
    double logRatio() { return Math.log(timeUs / row.timeUs()); }

    /** |predicted − measured| / measured. */
    double relativeError() { return Math.abs(timeUs - row.timeUs()) / row.timeUs(); }

    /** Whether the tuner's (algorithm, protocol) equals the one NCCL reported (false when NCCL reported none). */
    boolean choiceAgrees() {
        return row.ncclAlgo().isPresent() && row.ncclProto().isPresent()
                && row.ncclAlgo().get() == algo && row.ncclProto().get() == proto;
    }
}
