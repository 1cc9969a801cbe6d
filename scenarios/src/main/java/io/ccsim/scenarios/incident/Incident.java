package io.ccsim.scenarios.incident;

import io.ccsim.algorithms.measurements.MeasuredRow;
import java.util.List;

/**
 * Everything {@link IncidentReader} read from what an incident left behind, grouped by reader.
 *
 * @param dumps      flight-recorder dumps (pickle and JSON), in path order
 * @param ncclLogs   {@code NCCL_DEBUG=INFO} logs
 * @param torchLogs  PyTorch rank outputs
 * @param ras        ncclras reports
 * @param testRuns   nccl-tests outputs
 * @param files      every file read, with what it was taken for
 * @param ignored    files of a directory that none of the readers recognised
 */
public record Incident(List<FrDump> dumps, List<NcclLog> ncclLogs, List<TorchLog> torchLogs, List<NcclRas> ras,
                       List<TestRun> testRuns, List<FileRead> files, List<String> ignored) {
    public Incident {
        dumps = List.copyOf(dumps);
        ncclLogs = List.copyOf(ncclLogs);
        torchLogs = List.copyOf(torchLogs);
        ras = List.copyOf(ras);
        testRuns = List.copyOf(testRuns);
        files = List.copyOf(files);
        ignored = List.copyOf(ignored);
    }

    /**
     * A file and what it was read as.
     *
     * @param file   its path as given
     * @param kind   {@code flight recorder (pickle)}, {@code NCCL log}, ...
     * @param rank   the rank it belongs to, -1 if none or unknown
     * @param detail a short description ({@code 13 entries, 3 pending})
     */
    public record FileRead(String file, String kind, int rank, String detail) {}

    /**
     * An nccl-tests output.
     *
     * @param file where it was read
     * @param rows       its measured rows (the parser of {@code ccsim validate})
     * @param transports the transports its NCCL_DEBUG=INFO lines name ({@code P2P/CUMEM}, {@code NET/Socket}), sorted; empty if none
     */
    public record TestRun(String file, List<MeasuredRow> rows, java.util.Set<String> transports) {
        public TestRun {
            rows = List.copyOf(rows);
            transports = java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(transports));
        }
    }
}
