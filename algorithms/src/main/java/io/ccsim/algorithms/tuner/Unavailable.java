package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;

import java.util.Objects;
import java.util.Optional;

/**
 * An (algorithm[, protocol]) that NCCL would consider for a call but that is not a candidate here, and why
 * (disabled by NCCL_ALGO/NCCL_PROTO/NCCL_NVLS_ENABLE, LL128 platform rule, or not implemented by ccsim).
 *
 * @param algorithm the algorithm
 * @param protocol  the protocol, or empty when the whole algorithm is unavailable
 * @param reason    human-readable reason
 */
public record Unavailable(Algorithm algorithm, Optional<Protocol> protocol, String reason) {
    public Unavailable {
        Objects.requireNonNull(algorithm);
        Objects.requireNonNull(protocol);
        Objects.requireNonNull(reason);
    }

    /** {@code NVLS} or {@code Ring/LL128}. */
    public String label() {
        return algorithm.ncclName() + protocol.map(p -> "/" + p.ncclName()).orElse("");
    }
}
