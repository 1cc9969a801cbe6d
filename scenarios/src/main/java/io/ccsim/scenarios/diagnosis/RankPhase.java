package io.ccsim.scenarios.diagnosis;

/** Where a rank is, for the per-rank timeline and the analyzer. */
public enum RankPhase {
    NOT_STARTED, RUNNING, STORE_WAIT, BOOTSTRAP_CONNECT, BOOTSTRAP_ROOT_WAIT, BOOTSTRAP_RING,
    INIT_ALLOC_STALL, SYMM_RENDEZVOUS, COLLECTIVE, DONE, ERROR, CRASHED, KILLED
}
