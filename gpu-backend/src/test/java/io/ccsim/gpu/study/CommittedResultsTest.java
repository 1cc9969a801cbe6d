package io.ccsim.gpu.study;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The committed 4 x H200 run: the fitted profile is valid, the matrix passed, ring Simple reaches 85 % of NCCL. */
class CommittedResultsTest {
    private static final Path DIR = Path.of("target", "test-classes", "experiments", "h200x4");

    @Test
    void fittedProfileIsAValidCalibrationProfile() throws Exception {
        CalibrationProfile p = CalibrationProfile.load(DIR.resolve("profile.json"));
        assertThat(p.gpu()).isEqualTo("H200");
        for (Protocol proto : Protocol.values()) {
            assertThat(p.protocol(proto).baseLatencyUs()).isGreaterThanOrEqualTo(p.kernelLaunchUs());
            assertThat(p.protocol(proto).maxChannelBwGbps()).isPositive();
        }
        assertThat(p.linkEfficiency(LinkClass.NVLINK)).isBetween(0.5, 1.0);
        assertThat(p.fit()).isPresent();
    }

    @Test
    void correctnessMatrixPassedAndRingSimpleReachesEightyFivePercentOfNccl() throws Exception {
        JsonObject m = JsonParser.parseString(Files.readString(DIR.resolve("matrix-summary.json"))).getAsJsonObject();
        assertThat(m.get("fail").getAsInt()).isZero();
        assertThat(m.get("pass").getAsInt()).isEqualTo(1152);

        double nccl = 0;
        for (JsonElement e : JsonParser.parseString(Files.readString(DIR.resolve("nccl-pytorch.json"))).getAsJsonArray()) {
            JsonObject r = e.getAsJsonObject();
            if (r.get("bytes").getAsLong() == 512L << 20) nccl = r.get("busbw_gbps").getAsDouble();
        }
        double ccsim = 0;
        JsonArray rows = JsonParser.parseString(Files.readString(DIR.resolve("timing.json"))).getAsJsonArray();
        for (JsonElement e : rows) {
            JsonObject r = e.getAsJsonObject();
            if (r.get("set").getAsString().equals("all_reduce_sweep") && r.get("algo").getAsString().equals("Ring")
                    && r.get("proto").getAsString().equals("Simple") && r.get("bytes").getAsLong() == 512L << 20) {
                ccsim = r.get("busbw_gbps").getAsDouble();
                // busbw = bytes / time × 2(n−1)/n with n = 4
                double expect = (512L << 20) / (r.get("time_us").getAsDouble() * 1e-6) / 1e9 * 2 * 3 / 4;
                assertThat(ccsim).isCloseTo(expect, org.assertj.core.api.Assertions.within(0.01));
            }
        }
        assertThat(nccl).isPositive();
        assertThat(ccsim / nccl).isGreaterThanOrEqualTo(0.85);
    }
}
