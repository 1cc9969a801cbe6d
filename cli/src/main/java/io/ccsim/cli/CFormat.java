package io.ccsim.cli;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * C's {@code printf} conversions that nccl-tests' output uses, digit for digit: glibc rounds the exact binary value of a
 * double to the nearest decimal (ties to even), where Java's {@code %f} rounds its shortest decimal form half up
 * (2.675 prints 2.68 in Java, 2.67 in C).
 */
final class CFormat {
    private CFormat() {}

    /** {@code %.Nf}: {@code v} with {@code decimals} digits after the point ({@code nan}, {@code inf} as glibc prints them). */
    static String fixed(double v, int decimals) {
        if (Double.isNaN(v)) return "nan";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        String s = new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        return v < 0 || (v == 0 && 1 / v < 0) ? (s.startsWith("-") ? s : "-" + s) : s;
    }

    /** {@code %.Ne}: one digit, the point, {@code decimals} digits, {@code e}, the exponent's sign and at least two digits. */
    static String exponential(double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return fixed(v, 0);
        if (v == 0) return (1 / v < 0 ? "-" : "") + fixed(0, decimals) + "e+00";
        BigDecimal r = new BigDecimal(Math.abs(v)).round(new MathContext(decimals + 1, RoundingMode.HALF_EVEN));
        int exp = r.precision() - r.scale() - 1;
        String digits = r.unscaledValue().toString();
        while (digits.length() < decimals + 1) digits += "0";
        String mantissa = decimals == 0 ? digits.substring(0, 1) : digits.charAt(0) + "." + digits.substring(1, decimals + 1);
        return (v < 0 ? "-" : "") + mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    }

    /**
     * {@code %g}: six significant digits, in fixed notation where the exponent is in [-4, 6), else exponential, trailing
     * zeros and a trailing point removed.
     */
    static String general(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return fixed(v, 0);
        if (v == 0) return 1 / v < 0 ? "-0" : "0";
        BigDecimal r = new BigDecimal(Math.abs(v)).round(new MathContext(6, RoundingMode.HALF_EVEN));
        int exp = r.precision() - r.scale() - 1;
        if (exp >= -4 && exp < 6) return stripZeros(fixed(v, 5 - exp));
        String e = exponential(v, 5);
        int at = e.indexOf('e');
        return stripZeros(e.substring(0, at)) + e.substring(at);
    }

    /**
     * nccl-tests' {@code getFloatStr} (src/util.cu): {@code v} right-aligned in {@code width} characters with 2
     * decimals, else 1, else none, else in exponential form ({@code %.1e} from width 7, {@code %.0e} below), whichever
     * first fits. A value that fits in no form is returned longer than {@code width}.
     */
    static String field(double v, int width) {
        for (int decimals = 2; decimals >= 0; decimals--) {
            String s = fixed(v, decimals);
            if (s.length() <= width) return pad(s, width);
        }
        return pad(exponential(v, width >= 7 ? 1 : 0), width);
    }

    /** {@code %*s}: {@code s} right-aligned in {@code width} characters (longer strings as they are). */
    static String pad(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) return s;
        int end = s.length();
        while (s.charAt(end - 1) == '0') end--;
        if (s.charAt(end - 1) == '.') end--;
        return s.substring(0, end);
    }
}
