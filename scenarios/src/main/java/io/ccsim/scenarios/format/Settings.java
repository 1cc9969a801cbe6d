package io.ccsim.scenarios.format;

/**
 * The knobs of the system layer, with PyTorch's and NCCL's defaults (see {@link #defaults()}).
 *
 * @param collectiveTimeoutPs  ProcessGroupNCCL op timeout (init_process_group(timeout=...)), ps
 * @param storeTimeoutPs       store get/wait timeout, ps
 * @param heartbeatTimeoutPs   TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC, ps
 * @param blockingWait         TORCH_NCCL_BLOCKING_WAIT: the timeout is raised in the waiting thread
 * @param asyncErrorHandling   TORCH_NCCL_ASYNC_ERROR_HANDLING (0 none, 1 tear down, 2 clean up only, 3 skip clean up)
 * @param ranksPerRoot         TORCH_NCCL_RANKS_PER_ROOT: scalable init when a group is larger
 * @param scopedScalableKeys   true: UniqueNCCLID keys prefixed by the communicator counter (PR #178493)
 * @param retryCount           NCCL_RETRY_CNT: socket connect retries on refusal
 * @param storeLatencyPs       one-way latency from a rank to the store server, ps
 * @param bootstrapLatencyPs   one-way latency of a bootstrap socket message, ps
 * @param channels             NCCL channels per communicator (buffers and rings)
 * @param ibTimeout            NCCL_IB_TIMEOUT exponent: an IB retransmission after 4.096 us x 2^t
 * @param ibRetryCount         NCCL_IB_RETRY_CNT
 * @param maxRestarts          torchrun --max-restarts (0 = no elastic restart)
 * @param restartDelayPs       time for the elastic agent to stop and relaunch workers, ps
 * @param horizonPs            the run stops here at the latest, ps
 * @param ncclEnv              NCCL_* environment variables of the job (NCCL_ALGO, NCCL_PROTO, ...), read with
 *                             NCCL's grammar by the tuner; empty by default
 */
public record Settings(long collectiveTimeoutPs, long storeTimeoutPs, long heartbeatTimeoutPs,
                       boolean blockingWait, int asyncErrorHandling, int ranksPerRoot,
                       boolean scopedScalableKeys, int retryCount, long storeLatencyPs,
                       long bootstrapLatencyPs, int channels, int ibTimeout, int ibRetryCount,
                       int maxRestarts, long restartDelayPs, long horizonPs,
                       java.util.Map<String, String> ncclEnv) {

    /**
     * Defaults: op timeout 10 min (ProcessGroupNCCL's kProcessGroupNCCLDefaultTimeout); store timeout
     * 10 min (init_process_group passes its timeout to the store); heartbeat 480 s
     * (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC); async error handling 3 (SkipCleanUp, the default since
     * PyTorch 2.2); ranks per root 128 (TORCH_NCCL_RANKS_PER_ROOT); NCCL_RETRY_CNT 34
     * (misc/socket.cc); NCCL_IB_TIMEOUT 20 and NCCL_IB_RETRY_CNT 7 (NCCL env docs); 16 channels;
     * horizon 2 h.
     */
    public static Settings defaults() {
        return new Settings(Units.s(600), Units.s(600), Units.s(480), false, 3, 128, false, 34,
                Units.PS_PER_US * 30, Units.PS_PER_US * 20, 16, 20, 7, 0, Units.s(30), Units.s(7200), java.util.Map.of());
    }

    /** Rejects values outside their domains, naming the field and the valid range. */
    public Settings {
        positive("collective_timeout", collectiveTimeoutPs);
        positive("store_timeout", storeTimeoutPs);
        positive("heartbeat_timeout", heartbeatTimeoutPs);
        if (asyncErrorHandling < 0 || asyncErrorHandling > 3) {
            throw new IllegalArgumentException("async_error_handling must be 0, 1, 2 or 3, got " + asyncErrorHandling);
        }
        if (ranksPerRoot < 1) throw new IllegalArgumentException("ranks_per_root must be >= 1, got " + ranksPerRoot);
        if (retryCount < 0) throw new IllegalArgumentException("retry_count must be >= 0, got " + retryCount);
        if (storeLatencyPs < 0 || bootstrapLatencyPs < 0) throw new IllegalArgumentException("latencies must be >= 0");
        if (channels < 1 || channels > 64) throw new IllegalArgumentException("channels must be in 1..64, got " + channels);
        if (ibTimeout < 1 || ibTimeout > 31) throw new IllegalArgumentException("ib_timeout must be in 1..31, got " + ibTimeout);
        if (ibRetryCount < 0 || ibRetryCount > 7) throw new IllegalArgumentException("ib_retry_count must be in 0..7, got " + ibRetryCount);
        if (maxRestarts < 0) throw new IllegalArgumentException("max_restarts must be >= 0, got " + maxRestarts);
        if (restartDelayPs < 0) throw new IllegalArgumentException("restart_delay must be >= 0");
        positive("horizon", horizonPs);
        ncclEnv = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(ncclEnv));
        nccl(ncclEnv, channels); // validates the variables with NCCL's grammar
    }

    /**
     * The NCCL environment the collectives run with: {@link #ncclEnv()}, with NCCL_MAX_NCHANNELS = {@link #channels()}
     * unless the job sets it.
     *
     * @throws IllegalArgumentException naming the variable and its valid values (NCCL's grammar)
     */
    public io.ccsim.algorithms.tuner.NcclEnv nccl() { return nccl(ncclEnv, channels); }

    private static io.ccsim.algorithms.tuner.NcclEnv nccl(java.util.Map<String, String> ncclEnv, int channels) {
        java.util.Map<String, String> m = new java.util.TreeMap<>(ncclEnv);
        m.putIfAbsent("NCCL_MAX_NCHANNELS", Integer.toString(channels));
        try {
            return io.ccsim.algorithms.tuner.NcclEnv.parse(m);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("nccl_env: " + e.getMessage(), e);
        }
    }

    private static void positive(String name, long v) {
        if (v <= 0) throw new IllegalArgumentException(name + " must be > 0, got " + v + " ps");
    }

    /**
     * The IB local ACK timeout: 4.096 us x 2^NCCL_IB_TIMEOUT (InfiniBand spec, as NCCL documents
     * NCCL_IB_TIMEOUT), in ps.
     */
    public long ibAckTimeoutPs() { return 4_096_000L << ibTimeout; }

    /**
     * How long an IB queue pair survives a dead link before it errors: the first transmission and
     * {@code ibRetryCount} retransmissions each wait one ACK timeout.
     */
    public long ibGiveUpPs() { return ibAckTimeoutPs() * (ibRetryCount + 1L); }
}
