package io.ccsim.scenarios.job;

import io.ccsim.scenarios.ScenarioFormatException;
import io.ccsim.scenarios.cluster.Cluster;
import io.ccsim.scenarios.format.Fault;
import io.ccsim.scenarios.format.Scenario;
import io.ccsim.scenarios.format.Step;
import io.ccsim.scenarios.format.Units;
import java.util.List;

/**
 * What a scenario asks of GPU memory, checked against its cluster before it runs: every rank's GPU has a memory
 * (the job's {@code gpu_memory} or the topology's {@code memory_bytes}), no collective's tensor is larger than it
 * (the job could not even allocate it, and simulating 100 TiB would run for hours), and no memory-pressure fault
 * takes more than there is. Each error names the JSON path, what was asked, the GPU's memory and what is valid.
 */
final class MemoryChecks {
    private MemoryChecks() {}

    /** @throws ScenarioFormatException at the path of the first value that cannot fit */
    static void check(Scenario s, Cluster cluster) {
        int n = s.job().worldSize();
        long[] capacity = new long[n];
        for (int r = 0; r < n; r++) capacity[r] = capacity(s, cluster, r);
        long least = Long.MAX_VALUE;
        for (long c : capacity) least = Math.min(least, c);
        steps(s, s.job().program(), "$.job.program", least);
        List<Fault> faults = s.faults();
        for (int i = 0; i < faults.size(); i++) {
            Fault f = faults.get(i) instanceof Fault.OnIteration it ? it.fault() : faults.get(i);
            if (f instanceof Fault.MemoryPressure m && m.bytes() > capacity[m.rank()]) {
                throw new ScenarioFormatException(s.name(), "$.faults[" + i + "].bytes", Units.formatBytes(m.bytes())
                        + " is more than the " + Units.formatBytes(capacity[m.rank()]) + " of rank " + m.rank()
                        + "'s GPU; valid: at most the GPU's memory");
            }
        }
    }

    private static long capacity(Scenario s, Cluster cluster, int rank) {
        if (s.job().gpuMemoryBytes() > 0) return s.job().gpuMemoryBytes();
        String m = cluster.gpuMemoryAttribute(rank);
        if (m == null) {
            throw new ScenarioFormatException(s.name(), "$.job.gpu_memory", "the topology gives GPU " + cluster.gpuId(rank)
                    + " no memory_bytes; valid: a gpu_memory such as \"80GiB\", or a topology whose GPUs have memory_bytes"
                    + " (ccsim topology --from-nvidia-smi FILE --gpu-model MODEL)");
        }
        return Long.parseLong(m);
    }

    private static void steps(Scenario s, List<Step> steps, String path, long least) {
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            String p = path + "[" + i + "]";
            if (step instanceof Step.Collective c) {
                long bytes = c.count() > Long.MAX_VALUE / c.dtype().bytes() ? Long.MAX_VALUE : c.count() * c.dtype().bytes();
                if (bytes > least) {
                    throw new ScenarioFormatException(s.name(), p + ".collective", "a tensor of " + Units.formatBytes(bytes)
                            + " does not fit a GPU of " + Units.formatBytes(least) + "; valid: at most the GPU's memory");
                }
            } else if (step instanceof Step.Repeat r) {
                steps(s, r.body(), p + ".repeat.steps", least);
            } else if (step instanceof Step.If f) {
                steps(s, f.then(), p + ".if.then", least);
                steps(s, f.otherwise(), p + ".if.else", least);
            }
        }
    }
}
