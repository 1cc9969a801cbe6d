package io.ccsim.algorithms.ddp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.DataType;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The measurement file format: what is read, and errors that name the path. */
class StepProfileJsonTest {
    private static final String OK = "{\"world_size\": 2, \"dtype\": \"bfloat16\", \"forward_ms\": 1.5,"
            + " \"backward_compute_ms\": 3, \"params\": [{\"name\": \"w\", \"bytes\": 8, \"ready_ms\": 2.25}],"
            + " \"runs\": [{\"bucket_cap_mb\": 25, \"iteration_ms_median\": 7.5}]}";

    @Test
    void readsTheFieldsInPicoseconds() {
        StepProfile p = StepProfileJson.parse(OK, "f.json");
        assertThat(p.forwardPs()).isEqualTo(1_500_000_000L);
        assertThat(p.backwardPs()).isEqualTo(3_000_000_000L);
        assertThat(p.dtype()).isEqualTo(DataType.BFLOAT16);
        assertThat(p.worldSize()).hasValue(2);
        assertThat(p.gradients()).containsExactly(new Gradient("w", 8, 2_250_000_000L));
        assertThat(p.measured()).containsExactly(new MeasuredRun(25, 7.5, 7.5, 7.5));
    }

    @Test
    void errorsNameTheFileThePathAndWhatIsValid() {
        assertThatThrownBy(() -> StepProfileJson.parse("{\"forward_ms\": 1, \"backward_compute_ms\": 1}", "f.json"))
                .hasMessage("f.json: $.params: missing; valid: an array");
        assertThatThrownBy(() -> StepProfileJson.parse(OK.replace("\"ready_ms\": 2.25", "\"ready_ms\": -1"), "f.json"))
                .hasMessage("f.json: $.params[0].ready_ms: -1 is out of range; valid: a number >= 0");
        assertThatThrownBy(() -> StepProfileJson.parse(OK.replace("\"bytes\": 8", "\"bytes\": \"8\""), "f.json"))
                .hasMessage("f.json: $.params[0].bytes: \"8\" is not a number");
        assertThatThrownBy(() -> StepProfileJson.parse(OK.replace("\"bytes\": 8", "\"bytes\": 7"), "f.json"))
                .hasMessageContaining("f.json: gradient w: 7 bytes is not a whole number of bfloat16 elements");
        assertThatThrownBy(() -> StepProfileJson.parse(OK.replace("\"backward_compute_ms\": 3", "\"backward_compute_ms\": 2"), "f.json"))
                .hasMessageContaining("ends before the latest gradient is ready");
        assertThatThrownBy(() -> StepProfileJson.parse(OK.replace("bfloat16", "bf17"), "f.json"))
                .hasMessageContaining("f.json: $.dtype: unknown data type 'bf17'");
        assertThatThrownBy(() -> StepProfileJson.parse("[1]", "f.json")).hasMessageContaining("f.json: $: expected an object");
    }

    @Test
    void everyCommittedMeasurementReads() throws IOException {
        for (String f : new String[] {"ddp-n2-L12-d2048-B8192.json", "ddp-n2-L48-d512-B4096.json", "ddp-n4-L12-d2048-B8192.json",
                "ddp-n4-L24-d1024-B4096.json", "ddp-n4-L48-d512-B4096.json"}) {
            StepProfile p = BucketAssignerTest.measured(f);
            assertThat(p.measured()).as(f).hasSize(8);
            assertThat(p.worldSize()).as(f).isPresent();
        }
    }
}
