package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.comm.GroupRegistry;
import io.ccsim.scenarios.format.SymmBackend;
import java.util.List;

/** What a rank did with symmetric memory, for the analyzer; times in ps since the run started. */
public sealed interface SymmMemRecord {
    /** The global rank it happened on. */
    int rank();

    /**
     * The backend fixed by a rank's first symmetric allocation.
     *
     * @param backend   the backend the allocation used
     * @param option    the setting that chose it, as the job wrote it ("NVFUSER_ENABLE=...", "TORCH_SYMMMEM=NCCL")
     * @param argument  the option's argument as written (null when the backend came from PyTorch's own setting)
     * @param valid     the arguments the option's parser recognizes
     * @param fellBack  whether the argument matched none of them and the parser silently returned its default
     */
    record BackendChoice(int rank, long timePs, SymmBackend backend, String option, String argument, List<String> valid,
                         boolean fellBack) implements SymmMemRecord {
        public BackendChoice {
            valid = List.copyOf(valid);
        }
    }

    /**
     * A rendezvous's {@code resolve_process_group(name)}.
     *
     * @param name       the name looked up
     * @param group      the scenario group the rendezvous was for
     * @param resolved   what the registry returned, or null (not registered)
     * @param registered every registration on that rank at that time
     * @param backend    the rank's symmetric-memory backend
     * @param outcome    what came of it: "ok", "unresolved", "crashed" or "hung"
     */
    record Resolution(int rank, long timePs, String name, String group, GroupRegistry.Registration resolved,
                      List<GroupRegistry.Registration> registered, SymmBackend backend, String outcome) implements SymmMemRecord {
        public Resolution {
            registered = List.copyOf(registered);
        }
    }

    /**
     * A symmetric-memory all-reduce on one rank, from its call to its completion.
     *
     * @param algo    "one_shot" or "two_shot", as called
     * @param backend the tensor's backend; {@link SymmBackend#NATIVE}: it ran as the group's NCCL all-reduce
     * @param bytes   the tensor's size
     */
    record Op(int rank, long startPs, long endPs, String group, String tensor, String algo, SymmBackend backend, long bytes)
            implements SymmMemRecord {
        public long durationPs() { return endPs - startPs; }
    }
}
