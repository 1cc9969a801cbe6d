package io.ccsim.scenarios.diagnosis;

/**
 * The diagnosis vocabulary (documented in scenarios/README.md), after the categories of PyTorch's
 * flight-recorder analyzer (torchfrtrace) and NCCL RAS.
 */
public enum Category {
    /** A store key read during a communicator init held a value from an earlier round (or an outside writer). */
    STALE_STORE_KEY,
    /** A communicator init blocked or failed in the bootstrap (root, ring, connect retries). */
    BOOTSTRAP_STALL,
    /** NCCL could not allocate its buffers: the rank stalls (or fails) in communicator init. */
    INIT_OUT_OF_MEMORY,
    /** A rank never arrived: never launched, or did not join collective #N. */
    MISSING_RANK,
    /** Ranks called the same collective with different op, size or dtype. */
    COLLECTIVE_MISMATCH,
    /** A link ran below its rate and slowed the collectives crossing it. */
    SLOW_LINK,
    /** A rank arrived late at collectives (slow GPU, straggler). */
    SLOW_RANK,
    /** A link went down or flapped; the transport retried, recovered or gave up. */
    LINK_FAILURE,
    /** Ranks hold different (or wrong) results. */
    DATA_CORRUPTION,
    /** A rank's GPU stopped making progress; the heartbeat monitor killed its process. */
    GPU_HANG,
    /** A rank's process died. */
    RANK_CRASH,
    /** The elastic agent restarted the job; work since the last checkpoint was lost. */
    ELASTIC_RESTART,
    /** The watchdog (or the store) timed out. */
    TIMEOUT,
    /** A PyTorch allocation failed (CUDA out of memory). */
    OUT_OF_MEMORY,
    /** A process group was registered on a rank outside it (rank = group size, null backend) and then resolved. */
    INVALID_PROCESS_GROUP,
    /** A symmetric-memory rendezvous could not resolve its process group by name (not registered under that name). */
    UNRESOLVED_PROCESS_GROUP,
    /** A backend option the job's code did not recognize fell back silently to another path. */
    BACKEND_FALLBACK,
    /** The job's own code raised an error (a process group used before it was created or after it was destroyed). */
    PROGRAM_ERROR,
    /** A symmetric-memory call failed (backend changed after use, sizes differ, no rendezvous, no P2P). */
    SYMM_MEM_ERROR
}
