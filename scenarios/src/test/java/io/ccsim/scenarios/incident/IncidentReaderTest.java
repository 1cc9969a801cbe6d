package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IncidentReaderTest {

    @Test
    void recognisesEveryFileOfTheSleepCaseByContent() throws Exception {
        Incident inc = IncidentReader.read(List.of(Real.path("sleep")));
        // README: both watchdog pickles, the end-of-job pickles, the JSON dumps, both NCCL logs, both outputs, ncclras text and JSON
        assertThat(inc.dumps()).hasSize(8);
        assertThat(inc.ncclLogs()).extracting(NcclLog::rank).containsExactly(0, 1);
        assertThat(inc.torchLogs()).extracting(TorchLog::rank).containsExactly(0, 1);
        assertThat(inc.ras()).hasSize(2);
        // ncclras.err is empty: not an incident file
        assertThat(inc.ignored()).singleElement().satisfies(f -> assertThat(f).endsWith("ncclras.err"));
        assertThat(inc.dumps()).filteredOn(d -> d.file().endsWith("nccl_trace_rank_1")).singleElement()
                .satisfies(d -> assertThat(d.rank()).isEqualTo(1));
    }

    @Test
    void aRenamedDumpIsStillADumpByContent(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("rank3.bin"), Real.bytes("skip/nccl_trace_rank_0"));
        Files.writeString(dir.resolve("whatever.txt"), Real.text("nccl-tests/all_reduce_g2.txt"));
        Incident inc = IncidentReader.read(List.of(dir));
        assertThat(inc.dumps()).singleElement().satisfies(d -> assertThat(d.rank()).isEqualTo(3));
        assertThat(inc.testRuns()).singleElement().satisfies(r -> assertThat(r.rows()).hasSize(14));
    }

    /*
     * The tests run as root, who can list every directory, so the unreadable subdirectory is a walk that fails as
     * Files.walk does: with an UncheckedIOException while the stream is read. DiagnoseCommand turns the IOException into
     * "cannot read PATH: permission denied".
     */
    @Test
    void anUnreadableSubdirectoryIsAnIoErrorNamingIt(@TempDir Path dir) throws Exception {
        Path sub = dir.resolve("locked");
        Files.writeString(dir.resolve("a.log"), "x");
        IncidentReader.Walk failing = (d, depth) -> Stream.of(dir.resolve("a.log"), sub).map(p -> {
            if (p.equals(sub)) throw new UncheckedIOException(new AccessDeniedException(sub.toString()));
            return p;
        });
        assertThatThrownBy(() -> IncidentReader.regularFiles(dir, 10, failing)).isInstanceOf(AccessDeniedException.class)
                .hasMessage(sub.toString());
        assertThat(IncidentReader.regularFiles(dir, 10, Files::walk)).containsExactly(dir.resolve("a.log"));
    }

    @Test
    void anEmptyDirectoryIsOneClearLine(@TempDir Path dir) {
        assertThatThrownBy(() -> IncidentReader.read(List.of(dir)))
                .isInstanceOf(IncidentFormatException.class)
                .hasMessage(dir + ": no incident files in this directory (it is empty); expected PyTorch flight-recorder dumps (pickle or"
                        + " JSON), NCCL_DEBUG=INFO logs, PyTorch rank output, ncclras reports (text or JSON) or nccl-tests output (text or"
                        + " -J JSON)");
    }

    @Test
    void aDirectoryOfOtherFilesIsAnError(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("README.md"), "# notes\n");
        assertThatThrownBy(() -> IncidentReader.read(List.of(dir))).hasMessageContaining("(1 file(s), none recognised)");
    }

    @Test
    void aJsonThatIsNotADumpNamedOnTheCommandLineIsAnError(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("fr_rank0.json");
        Files.writeString(f, "{\"rows\": [], \"name\": \"x\"}");
        assertThatThrownBy(() -> IncidentReader.read(List.of(f)))
                .isInstanceOf(IncidentFormatException.class)
                .hasMessage(f + ": a JSON object that is not a flight-recorder dump (no 'pg_config' and 'version'), an ncclras report"
                        + " ('communicators') or nccl-tests -J output ('results', 'config'); its keys: rows, name");
        Files.writeString(f, "{\"version\": \"2.10\", \"pg_config\": {}, \"entries\": [");
        assertThatThrownBy(() -> IncidentReader.read(List.of(f))).isInstanceOf(IncidentFormatException.class)
                .hasMessageStartingWith(f + ": not valid JSON: $").hasMessageNotContaining("Exception");
    }

    @Test
    void aDumpWithADuplicateKeyIsRefusedWithItsPath(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("fr_rank0.json");
        Files.writeString(f, "{\"version\": \"2.10\", \"pg_config\": {}, \"version\": \"2.9\", \"entries\": []}");
        assertThatThrownBy(() -> IncidentReader.read(List.of(f))).isInstanceOf(IncidentFormatException.class)
                .hasMessageStartingWith(f + ": not valid JSON: $.version: ").hasMessageContaining("appears twice")
                .hasMessageNotContaining("\n").hasMessageNotContaining("Exception");
        Files.writeString(f, "{\"version\": \"2.10\", /* a comment */ \"pg_config\": {}, \"entries\": []}");
        assertThatThrownBy(() -> IncidentReader.read(List.of(f))).isInstanceOf(IncidentFormatException.class)
                .hasMessageStartingWith(f + ": not valid JSON: $: ");
    }

    @Test
    void aDumpWhoseNameCarriesNoRankIsAnError(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("trace.pkl");
        Files.write(f, Real.bytes("healthy/fr_end_rank0.pkl"));
        assertThatThrownBy(() -> IncidentReader.read(List.of(f))).hasMessageStartingWith(f + ": a flight-recorder dump does not say"
                + " which rank wrote it");
    }

    @Test
    void aMissingPathIsNamed() {
        Path p = Path.of("/nonexistent/incident");
        assertThatThrownBy(() -> IncidentReader.read(List.of(p))).hasMessage("/nonexistent/incident: no such file or directory");
    }

    @Test
    void ncclLinesPrintedIntoAResultRowAreTakenOut() {
        String text = "# head\n"
                + "  1073741824     268435456     float     sum      -1vm:3358:3358 [0] NCCL INFO AllReduce: 1073741824 Bytes -> Algo RING\n"
                + "vm:3358:3358 [0] NCCL INFO AllReduce: 1073741824 Bytes -> Algo RING\n"
                + "  3254.29  329.95  329.95       0vm:3358:3358 [0] NCCL INFO AllReduce: 1073741824 Bytes\n"
                + "  3271.59  328.20  328.20       0\n"
                + "# Out of bounds values : 0 OK";
        assertThat(IncidentReader.withoutNcclLines(text)).isEqualTo("# head\n"
                + "  1073741824     268435456     float     sum      -1 3254.29  329.95  329.95       0 3271.59  328.20  328.20       0\n"
                + "# Out of bounds values : 0 OK");
    }
}
