package io.ccsim.algorithms.plan;

/** Receives the connections of a plan, each once: data flows {@code from → to} on {@code channel}. */
@FunctionalInterface
public interface ConnectionSink {
    void accept(int channel, int from, int to);
}
