package io.ccsim.scenarios.incident;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The real incident artifacts of experiments/incidents-h100x2 (on the test class path under incidents-h100x2/). */
final class Real {
    private Real() {}

    static Path path(String rel) {
        try {
            return Path.of(Real.class.getResource("/incidents-h100x2/" + rel).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] bytes(String rel) throws IOException {
        return Files.readAllBytes(path(rel));
    }

    static String text(String rel) throws IOException {
        return Files.readString(path(rel));
    }

    /** The report of a case folder, nccl-tests judged by {@code expectation}. */
    static IncidentReport report(String folder, IncidentTrace.Expectation expectation) throws IOException {
        return IncidentReport.of(IncidentReader.read(List.of(path(folder))), expectation);
    }
}
