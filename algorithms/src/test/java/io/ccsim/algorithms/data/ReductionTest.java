package io.ccsim.algorithms.data;

import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReductionTest {

    @Test
    void integersWrapAndCompareBySignedness() {
        Reduction s8 = Reduction.of(DataType.INT8, ReduceOp.SUM, 2);
        assertThat(s8.reduce(127, 1)).isEqualTo(0x80);                   // 127 + 1 wraps to −128
        Reduction p32 = Reduction.of(DataType.UINT32, ReduceOp.PROD, 2);
        assertThat(p32.reduce(0x10000, 0x10000)).isEqualTo(0);            // 2^32 wraps to 0
        assertThat(Reduction.of(DataType.UINT8, ReduceOp.MAX, 2).reduce(200, 100)).isEqualTo(200);
        assertThat(Reduction.of(DataType.INT8, ReduceOp.MAX, 2).reduce(200, 100)).isEqualTo(100); // 200 = −56
        assertThat(Reduction.of(DataType.UINT64, ReduceOp.MIN, 2).reduce(-1L, 5)).isEqualTo(5);
        assertThat(Reduction.of(DataType.INT64, ReduceOp.MIN, 2).reduce(-1L, 5)).isEqualTo(-1L);
    }

    @Test
    void integerAvgIsWrappedSumThenTruncatingDivision() {
        Reduction a = Reduction.of(DataType.INT32, ReduceOp.AVG, 2);
        long sum = a.reduce(a.preOp(-3 & 0xFFFFFFFFL), a.preOp(-4 & 0xFFFFFFFFL));
        assertThat(a.postOp(sum)).isEqualTo(-3 & 0xFFFFFFFFL);            // −7 / 2 = −3 (toward zero)
        Reduction u = Reduction.of(DataType.UINT8, ReduceOp.AVG, 3);
        assertThat(u.postOp(u.reduce(u.reduce(250, 250), 250))).isEqualTo(((250 * 3) & 0xFF) / 3);
    }

    @Test
    void halfAddsRoundEveryOperation() {
        Reduction h = Reduction.of(DataType.FLOAT16, ReduceOp.SUM, 2);
        MiniFloat f = MiniFloat.FLOAT16;
        // 2048 + 1 = 2049 is a tie between 2048 and 2050 in binary16 → even (2048)
        assertThat(f.toDouble((int) h.reduce(f.fromDouble(2048), f.fromDouble(1)))).isEqualTo(2048.0);
        assertThat(f.toDouble((int) h.reduce(f.fromDouble(2048), f.fromDouble(3)))).isEqualTo(2052.0);
        assertThat(f.toDouble((int) h.reduce(f.fromDouble(65504), f.fromDouble(32)))).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void fp8ReducesThroughHalfAndSaturates() {
        MiniFloat e4 = MiniFloat.FP8_E4M3;
        Reduction s = Reduction.of(DataType.FP8_E4M3, ReduceOp.SUM, 2);
        assertThat(s.reduce(e4.fromDouble(448), e4.fromDouble(448))).isEqualTo(0x7E);     // 896 → satfinite 448
        assertThat(s.reduce(e4.fromDouble(1.0), e4.fromDouble(0.0625))).isEqualTo(0x38);  // 1.0625 tie → 1.0
        MiniFloat e5 = MiniFloat.FP8_E5M2;
        Reduction s5 = Reduction.of(DataType.FP8_E5M2, ReduceOp.SUM, 2);
        // 57344 + 57344 overflows half (max 65504) to inf, which satfinite maps to 57344
        assertThat(s5.reduce(e5.fromDouble(57344), e5.fromDouble(57344))).isEqualTo(0x7B);
    }

    @Test
    void floatAvgPremultipliesByTheScalarInTheElementType() {
        // n = 3: s = half(float(1/3)) = 0x3555 = 0.333251953125; 3 × s = 1 − 2^−12 is a tie → 1.0
        Reduction h = Reduction.of(DataType.FLOAT16, ReduceOp.AVG, 3);
        assertThat(h.preOp(MiniFloat.FLOAT16.fromDouble(3.0))).isEqualTo(0x3C00);
        Reduction f = Reduction.of(DataType.FLOAT32, ReduceOp.AVG, 3);
        float x = 0.75f;
        assertThat(Float.intBitsToFloat((int) f.preOp(Float.floatToRawIntBits(x)))).isEqualTo(x * (float) (1.0 / 3));
        assertThat(h.hasPreOp()).isTrue();
        assertThat(h.hasPostOp()).isFalse();
    }

    @Test
    void maxMinIgnoreASingleNaNAndOrderSignedZeros() {
        Reduction mx = Reduction.of(DataType.FLOAT32, ReduceOp.MAX, 2);
        long nan = Float.floatToRawIntBits(Float.NaN) & 0xFFFFFFFFL;
        long one = Float.floatToRawIntBits(1f);
        assertThat(mx.reduce(nan, one)).isEqualTo(one);
        assertThat(mx.reduce(one, nan)).isEqualTo(one);
        long pz = Float.floatToRawIntBits(0f);
        long nz = Float.floatToRawIntBits(-0f) & 0xFFFFFFFFL;
        assertThat(mx.reduce(nz, pz)).isEqualTo(pz);
        assertThat(Reduction.of(DataType.FLOAT32, ReduceOp.MIN, 2).reduce(pz, nz)).isEqualTo(nz);
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> Reduction.of(DataType.FLOAT32, ReduceOp.SUM, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nRanks must be >= 1");
    }
}
