package io.ccsim.algorithms.data;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MiniFloatTest {
    private static final MiniFloat H = MiniFloat.FLOAT16;
    private static final MiniFloat B = MiniFloat.BFLOAT16;
    private static final MiniFloat E4 = MiniFloat.FP8_E4M3;
    private static final MiniFloat E5 = MiniFloat.FP8_E5M2;

    @Test
    void float16KnownPatterns() {
        assertThat(H.fromDouble(1.0)).isEqualTo(0x3C00);
        assertThat(H.fromDouble(-2.0)).isEqualTo(0xC000);
        assertThat(H.fromDouble(65504.0)).isEqualTo(0x7BFF);
        assertThat(H.fromDouble(65519.0)).isEqualTo(0x7BFF);            // below the midpoint 65520
        assertThat(H.fromDouble(65520.0)).isEqualTo(0x7C00);            // tie rounds to even = 2^16 = overflow → inf
        assertThat(H.fromDouble(Double.POSITIVE_INFINITY)).isEqualTo(0x7C00);
        assertThat(H.fromDouble(Double.NaN)).isEqualTo(0x7FFF);
        assertThat(H.fromDouble(Math.scalb(1.0, -24))).isEqualTo(0x0001); // smallest subnormal
        assertThat(H.fromDouble(Math.scalb(1.0, -25))).isEqualTo(0x0000); // tie with 0 → even (0)
        assertThat(H.fromDouble(1.5 * Math.scalb(1.0, -25))).isEqualTo(0x0001);
        assertThat(H.fromDouble(-0.0)).isEqualTo(0x8000);
        assertThat(H.fromDouble(1.0 / 3)).isEqualTo(0x3555);
        assertThat(H.fromDouble(1 + Math.scalb(1.0, -11))).isEqualTo(0x3C00);     // tie → even mantissa 0
        assertThat(H.fromDouble(1 + 3 * Math.scalb(1.0, -11))).isEqualTo(0x3C02); // tie → even mantissa 2
        assertThat(H.toDouble(0x3555)).isEqualTo(0.333251953125);
        assertThat(H.toDouble(0x7C00)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(H.toDouble(0x7E00)).isNaN();
        assertThat(H.maxFinite()).isEqualTo(65504.0);
    }

    @Test
    void bfloat16KnownPatterns() {
        assertThat(B.fromDouble(1.0)).isEqualTo(0x3F80);
        assertThat(B.fromDouble(Math.PI)).isEqualTo(0x4049);            // 3.140625
        assertThat(B.toDouble(0x4049)).isEqualTo(3.140625);
        assertThat(B.fromDouble(1 + Math.scalb(1.0, -8))).isEqualTo(0x3F80);
        assertThat(B.fromDouble(1 + 3 * Math.scalb(1.0, -8))).isEqualTo(0x3F82);
        assertThat(B.fromDouble(Float.MAX_VALUE)).isEqualTo(0x7F80);   // rounds past the max → inf
        assertThat(B.toDouble(0x7F7F)).isEqualTo((2 - Math.scalb(1.0, -7)) * Math.scalb(1.0, 127));
        assertThat(B.fromDouble(Float.MIN_NORMAL)).isEqualTo(0x0080);
        assertThat(B.fromDouble(Double.NaN)).isEqualTo(0x7FFF);
    }

    @Test
    void e4m3KnownPatternsAndSaturation() {
        assertThat(E4.fromDouble(1.0)).isEqualTo(0x38);
        assertThat(E4.fromDouble(448.0)).isEqualTo(0x7E);
        assertThat(E4.fromDouble(480.0)).isEqualTo(0x7E);               // satfinite
        assertThat(E4.fromDouble(1e6)).isEqualTo(0x7E);
        assertThat(E4.fromDouble(Double.POSITIVE_INFINITY)).isEqualTo(0x7E);
        assertThat(E4.fromDouble(Double.NEGATIVE_INFINITY)).isEqualTo(0xFE);
        assertThat(E4.fromDouble(Double.NaN)).isEqualTo(0x7F);
        assertThat(E4.fromDouble(Math.scalb(1.0, -9))).isEqualTo(0x01);
        assertThat(E4.fromDouble(Math.scalb(1.0, -6))).isEqualTo(0x08);
        assertThat(E4.fromDouble(7 * Math.scalb(1.0, -9))).isEqualTo(0x07);
        assertThat(E4.fromDouble(1.0625)).isEqualTo(0x38);               // tie → even
        assertThat(E4.fromDouble(1.1875)).isEqualTo(0x3A);               // tie → even (1.25)
        assertThat(E4.toDouble(0x7E)).isEqualTo(448.0);
        assertThat(E4.toDouble(0x7F)).isNaN();
        assertThat(E4.toDouble(0xFF)).isNaN();
        assertThat(E4.toDouble(0x78)).isEqualTo(256.0);                  // exponent field 15 is normal in e4m3
        assertThat(E4.maxFinite()).isEqualTo(448.0);
    }

    @Test
    void e5m2KnownPatternsAndSaturation() {
        assertThat(E5.fromDouble(1.0)).isEqualTo(0x3C);
        assertThat(E5.fromDouble(57344.0)).isEqualTo(0x7B);
        assertThat(E5.fromDouble(Double.POSITIVE_INFINITY)).isEqualTo(0x7B);
        assertThat(E5.fromDouble(-1e9)).isEqualTo(0xFB);
        assertThat(E5.fromDouble(Double.NaN)).isEqualTo(0x7F);
        assertThat(E5.toDouble(0x7C)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(E5.fromDouble(Math.scalb(1.0, -16))).isEqualTo(0x01);
        assertThat(E5.fromDouble(1.125)).isEqualTo(0x3C);
        assertThat(E5.fromDouble(1.375)).isEqualTo(0x3E);
        assertThat(E5.maxFinite()).isEqualTo(57344.0);
    }

    @Test
    void everyFiniteValueRoundTrips() {
        for (MiniFloat f : MiniFloat.values()) {
            int count = 1 << f.bits();
            for (int b = 0; b < count; b++) {
                double v = f.toDouble(b);
                if (Double.isNaN(v)) continue;
                if (Double.isInfinite(v) && f.saturating()) continue;
                assertThat(f.fromDouble(v)).as("%s bits 0x%x = %s", f, b, v).isEqualTo(b);
            }
        }
    }

    @Test
    void roundingIsToNearestForEveryMidpointNeighbourhood() {
        // For each pair of adjacent finite values a < b, a point just above the midpoint goes to b,
        // just below goes to a.
        for (MiniFloat f : new MiniFloat[] {MiniFloat.FP8_E4M3, MiniFloat.FP8_E5M2, MiniFloat.FLOAT16}) {
            for (int b = 0; b < (1 << (f.bits() - 1)) - 1; b++) {
                double lo = f.toDouble(b);
                double hi = f.toDouble(b + 1);
                if (Double.isNaN(hi) || Double.isInfinite(hi)) break;
                double mid = (lo + hi) / 2;
                double eps = (hi - lo) / 64;
                assertThat(f.fromDouble(mid + eps)).isEqualTo(b + 1);
                assertThat(f.fromDouble(mid - eps)).isEqualTo(b);
                assertThat(f.fromDouble(mid)).isEqualTo((b & 1) == 0 ? b : b + 1);
            }
        }
    }
}
