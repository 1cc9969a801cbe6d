package io.ccsim.algorithms.tuner;

/** A tuning file of NCCL's example tuner plugin that cannot be read or holds an invalid row; the message says where. */
public final class TunerConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    TunerConfigException(String message) { super(message); }
}
