package io.ccsim.gpu.exec;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.data.ElementBuffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Element bits to little-endian device bytes and back. */
class BytesTest {

    @Test
    void bitsRoundTripLittleEndianForEveryType() {
        for (DataType t : DataType.values()) {
            ElementBuffer b = new ElementBuffer(t, 3);
            long mask = t.bytes() == 8 ? -1L : (1L << (8 * t.bytes())) - 1;
            long[] bits = {0x0102030405060708L & mask, 0, mask};
            for (int i = 0; i < 3; i++) b.setBits(i, bits[i]);
            byte[] raw = Bytes.toBytes(b, t, 3L * t.bytes(), "x");
            assertThat(raw).hasSize(3 * t.bytes());
            assertThat(raw[0]).as(t + ": least significant byte first").isEqualTo((byte) 0x08);
            ElementBuffer back = Bytes.fromBytes(raw, t);
            for (int i = 0; i < 3; i++) assertThat(back.getBits(i)).as(t + " element " + i).isEqualTo(b.getBits(i));
        }
    }

    @Test
    void wrongTypeOrCountIsRefusedNamingTheBuffer() {
        ElementBuffer b = new ElementBuffer(DataType.FLOAT32, 4);
        assertThatThrownBy(() -> Bytes.toBytes(b, DataType.FLOAT16, 8, "input of rank 1"))
                .hasMessage("input of rank 1 is " + DataType.FLOAT32 + ", the program runs " + DataType.FLOAT16);
        assertThatThrownBy(() -> Bytes.toBytes(b, DataType.FLOAT32, 20, "input of rank 1"))
                .hasMessage("input of rank 1 has 4 elements; the plan needs 5");
    }
}
