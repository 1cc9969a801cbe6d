package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ddp --mode fsdp} against the FSDP2 steps measured on 2 and 4 x H100 (experiments/fsdp-h100x4): where the
 * units are large enough for the step to be GPU-bound (L12, 64 MiB per Linear) the prediction stays within 12 % of
 * the measured median (measured: -7.8 % and -10.1 %); the output states the host-bound scope it leaves out.
 */
class FsdpValidationTest {
    private static final Path DATA = Path.of("../experiments/fsdp-h100x4");

    @ParameterizedTest
    @ValueSource(strings = {"fsdp-n2-L12-d2048-B8192.json", "fsdp-n4-L12-d2048-B8192.json"})
    void gpuBoundStepsArePredictedWithinTwelvePercent(String file) throws Exception {
        Path f = DATA.resolve(file);
        JsonObject measured = JsonParser.parseString(Files.readString(f)).getAsJsonObject();
        int ranks = measured.get("world_size").getAsInt();
        double median = measured.getAsJsonObject("fsdp").get("iteration_ms_median").getAsDouble();
        CliTest.Result r = CliTest.run("ddp", "--grads", f.toString(), "--topology", "hgx-h100", "--gpus", String.valueOf(ranks),
                "--mode", "fsdp", "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonObject step = JsonParser.parseString(r.out()).getAsJsonObject().getAsJsonObject("step");
        double predicted = step.get("iteration_ms").getAsDouble();
        assertThat(Math.abs(predicted / median - 1)).as("predicted %.2f ms, measured %.2f ms", predicted, median).isLessThan(0.12);
        assertThat(step.get("note").getAsString()).contains("host time per unit is not modelled");
    }
}
