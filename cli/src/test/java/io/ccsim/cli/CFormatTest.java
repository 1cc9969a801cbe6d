package io.ccsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** C's printf conversions as glibc prints them (the expected strings are glibc 2.36's output for the same values). */
class CFormatTest {
    @Test
    void fixedRoundsTheExactBinaryValueTiesToEven() {
        assertThat(CFormat.fixed(2.675, 2)).isEqualTo("2.67");   // 2.67499999999999982236431605997495353221893310546875
        assertThat(CFormat.fixed(0.125, 2)).isEqualTo("0.12");   // an exact tie: to even
        assertThat(CFormat.fixed(0.375, 2)).isEqualTo("0.38");
        assertThat(CFormat.fixed(1048576.0, 0)).isEqualTo("1048576");
        assertThat(CFormat.fixed(-0.001, 2)).isEqualTo("-0.00");
        assertThat(CFormat.fixed(Double.NaN, 2)).isEqualTo("nan");
    }

    @Test
    void generalHasSixSignificantDigitsWithoutTrailingZeros() {
        assertThat(CFormat.general(72.7724)).isEqualTo("72.7724");
        assertThat(CFormat.general(66.20583333)).isEqualTo("66.2058");
        assertThat(CFormat.general(12.5)).isEqualTo("12.5");
        assertThat(CFormat.general(100.0)).isEqualTo("100");
        assertThat(CFormat.general(0.0)).isEqualTo("0");
        assertThat(CFormat.general(123456.7)).isEqualTo("123457");
        assertThat(CFormat.general(1234567.0)).isEqualTo("1.23457e+06");
        assertThat(CFormat.general(0.0001234)).isEqualTo("0.0001234");
        assertThat(CFormat.general(0.00001234)).isEqualTo("1.234e-05");
        assertThat(CFormat.general(999999.5)).isEqualTo("1e+06");   // rounds up into the next decade
        assertThat(CFormat.general(237858.0)).isEqualTo("237858");
    }

    @Test
    void fieldIsNcclTestsGetFloatStr() {
        // time (width 7): 2 decimals while they fit, then 1, then none, then %.1e
        assertThat(CFormat.field(40.12, 7)).isEqualTo("  40.12");
        assertThat(CFormat.field(103.8, 7)).isEqualTo(" 103.80");
        assertThat(CFormat.field(1234.567, 7)).isEqualTo("1234.57");
        assertThat(CFormat.field(16288.0, 7)).isEqualTo("16288.0");
        assertThat(CFormat.field(123456.7, 7)).isEqualTo(" 123457");
        assertThat(CFormat.field(12345678.0, 7)).isEqualTo("1.2e+07");
        // bandwidths (width 6)
        assertThat(CFormat.field(0.0, 6)).isEqualTo("  0.00");
        assertThat(CFormat.field(232.81, 6)).isEqualTo("232.81");
        assertThat(CFormat.field(1234.5, 6)).isEqualTo("1234.5");
        assertThat(CFormat.field(123456.0, 6)).isEqualTo("123456");
        assertThat(CFormat.field(1234567.0, 6)).isEqualTo(" 1e+06");
    }
}
