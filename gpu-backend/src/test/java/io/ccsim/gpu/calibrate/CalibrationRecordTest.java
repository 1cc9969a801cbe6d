package io.ccsim.gpu.calibrate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The raw measurements file keeps the measuring order and writes NaN; residuals stay apart. */
class CalibrationRecordTest {

    @Test
    void rawValuesAreWrittenInMeasuringOrderAndResidualsKeptApart(@TempDir Path dir) throws Exception {
        CalibrationRecord m = new CalibrationRecord();
        m.put("kernel_launch_us", 4.5);
        m.put("p2p_LL", List.of(new double[] {4096, 7.25}));
        m.put("eager_launch_us", Double.NaN);
        m.residual("p2p_LL_median_rel_err", 0.01);
        Path f = dir.resolve("profile.json.measurements.json");
        m.write(f);
        String json = Files.readString(f);
        assertThat(json).isEqualTo("{\n  \"kernel_launch_us\": 4.5,\n  \"p2p_LL\": [\n    [\n      4096.0,\n      7.25\n    ]\n  ],\n"
                + "  \"eager_launch_us\": NaN\n}");
        assertThat(m.residuals()).containsExactly(java.util.Map.entry("p2p_LL_median_rel_err", 0.01));
    }
}
