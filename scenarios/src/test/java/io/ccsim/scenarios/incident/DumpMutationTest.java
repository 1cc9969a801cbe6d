package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Damaged dumps, as a crashed rank or a copy cut short leaves them: every flipped byte or cut of a real dump is read,
 * or refused with an {@link IncidentFormatException}, never another exception.
 */
class DumpMutationTest {

    @Test
    void aDamagedPickleIsReadOrRefusedClearly() throws Exception {
        byte[] real = Real.bytes("skip/nccl_trace_rank_0");
        Random rnd = new Random(32);
        int refused = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] b = real.clone();
            int flips = 1 + rnd.nextInt(4);
            for (int f = 0; f < flips; f++) b[2 + rnd.nextInt(b.length - 2)] = (byte) rnd.nextInt(256);
            if (rnd.nextBoolean()) b = java.util.Arrays.copyOf(b, 2 + rnd.nextInt(b.length - 2));
            try {
                FrDump d = FlightRecorderPickle.read("f", 0, b);
                assertThat(d.entries().size()).isLessThanOrEqualTo(13);
            } catch (IncidentFormatException e) {
                assertThat(e.getMessage()).startsWith("f: ").doesNotContain("\n");
                refused++;
            }
        }
        assertThat(refused).isPositive();
    }

    @Test
    void aDamagedJsonDumpIsReadOrRefusedClearly() throws Exception {
        String real = Real.text("sleep/fr_hang_rank0.json");
        Random rnd = new Random(32);
        String alphabet = "{}[]\":,0123456789-. abcnull";
        for (int i = 0; i < 3000; i++) {
            StringBuilder sb = new StringBuilder(real);
            int at = rnd.nextInt(sb.length());
            sb.setCharAt(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
            JsonObject o;
            try {
                o = JsonParser.parseString(sb.toString()).getAsJsonObject();
            } catch (JsonParseException | IllegalStateException notJson) {
                continue;   // the reader's JSON stage words this itself (IncidentReaderTest)
            }
            try {
                FlightRecorderJson.read("f", 0, o);
            } catch (IncidentFormatException e) {
                assertThat(e.getMessage()).startsWith("f: ").doesNotContain("\n");
            }
        }
    }
}
