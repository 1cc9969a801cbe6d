package io.ccsim.cli;

import io.ccsim.scenarios.incident.Incident;
import io.ccsim.scenarios.incident.IncidentReader;
import io.ccsim.scenarios.incident.IncidentReport;
import io.ccsim.scenarios.incident.IncidentScenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ccsim diagnose PATH...}: what an incident left behind (flight-recorder dumps, NCCL and PyTorch logs, ncclras
 * reports, nccl-tests output), diagnosed with the analyzer of {@code scenario run} ({@link IncidentReport}).
 */
@Command(name = "diagnose", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Diagnose a real incident from the files it left: PyTorch flight-recorder dumps (pickle or JSON),",
                "NCCL_DEBUG=INFO logs, PyTorch rank output, ncclras reports, nccl-tests output (text or -J JSON). Files are",
                "recognised by content; a directory is read whole. Same analyzer and vocabulary as 'scenario run'.",
                "Exit code 0 whatever the diagnosis; 1 for a file that cannot be read or recognised, or nothing to read."})
final class DiagnoseCommand implements Callable<Integer>, Main.NeedsEnv {
    enum Format { text, json }

    @Spec CommandSpec spec;
    private Map<String, String> env = Map.of();

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "files, or directories holding a job's dumps and logs")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "text|json (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = "--to-scenario", paramLabel = "FILE", description = "also write a scenario file that reproduces the incident"
            + " on a ccsim topology ('ccsim scenario run FILE')")
    Path toScenario;

    @Option(names = "--max-file-mib", paramLabel = "MIB", description = "largest file read, MiB (default: ${DEFAULT-VALUE});"
            + " a file named above it is an error, one in a directory is listed as ignored")
    long maxFileMib = IncidentReader.Limits.DEFAULT.maxFileBytes() >> 20;

    @Option(names = "--max-files", paramLabel = "N", description = "most files read from one directory"
            + " (default: ${DEFAULT-VALUE}); a directory with more is an error")
    int maxFiles = IncidentReader.Limits.DEFAULT.maxFiles();

    @Override
    public void setEnv(Map<String, String> env) { this.env = env; }

    /**
     * The text output's provenance line: the build, and each simulation that judged an nccl-tests run (its topology,
     * profile and NCCL model); a diagnosis read from the files alone simulates nothing.
     */
    static String provenanceText(List<Provenance> simulated) {
        if (simulated.isEmpty()) return "provenance: ccsim " + BuildInfo.current().label() + " (read from the files; nothing simulated)\n";
        StringBuilder b = new StringBuilder();
        for (Provenance p : simulated) b.append("provenance: expectation simulated with ").append(p.text()).append('\n');
        return b.toString();
    }

    /** The report's JSON document with {@code ccsim_version} and the simulations' provenance first. */
    static String withProvenance(String json, List<Provenance> simulated) {
        com.google.gson.JsonObject o = new com.google.gson.JsonObject();
        o.addProperty("ccsim_version", BuildInfo.current().label());
        com.google.gson.JsonArray a = new com.google.gson.JsonArray();
        simulated.forEach(p -> a.add(p.toJson()));
        o.add("simulated_with", a);
        return Provenance.prepend(o, json);
    }

    @Override
    public Integer call() {
        if (maxFileMib < 1 || maxFileMib > (1L << 20)) throw new UserException("--max-file-mib " + maxFileMib + ": expected 1 to 1048576 (MiB)");
        if (maxFiles < 1) throw new UserException("--max-files " + maxFiles + ": expected an integer >= 1");
        Incident incident;
        try {
            incident = IncidentReader.read(paths, new IncidentReader.Limits(maxFileMib << 20, maxFiles));
        } catch (IOException e) {
            throw new UserException("cannot read " + (e.getMessage() == null ? paths : e.getMessage()) + ": " + reason(e), e);
        }
        SimulatedExpectation expectation = new SimulatedExpectation(SimSetup.ncclEnv(env));
        IncidentReport report = IncidentReport.of(incident, expectation);
        PrintWriter out = spec.commandLine().getOut();
        if (toScenario != null) {
            String json = IncidentScenario.write(report, toScenario.getFileName().toString().replaceFirst("\\.json$", ""));
            try {
                Files.writeString(toScenario, json, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UserException("--to-scenario " + toScenario + ": cannot write: " + reason(e), e);
            }
        }
        out.print(format == Format.json ? withProvenance(report.toJson(), expectation.simulated()) + "\n"
                : report.toText() + provenanceText(expectation.simulated()));
        if (toScenario != null && format == Format.text) out.println("scenario written to " + toScenario + " (run: ccsim scenario run " + toScenario + ")");
        out.flush();
        return 0;
    }

    private static String reason(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) return "no such file or directory";
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        return e.getClass().getSimpleName().replace("Exception", "").replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
    }
}
