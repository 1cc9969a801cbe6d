package io.ccsim.scenarios.format;

import io.ccsim.scenarios.Outcome;
import io.ccsim.scenarios.diagnosis.Category;
import io.ccsim.scenarios.diagnosis.Diagnosis;
import java.util.List;

/**
 * A parsed scenario file: where it runs, what the job does, what goes wrong, and (for the catalog)
 * what the diagnosis must be.
 *
 * @param name        short name (the file name without .json in the catalog)
 * @param description one paragraph: the incident and its source
 * @param topology    a {@code TopologyCatalog} name, or null when {@code topologyFile} is given
 * @param topologyFile a topology JSON file (the topology module's format), or null
 * @param nodes       hosts (1 = one board)
 * @param gpusPerNode GPUs per board (0 = all of the board's)
 * @param job         the training job
 * @param faults      injected faults
 * @param settings    PyTorch/NCCL settings
 * @param expect      expected outcome and diagnosis, or null
 */
public record Scenario(String name, String description, String topology, java.nio.file.Path topologyFile, int nodes,
                       int gpusPerNode, JobSpec job,
                       List<Fault> faults, Settings settings, Expectation expect) {
    public Scenario {
        faults = List.copyOf(faults);
    }

    /**
     * What the catalog asserts.
     *
     * @param outcome   one of completed, hang, error, corrupted, degraded
     * @param diagnoses expected findings (each must be matched by one of the run's diagnoses)
     */
    public record Expectation(Outcome outcome, List<ExpectedDiagnosis> diagnoses) {
        public Expectation {
            diagnoses = List.copyOf(diagnoses);
        }
    }

    /**
     * An expected finding: a category, ranks and links that must be named (subsets of the finding's).
     */
    public record ExpectedDiagnosis(Category category, List<Integer> ranks, List<String> links) {
        public ExpectedDiagnosis {
            ranks = List.copyOf(ranks);
            links = List.copyOf(links);
        }

        /** Whether {@code d} satisfies this expectation. */
        public boolean matches(Diagnosis d) {
            return d.category() == category && d.ranks().containsAll(ranks) && d.links().containsAll(links);
        }
    }
}
