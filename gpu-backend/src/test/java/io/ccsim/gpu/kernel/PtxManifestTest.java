package io.ccsim.gpu.kernel;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** The committed PTX must come from the committed CUDA source: no nvcc needed to check. */
class PtxManifestTest {
    private static final Path CU = Path.of("src/main/cuda/ccsim_prims.cu");

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    @Test
    void sourceHashMatchesManifestAndEveryModuleHeader() throws Exception {
        assertThat(CU).as("test runs in the module directory").exists();
        String actual = sha256(Files.readAllBytes(CU));
        Properties m = Ptx.manifest();
        assertThat(m.getProperty("source.sha256"))
                .as("ccsim_prims.cu changed but its PTX was not rebuilt: run gpu-backend/src/main/cuda/build-ptx.sh")
                .isEqualTo(actual);
        for (DataType t : DataType.values()) {
            assertThat(Ptx.header(t)).as("header of " + Ptx.resource(t))
                    .isEqualTo("// ccsim-source: ccsim_prims.cu sha256=" + actual + " type=" + Ptx.typeTag(t));
        }
    }

    @Test
    void moduleHashesMatchManifest() throws Exception {
        Properties m = Ptx.manifest();
        for (DataType t : DataType.values()) {
            assertThat(sha256(Ptx.read(Ptx.resource(t))))
                    .as("PTX module " + Ptx.resource(t) + " edited by hand or stale")
                    .isEqualTo(m.getProperty("ptx." + Ptx.typeTag(t) + ".sha256"));
        }
    }

    @Test
    void everyKernelTheExecutorCanAskForIsInItsModule() {
        for (DataType t : DataType.values()) {
            String ptx = new String(Ptx.read(Ptx.resource(t)), java.nio.charset.StandardCharsets.US_ASCII);
            assertThat(ptx).contains(".target sm_90");
            for (Protocol p : Protocol.values()) {
                for (ReduceOp op : ReduceOp.values()) {
                    assertThat(ptx).contains(".entry " + Ptx.kernelName(p, t, op) + "(");
                }
            }
        }
    }
}
