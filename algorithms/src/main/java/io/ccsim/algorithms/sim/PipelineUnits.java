package io.ccsim.algorithms.sim;

import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.StepCursor;
import io.ccsim.algorithms.profile.CalibrationProfile;

/**
 * The forwarding units a worker moves: the sub-transfers of its steps ({@link StepCosts}: a step of B data bytes moves
 * as ceil(B / pipeline_bytes) of them, one after another), which is the length of the train a pipelined chain sends
 * down its ranks (a ring broadcast's or reduce's chunks, cut through hop by hop).
 */
public final class PipelineUnits {
    private PipelineUnits() { }

    /**
     * The sub-transfers of every step of {@code rank} on {@code channel} (lane 0) of {@code plan}, under the forwarding
     * unit {@code profile} gives the plan's algorithm, op and protocol.
     *
     * @throws IllegalArgumentException if the rank or channel is not the plan's
     */
    public static long of(CalibrationProfile profile, Plan plan, int rank, int channel) {
        StepCosts costs = StepCosts.of(profile, plan);
        int bytesPerElement = plan.call().dtype().bytes();
        StepCursor c = new StepCursor(plan.maxPeers());
        long units = 0;
        for (int i = 0, n = plan.stepCount(rank, channel, 0); i < n; i++) {
            plan.step(rank, channel, 0, i, c);
            units += costs.units((long) c.count() * bytesPerElement);
        }
        return units;
    }
}
