package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NcclRasTest {

    @Test
    void textAndJsonGiveTheSameCountsOfTheSleepingRank() throws Exception {
        String text = Real.text("sleep/ncclras.txt");
        assertThat(NcclRas.isText(text)).isTrue();
        NcclRas t = NcclRas.readText("ncclras.txt", text);
        NcclRas j = NcclRas.readJson("ncclras.json", JsonParser.parseString(Real.text("sleep/ncclras.json")).getAsJsonObject());
        assertThat(t.version()).isEqualTo("2.28.9");
        assertThat(j.version()).isEqualTo("2.28.9");
        // 12 s into the hang: rank 0 at operation 4 of each collective, rank 1 (asleep) at AllReduce 3, the others 2
        Map<Integer, List<String>> behind = Map.of(1, List.of("AllGather 2 of 4", "AllReduce 3 of 4", "Broadcast 2 of 4"));
        assertThat(t.behind()).isEqualTo(behind);
        assertThat(j.behind()).isEqualTo(behind);
        assertThat(j.counts().get(0)).containsEntry("AllReduce", 4L).containsEntry("ReduceScatter", 0L);
        assertThat(j.missing()).isEmpty();
        assertThat(t.where().get(1)).isEqualTo("ncclras.txt:27");
    }

    @Test
    void aMalformedCountNamesItsPath() {
        String s = "{\"nccl_version\": \"2.28.9\", \"communicators\": [{\"ranks\": [{\"rank\": 0, \"collective_counts\": {\"AllReduce\": \"x\"}}]}]}";
        assertThatThrownBy(() -> NcclRas.readJson("r.json", JsonParser.parseString(s).getAsJsonObject()))
                .isInstanceOf(IncidentFormatException.class)
                .hasMessage("r.json: communicators[0].ranks[0].collective_counts.AllReduce: expected an integer >= 0, got \"x\"");
    }
}
