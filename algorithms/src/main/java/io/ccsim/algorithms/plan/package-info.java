/**
 * Collectives compiled to plans: per (rank, channel, lane) ordered NCCL primitive steps over
 * buffer slices, plus the protocol's flow-control contract (NCCL_STEPS = 8 slots per connection).
 *
 * <p>Entry points: {@link io.ccsim.algorithms.plan.Planners#standard()} and
 * {@link io.ccsim.algorithms.plan.Planners#plan}; a {@link io.ccsim.algorithms.plan.CollectiveCall}
 * (op, count, dtype, redop, root, {@link io.ccsim.algorithms.plan.CommLayout}) and
 * {@link io.ccsim.algorithms.plan.PlanOptions} (algorithm, protocol, channels, buffer, rings) give a
 * {@link io.ccsim.algorithms.plan.Plan}. Executors walk a plan with
 * {@link io.ccsim.algorithms.plan.Plan#stepCount} / {@link io.ccsim.algorithms.plan.Plan#step} into
 * a reusable {@link io.ccsim.algorithms.plan.StepCursor}, or take a flat {@code long[]} per
 * (rank, channel, lane) from {@link io.ccsim.algorithms.plan.Plan#encodeSteps}.
 */
package io.ccsim.algorithms.plan;
