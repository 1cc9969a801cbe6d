package io.ccsim.cli;

/**
 * Where nccl-tests' ranks run: on {@code processes} MPI processes of {@code threads} threads driving {@code gpus} GPUs
 * each, the processes spread evenly over {@code nodes} hosts in order (as {@code mpirun -np P -N P/nodes} places them).
 *
 * <p>nccl-tests (src/common.cu {@code run}, src/util.cu {@code writeDeviceReport} at v2.19.6) numbers rank
 * {@code (process × threads + thread) × gpus + i}, and a process drives the CUDA devices
 * {@code localRank × threads × gpus + j}, localRank being its index among the processes of its host. So the ranks of a
 * host are consecutive and sit on its devices 0, 1, ...: rank r is on node r / ranksPerNode, device r mod ranksPerNode.
 *
 * @param processes MPI processes, at least 1
 * @param threads   threads per process ({@code -t}), at least 1
 * @param gpus      GPUs per thread ({@code -g}), at least 1
 * @param nodes     hosts, at least 1, dividing {@code processes}
 */
record RankPlacement(int processes, int threads, int gpus, int nodes) {

    RankPlacement {
        if (processes < 1 || threads < 1 || gpus < 1 || nodes < 1 || processes % nodes != 0) {
            throw new IllegalArgumentException("invalid placement: " + processes + " processes x " + threads + " threads x " + gpus
                    + " GPUs on " + nodes + " nodes");
        }
    }

    /**
     * The placement of {@code threads × gpus} GPUs per process on boards of {@code boardGpus} GPUs. {@code np} (mpirun's
     * process count) defaults to {@code nodes}, or 1; {@code nodes} defaults to the fewest that {@code np} divides and
     * whose boards hold the ranks.
     *
     * @param np    {@code --np}, or null
     * @param nodes {@code --nodes}, or null
     * @param board the board's name, for messages
     * @throws UserException naming the option, where the processes do not spread evenly or a node's ranks do not fit
     *                       its board
     */
    static RankPlacement of(int threads, int gpus, Integer np, Integer nodes, int boardGpus, String board) {
        if (np != null && np < 1) throw new UserException("--np: invalid " + np + "; valid: 1 or more processes (as mpirun -np)");
        if (nodes != null && nodes < 1) throw new UserException("--nodes: invalid " + nodes + "; valid: 1 or more");
        int p = np != null ? np : nodes != null ? nodes : 1;
        long perProcess = (long) threads * gpus;
        if (perProcess > boardGpus) {
            throw new UserException("-t " + threads + " -g " + gpus + ": one process drives " + perProcess + " GPUs, but a " + board
                    + " node has " + boardGpus + "; run more processes (--np, as mpirun -np) with fewer GPUs each");
        }
        int m;
        if (nodes != null) {
            m = nodes;
            if (p % m != 0) {
                throw new UserException("--np " + p + " on --nodes " + m + ": mpirun places as many processes on every node;"
                        + " valid: a process count that " + m + " divides");
            }
        } else {
            m = (int) Math.max(1, (p * perProcess + boardGpus - 1) / boardGpus);
            while (p % m != 0) m++;
        }
        if (p / m * perProcess > boardGpus) {
            throw new UserException(p / m + " processes x " + perProcess + " GPUs on each of " + m + " nodes: more than the "
                    + boardGpus + " GPUs of a " + board + " node; valid: more --nodes or fewer GPUs per process");
        }
        return new RankPlacement(p, threads, gpus, m);
    }

    /** All ranks: processes × threads × gpus. */
    int ranks() { return processes * threads * gpus; }

    /** Ranks on each node. */
    int ranksPerNode() { return ranks() / nodes; }

    /** The process of {@code rank}. */
    int process(int rank) { return rank / (threads * gpus); }

    /** The node of {@code rank}. */
    int node(int rank) { return rank / ranksPerNode(); }

    /** The CUDA device of {@code rank} on its node. */
    int device(int rank) { return rank % ranksPerNode(); }
}
