package io.ccsim.scenarios.incident;

import static io.ccsim.scenarios.incident.ReaderMutationTest.EACH;
import static io.ccsim.scenarios.incident.ReaderMutationTest.assertOneLine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a job directory may hold besides incident files, and input past the readers' limits: recognised, ignored or
 * refused in one line naming the file and the limit, never an exception, an OutOfMemoryError or a hang.
 */
class IncidentInputTest {
    @TempDir Path dir;

    @Test
    void randomBytesAreIgnoredInADirectoryAndRefusedWhenNamed() throws Exception {
        Random rnd = new Random(37);
        Files.copy(Real.path("sleep/nccl_rank0.log"), dir.resolve("nccl_rank0.log"));
        for (int i = 0; i < 200; i++) {
            byte[] b = new byte[rnd.nextInt(4096)];
            rnd.nextBytes(b);
            if (b.length > 2 && i % 4 == 1) { b[0] = (byte) 0x80; b[1] = (byte) (2 + rnd.nextInt(4)); }   // a pickle's start
            if (b.length > 0 && i % 4 == 2) b[0] = '{';
            Path f = dir.resolve("nccl_rank1.log");
            Files.write(f, b);
            assertTimeoutPreemptively(EACH, () -> {
                try {
                    Incident in = IncidentReader.read(List.of(f));
                    assertThat(in.files()).hasSize(1);
                } catch (IncidentFormatException e) {
                    assertOneLine(f.toString(), e.getMessage());
                }
                try {
                    Incident all = IncidentReader.read(List.of(dir));
                    assertThat(all.files()).isNotEmpty();
                } catch (IncidentFormatException e) {
                    assertOneLine(f.toString(), e.getMessage());
                }
            });
        }
    }

    @Test
    void anEmptyFileIsIgnoredInADirectoryAndRefusedWhenNamed() throws Exception {
        Path empty = Files.createFile(dir.resolve("nccl_rank1.log"));
        Files.copy(Real.path("sleep/nccl_rank0.log"), dir.resolve("nccl_rank0.log"));
        assertThat(IncidentReader.read(List.of(dir)).ignored()).containsExactly(empty.toString());
        assertThatThrownBy(() -> IncidentReader.read(List.of(empty))).isInstanceOf(IncidentFormatException.class)
                .hasMessageStartingWith(empty + ": not an incident file");
    }

    @Test
    void aDeviceIsRefusedWithoutReadingIt() {
        Path dev = Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(dev));
        assertTimeoutPreemptively(EACH, () -> assertThatThrownBy(() -> IncidentReader.read(List.of(dev)))
                .isInstanceOf(IncidentFormatException.class).hasMessageStartingWith(dev + ": not a regular file or directory"));
    }

    @Test
    void aHugeSingleLineIsReadInTime() throws Exception {
        String line = "a1".repeat(1 << 20);
        for (String head : new String[] {"", "# nccl-tests version 2.17.6\n", "[rank0]:[E] ", "h:1:2 [0] NCCL INFO "}) {
            Path f = Files.writeString(dir.resolve("out.log"), head + line + " NCCL INFO \n", StandardCharsets.UTF_8);
            assertTimeoutPreemptively(EACH, () -> {
                try {
                    assertThat(IncidentReader.read(List.of(f)).files()).hasSize(1);
                } catch (IncidentFormatException e) {
                    assertOneLine(f.toString(), e.getMessage());
                }
            });
        }
    }

    @Test
    void nonUtf8AndNulBytesInALogAreRead() throws Exception {
        byte[] real = Real.bytes("sleep/nccl_rank0.log");
        Random rnd = new Random(37);
        for (int i = 0; i < 100; i++) {
            byte[] b = real.clone();
            for (int k = 0; k < 20; k++) b[rnd.nextInt(b.length)] = (byte) (k % 2 == 0 ? 0 : 0x80 + rnd.nextInt(128));
            Path f = Files.write(dir.resolve("nccl_rank0.log"), b);
            assertTimeoutPreemptively(EACH, () -> assertThat(IncidentReader.read(List.of(f)).ncclLogs()).hasSize(1));
        }
    }

    @Test
    void aFileAboveTheSizeLimitIsRefusedBeforeItIsRead() throws Exception {
        Path log = Files.copy(Real.path("sleep/nccl_rank0.log"), dir.resolve("nccl_rank0.log"));
        IncidentReader.Limits small = new IncidentReader.Limits(1000, 10);
        assertThatThrownBy(() -> IncidentReader.read(List.of(log), small)).isInstanceOf(IncidentFormatException.class)
                .hasMessageStartingWith(log + ": " + Files.size(log) + " bytes, above the limit of 1000 bytes per file")
                .hasMessageContaining("--max-file-mib");
        Files.copy(Real.path("sleep/nccl_rank1.log"), dir.resolve("nccl_rank1.log"));
        Incident in = IncidentReader.read(List.of(dir), new IncidentReader.Limits(20_000, 10));
        assertThat(in.ncclLogs()).hasSize(1);
        assertThat(in.ignored()).singleElement().asString().startsWith(log + " (").contains("--max-file-mib");
    }

    @Test
    void aDirectoryAboveTheFileCountLimitIsRefusedBeforeItIsRead() throws Exception {
        for (int i = 0; i < 6; i++) Files.writeString(dir.resolve("f" + i), "x");
        assertThatThrownBy(() -> IncidentReader.read(List.of(dir), new IncidentReader.Limits(1 << 20, 5)))
                .isInstanceOf(IncidentFormatException.class)
                .hasMessage(dir + ": more than 5 files, the limit (raise it with --max-files)");
    }

    @Test
    void aPickleDeclaringMoreBytesThanItHoldsIsRefused() {
        // BINUNICODE 'X', BINBYTES 'B' (4-byte lengths), BINBYTES8 0x8e (8-byte length), LONG4 0x8b
        for (byte[] head : new byte[][] {{'X', (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f}, {'B', 0, 0, 0, 0x40},
            {(byte) 0x8e, 0, 0, 0, 0, 0, 1, 0, 0}, {(byte) 0x8b, (byte) 0xf0, (byte) 0xff, (byte) 0xff, 0x7f}}) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write(0x80);
            b.write(4);
            b.writeBytes(head);
            b.writeBytes("abc.".getBytes(StandardCharsets.US_ASCII));
            assertTimeoutPreemptively(EACH, () -> assertThatThrownBy(() -> FlightRecorderPickle.read("f", 0, b.toByteArray()))
                    .isInstanceOf(IncidentFormatException.class).hasMessageContaining("f: ").hasMessageContaining("bytes"));
        }
    }

    @Test
    void aDeeplyNestedPickleIsRefusedWithTheLimit() {
        ByteArrayOutputStream b = pickleDict();
        int depth = 100_000;
        for (int i = 0; i < depth; i++) b.write(']');                   // EMPTY_LIST
        for (int i = 1; i < depth; i++) b.write('a');                   // APPEND: each list into the one below
        b.write('s');                                                   // SETITEM version = the nest
        b.write('.');
        assertTimeoutPreemptively(EACH, () -> assertThatThrownBy(() -> FlightRecorderPickle.read("f", 0, b.toByteArray()))
                .isInstanceOf(IncidentFormatException.class).hasMessageStartingWith("f: ").hasMessageContaining("nested more than"));
    }

    @Test
    void aPickleOfSharedListsIsRefusedWithTheLimit() {
        // L0 = [], L(k+1) = [Lk, Lk]: 30 memo references that expand to 2^30 values
        ByteArrayOutputStream b = pickleDict();
        b.write(']');
        for (int k = 0; k < 30; k++) {
            b.write('q');                                                 // BINPUT k
            b.write(k);
            b.write('0');                                                 // POP
            b.writeBytes(new byte[] {']', '(', 'h', (byte) k, 'h', (byte) k, 'e'});   // [memo k, memo k]
        }
        b.write('s');
        b.write('.');
        assertTimeoutPreemptively(EACH, () -> assertThatThrownBy(() -> FlightRecorderPickle.read("f", 0, b.toByteArray()))
                .isInstanceOf(IncidentFormatException.class).hasMessageStartingWith("f: ").hasMessageContaining("values"));
    }

    /** PROTO 4, EMPTY_DICT, the key "version": a dump's top level waiting for its value. */
    private static ByteArrayOutputStream pickleDict() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(new byte[] {(byte) 0x80, 4, '}', (byte) 0x8c, 7});
        b.writeBytes("version".getBytes(StandardCharsets.US_ASCII));
        return b;
    }
}
