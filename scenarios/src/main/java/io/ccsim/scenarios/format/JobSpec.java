package io.ccsim.scenarios.format;

import java.util.List;
import java.util.Map;

/**
 * The training job of a scenario: one process per rank, rank r on the topology's GPU r, all running
 * {@code program}.
 *
 * @param worldSize       number of ranks (at most the topology's GPUs)
 * @param program         the per-rank program
 * @param values          per-rank values for conditionals: name -> value of each rank
 * @param gpuMemoryBytes  GPU memory per rank in bytes, or 0 for the topology's GPU memory
 * @param eagerInit       init_process_group(device_id=...): the world communicator is created at once
 * @param env             the environment variables ccsim models (symmetric-memory backend selection)
 */
public record JobSpec(int worldSize, List<Step> program, Map<String, double[]> values, long gpuMemoryBytes,
                      boolean eagerInit, JobEnv env) {
    public JobSpec {
        if (worldSize < 1) throw new IllegalArgumentException("world_size must be >= 1, got " + worldSize);
        program = List.copyOf(program);
        values = Map.copyOf(values);
        if (gpuMemoryBytes < 0) throw new IllegalArgumentException("gpu_memory must be >= 0");
        if (env == null) throw new IllegalArgumentException("env must not be null (JobEnv.defaults())");
    }
}
