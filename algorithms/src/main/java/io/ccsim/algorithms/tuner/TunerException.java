package io.ccsim.algorithms.tuner;

/**
 * The tuner cannot pick anything for a call: the NCCL environment leaves no (algorithm, protocol) that the
 * collective supports. The message names the variables, the collective and what it supports (NCCL itself
 * fails with ncclInvalidUsage here, enqueue.cc topoGetAlgoInfo).
 */
public final class TunerException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    TunerException(String message) { super(message); }
}
