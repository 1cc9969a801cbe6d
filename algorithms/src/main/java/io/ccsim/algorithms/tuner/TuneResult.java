package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.Protocol;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The tuner's answer for one call.
 *
 * @param input       the call
 * @param candidates  every allowed (algorithm, protocol), in NCCL's order (algorithms Tree, Ring, ..., then
 *                    protocols LL, LL128, Simple)
 * @param winner      the chosen candidate: least {@link Candidate#costUs()}, ties to the first in NCCL's
 *                    order (enqueue.cc topoGetAlgoInfo uses a strict {@code <}); for send/recv and
 *                    all-to-all NCCL's P2P protocol rule (LL up to 16 KiB per channel, else Simple)
 * @param unavailable what NCCL would also consider but is not a candidate, with the reason
 * @param tunerPlugin what NCCL's example tuner plugin decided (NCCL_TUNER_CONFIG_FILE), which the winner then
 *                    follows; empty without one
 */
public record TuneResult(TuneInput input, List<Candidate> candidates, Candidate winner,
                         List<Unavailable> unavailable, Optional<TunerConfig.Decision> tunerPlugin) {
    /** A result of NCCL's own tuner, no plugin. */
    public TuneResult(TuneInput input, List<Candidate> candidates, Candidate winner, List<Unavailable> unavailable) {
        this(input, candidates, winner, unavailable, Optional.empty());
    }

    public TuneResult {
        Objects.requireNonNull(input);
        candidates = List.copyOf(candidates);
        Objects.requireNonNull(winner);
        unavailable = List.copyOf(unavailable);
        Objects.requireNonNull(tunerPlugin);
        if (!candidates.contains(winner)) throw new IllegalArgumentException("winner is not a candidate");
    }

    public CollectiveOp op() { return input.op(); }

    public long bytes() { return input.bytes(); }

    /** The candidate for ({@code a}, {@code p}), if allowed. */
    public Optional<Candidate> candidate(Algorithm a, Protocol p) {
        for (Candidate c : candidates) if (c.algorithm() == a && c.protocol() == p) return Optional.of(c);
        return Optional.empty();
    }
}
