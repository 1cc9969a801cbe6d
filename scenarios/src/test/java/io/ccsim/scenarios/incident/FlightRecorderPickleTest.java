package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FlightRecorderPickleTest {

    @Test
    void readsTheWatchdogDumpOfTheSkippedCollective() throws Exception {
        FrDump d = FlightRecorderPickle.read("nccl_trace_rank_0", 0, Real.bytes("skip/nccl_trace_rank_0"));
        // rank 0 ran 4 iterations of all-reduce, all-gather, broadcast plus the conditional all-reduce: 13 calls,
        // the last three pending when the watchdog fired at #11 (capture.log, stdout_rank0.txt)
        assertThat(d.entries()).hasSize(13);
        assertThat(d.version()).isEqualTo("2.10");
        FrDump.Group g = d.groups().get("0");
        assertThat(g.desc()).isEqualTo("default_pg");
        assertThat(g.ranks()).containsExactly(0, 1);
        assertThat(g.lastEnqueued()).isEqualTo(13);
        assertThat(g.lastCompleted()).isEqualTo(10);
        FrDump.Entry e = d.entries().get(10);
        assertThat(e.collectiveSeq()).isEqualTo(11);
        assertThat(e.op()).isEqualTo("nccl:all_reduce");
        assertThat(e.state()).isEqualTo("scheduled");
        assertThat(e.numelIn()).isEqualTo(1L << 20);
        assertThat(e.dtype()).isEqualTo("Float");
        assertThat(e.timeoutMs()).isEqualTo(20_000);
        assertThat(e.completedNs()).isEqualTo(-1);
        // an all-gather of 2 ranks: output = 2 x input
        FrDump.Entry ag = d.entries().get(1);
        assertThat(ag.op()).isEqualTo("nccl:_all_gather_base");
        assertThat(ag.numelOut()).isEqualTo(2 * ag.numelIn());
        assertThat(d.hasPending()).isTrue();
    }

    @Test
    void aTruncatedPickleIsOneLineNamingTheFile() throws Exception {
        byte[] whole = Real.bytes("sleep/nccl_trace_rank_1");
        for (int cut : new int[] {2, 100, whole.length / 2, whole.length - 1}) {
            byte[] part = Arrays.copyOf(whole, cut);
            assertThatThrownBy(() -> FlightRecorderPickle.read("x/nccl_trace_rank_1", 1, part))
                    .isInstanceOf(IncidentFormatException.class)
                    .hasMessageStartingWith("x/nccl_trace_rank_1: ")
                    .hasMessageContaining("flight-recorder dump")
                    .satisfies(t -> assertThat(t.getMessage()).doesNotContain("Exception").doesNotContain("\n"));
        }
    }

    @Test
    void aPickleOfAnotherObjectIsNotADump() {
        // pickle.dumps([1, 2], protocol=2)
        byte[] list = {(byte) 0x80, 2, ']', 'q', 0, '(', 'K', 1, 'K', 2, 'e', '.'};
        assertThat(FlightRecorderPickle.looksLike(list)).isTrue();
        assertThatThrownBy(() -> FlightRecorderPickle.read("a.pkl", 0, list))
                .isInstanceOf(IncidentFormatException.class)
                .hasMessage("a.pkl: $: expected a flight-recorder dump (a dict with version, pg_config, entries), got a list");
    }

    @Test
    void textIsNotAPickle() {
        assertThat(FlightRecorderPickle.looksLike("{\"a\": 1}".getBytes())).isFalse();
        assertThat(FlightRecorderPickle.looksLike(new byte[] {(byte) 0x80})).isFalse();
    }
}
