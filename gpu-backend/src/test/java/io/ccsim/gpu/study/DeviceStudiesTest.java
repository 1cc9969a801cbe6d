package io.ccsim.gpu.study;

import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.cuda.CudaUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** Without CUDA every study fails with the one "no CUDA device found" line and writes nothing. */
class DeviceStudiesTest {

    @Test
    void withoutCudaEveryStudySaysNoCudaDeviceFound(@TempDir Path dir) {
        assumeFalse(Cuda.available(), "a CUDA device is present: the no-device path is not testable here");
        List<String> progress = new ArrayList<>();
        DeviceStudies s = new DeviceStudies(new int[] {0, 1}, progress::add);
        List<StudyCall> studies = List.of(s::probe, s::matrix, s::timing, s::fidelity, s::skew, s::calibrate, s::full);
        for (StudyCall study : studies) {
            assertThatThrownBy(() -> study.run(dir)).isInstanceOf(CudaUnavailableException.class)
                    .hasMessageStartingWith(Cuda.NO_DEVICE);
        }
        // only the fidelity sweep announces its schedule before it opens the GPUs
        assertThat(progress).allMatch(l -> l.startsWith("fidelity: "));
        assertThat(dir.toFile().list()).isEmpty();
    }

    @FunctionalInterface
    private interface StudyCall {
        void run(Path outDir) throws Exception;
    }
}
