package io.ccsim.algorithms;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** NCCL's reduction operators ({@code ncclRedOp_t}); nccl-tests' names for {@code -o}. */
public enum ReduceOp {
    SUM, PROD, MAX, MIN, AVG;

    /** nccl-tests' name ({@code sum}, {@code prod}, {@code max}, {@code min}, {@code avg}). */
    public String ncclTestsName() { return name().toLowerCase(Locale.ROOT); }

    public static ReduceOp parse(String s) {
        String t = s.trim().toUpperCase(Locale.ROOT);
        for (ReduceOp r : values()) if (r.name().equals(t)) return r;
        throw new IllegalArgumentException("unknown reduction '" + s + "'; valid: "
                + Arrays.stream(values()).map(ReduceOp::ncclTestsName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() { return ncclTestsName(); }
}
