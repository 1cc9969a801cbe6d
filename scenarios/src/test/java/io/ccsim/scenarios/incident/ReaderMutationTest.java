package io.ccsim.scenarios.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Damaged logs and reports, seeded: each mutation of a real NCCL log, PyTorch output and ncclras report (text and
 * JSON) is read to a value or refused with one line naming the file, within two seconds. 6,000 tries in all.
 */
class ReaderMutationTest {
    static final Duration EACH = Duration.ofSeconds(2);
    private static final String ALPHABET = "0123456789[]:/ ->\n\r\t{}\",.\u0000\ufffd\u00e9NCCL INFO WARN rank";
    private static final String[] INSERTS = {"99999999999999999999", "-1", "\n", " NCCL WARN ", "[rank7]:[E", "Init COMPLETE",
        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=", "DistBackendError: NCCL error", "Last error:\n",
        "Communicator ranks have different AllReduce operation counts\n", "Rank 3 has launched up to operation ", "\u0000\u0000"};

    @Test
    void aDamagedNcclLogIsReadOrRefusedClearly() throws Exception {
        String real = Real.text("sleep/nccl_rank0.log");
        Random rnd = new Random(37);
        for (int i = 0; i < 1500; i++) {
            String text = mutate(real, rnd);
            readOrRefuse("f", () -> NcclLog.read("f", -1, text));
        }
    }

    @Test
    void aDamagedTorchOutputIsReadOrRefusedClearly() throws Exception {
        String real = Real.text("skip/stdout_rank0.txt");
        Random rnd = new Random(37);
        for (int i = 0; i < 1500; i++) {
            String text = mutate(real, rnd);
            readOrRefuse("f", () -> TorchLog.read("f", -1, text));
        }
    }

    @Test
    void aDamagedRasTextIsReadOrRefusedClearly() throws Exception {
        String real = Real.text("sleep/ncclras.txt");
        Random rnd = new Random(37);
        for (int i = 0; i < 1500; i++) {
            String text = mutate(real, rnd);
            readOrRefuse("f", () -> NcclRas.readText("f", text));
        }
    }

    @Test
    void aDamagedRasJsonIsReadOrRefusedWithItsPath() throws Exception {
        String real = Real.text("sleep/ncclras.json");
        Random rnd = new Random(37);
        int refused = 0;
        for (int i = 0; i < 1500; i++) {
            JsonObject o = JsonParser.parseString(real).getAsJsonObject();
            int n = 1 + rnd.nextInt(3);
            for (int k = 0; k < n; k++) replaceOne(o, rnd);
            if (!NcclRas.isJson(o)) continue;
            try {
                assertTimeoutPreemptively(EACH, () -> NcclRas.readJson("f", o));
            } catch (IncidentFormatException e) {
                assertOneLine("f", e.getMessage());
                assertThat(e.getMessage()).contains("communicators");
                refused++;
            }
        }
        assertThat(refused).isPositive();
    }

    /** Reads, or expects a one-line refusal naming {@code file}; fails on any other exception or after {@link #EACH}. */
    static void readOrRefuse(String file, Supplier<Object> read) {
        Executable e = () -> {
            try {
                assertThat(read.get()).isNotNull();
            } catch (IncidentFormatException refused) {
                assertOneLine(file, refused.getMessage());
            }
        };
        assertTimeoutPreemptively(EACH, e);
    }

    /** One line, naming {@code file} first, with no Java exception name, short enough to read. */
    static void assertOneLine(String file, String message) {
        assertThat(message).startsWith(file + ":").doesNotContain("\n").doesNotContain("\r")
                .doesNotContainPattern("[A-Za-z](Exception|Error)\\b").doesNotContain("java.").hasSizeLessThan(2000);
    }

    /** 1 to 4 edits: a character, an inserted fragment, a cut, a repeated stretch, a longer number, or the end cut off. */
    static String mutate(String real, Random rnd) {
        StringBuilder sb = new StringBuilder(real);
        int edits = 1 + rnd.nextInt(4);
        for (int k = 0; k < edits && sb.length() > 0; k++) {
            int at = rnd.nextInt(sb.length());
            switch (rnd.nextInt(6)) {
                case 0 -> sb.setCharAt(at, ALPHABET.charAt(rnd.nextInt(ALPHABET.length())));
                case 1 -> sb.insert(at, INSERTS[rnd.nextInt(INSERTS.length)]);
                case 2 -> sb.delete(at, Math.min(sb.length(), at + 1 + rnd.nextInt(200)));
                case 3 -> {
                    int from = rnd.nextInt(sb.length());
                    sb.insert(at, sb.substring(from, Math.min(sb.length(), from + 1 + rnd.nextInt(300))));
                }
                case 4 -> {                                             // a number made too long for its type
                    int d = at;
                    while (d < sb.length() && !Character.isDigit(sb.charAt(d))) d++;
                    sb.insert(d, "9".repeat(1 + rnd.nextInt(25)));
                }
                default -> sb.setLength(at);
            }
        }
        return sb.toString();
    }

    /** Replaces or removes one value somewhere in {@code root} by one of the wrong kind or range. */
    private static void replaceOne(JsonObject root, Random rnd) {
        List<Object[]> slots = new ArrayList<>();
        collect(root, slots);
        Object[] slot = slots.get(rnd.nextInt(slots.size()));
        JsonElement[] wrong = {JsonNull.INSTANCE, new JsonPrimitive("x"), new JsonPrimitive(-1), new JsonPrimitive(1e300),
            new JsonPrimitive(99999999999L), new JsonPrimitive(2.5), new JsonPrimitive(true), new JsonObject(), new JsonArray()};
        JsonElement w = wrong[rnd.nextInt(wrong.length)];
        boolean remove = rnd.nextInt(4) == 0;
        if (slot[0] instanceof JsonObject o) {
            if (remove) o.remove((String) slot[1]);
            else o.add((String) slot[1], w);
        } else {
            JsonArray a = (JsonArray) slot[0];
            int i = (Integer) slot[1];
            if (remove) a.remove(i);
            else a.set(i, w);
        }
    }

    private static void collect(JsonElement e, List<Object[]> slots) {
        if (e instanceof JsonObject o) {
            for (String k : List.copyOf(o.keySet())) {
                slots.add(new Object[] {o, k});
                collect(o.get(k), slots);
            }
        } else if (e instanceof JsonArray a) {
            for (int i = 0; i < a.size(); i++) {
                slots.add(new Object[] {a, i});
                collect(a.get(i), slots);
            }
        }
    }
}
