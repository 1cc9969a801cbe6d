package io.ccsim.cli;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.perf.PerfRunner;
import io.ccsim.algorithms.tuner.NcclEnv;

import java.util.Map;
import java.util.function.Supplier;

/**
 * What {@code perf -R 1} does to a simulated run: NCCL registers both buffers of every call, which changes send/recv and
 * all-to-all on one NVLink node ({@link PerfRunner#setRegisteredP2p}) and nothing ccsim models elsewhere.
 *
 * @param registered whether the run's point-to-point calls are simulated on registered buffers
 * @param header     the header line that says what -R 1 did, or null without -R 1
 */
record PerfRegistration(boolean registered, String header) {
    /** Without -R 1. */
    static final PerfRegistration NONE = new PerfRegistration(false, null);

    /**
     * The registration of a perf run of {@code op} with {@code -R register} on {@code nRanks} ranks and the environment
     * {@code env}; {@code runner} builds the communicator's runner where its links must be checked (not otherwise: at
     * 100,000 GPUs its graph takes seconds).
     *
     * @throws UserException where -R 1 asks for NCCL's registered path on a communicator ccsim does not simulate it on
     *                       ({@link PerfRunner#registeredP2pRefusal}), or NCCL_LOCAL_REGISTER is not a number
     */
    static PerfRegistration of(int register, CollectiveOp op, int nRanks, Supplier<PerfRunner> runner, Map<String, String> env) {
        if (register != 1) return NONE;
        if (op != CollectiveOp.SEND_RECV && op != CollectiveOp.ALL_TO_ALL) {
            return new PerfRegistration(false, "# -R 1: registered buffers are simulated for send_recv and all_to_all; "
                    + op.cliName() + "'s times are its unregistered calls'");
        }
        boolean local;
        try {
            local = NcclEnv.registers(env, NcclEnv.NCCL_LOCAL_REGISTER);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage(), e);
        }
        if (!local) return new PerfRegistration(false, "# -R 1: no effect: NCCL_LOCAL_REGISTER=0");
        if (nRanks < 2) { // a send to oneself is a local copy (addP2pToPlan: !selfSend)
            return new PerfRegistration(false, "# -R 1: no effect on one rank: its send to itself is a local copy, which NCCL"
                    + " does not register");
        }
        String why = runner.get().registeredP2pRefusal();
        if (why != null) throw new UserException("-R 1: " + why);
        return new PerfRegistration(true, "# -R 1: both buffers registered with NCCL: a sender writes each channel's part"
                + " into the receiver's buffer, one step, no FIFO (sim.p2p.Simple.registered_channel_bw_gbps, fitted to"
                + " experiments/nccl-tests-h200x4)");
    }
}
