package io.ccsim.algorithms;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * NCCL's data types (nccl.h {@code ncclDataType_t}), with nccl-tests' short names for {@code -d}.
 * fp8 e4m3/e5m2 are NCCL 2.24+ types ({@code ncclFloat8e4m3}, {@code ncclFloat8e5m2}).
 */
public enum DataType {
    INT8("int8", 1, false, "int8"),
    UINT8("uint8", 1, false, "uint8"),
    INT32("int32", 4, false, "int32"),
    UINT32("uint32", 4, false, "uint32"),
    INT64("int64", 8, false, "int64"),
    UINT64("uint64", 8, false, "uint64"),
    FLOAT16("half", 2, true, "float16"),
    BFLOAT16("bfloat16", 2, true, "bfloat16"),
    FLOAT32("float", 4, true, "float32"),
    FLOAT64("double", 8, true, "float64"),
    FP8_E4M3("f8e4m3", 1, true, "float8e4m3"),
    FP8_E5M2("f8e5m2", 1, true, "float8e5m2");

    private final String ncclTestsName;
    private final int bytes;
    private final boolean floating;
    private final String longName;

    DataType(String ncclTestsName, int bytes, boolean floating, String longName) {
        this.ncclTestsName = ncclTestsName;
        this.bytes = bytes;
        this.floating = floating;
        this.longName = longName;
    }

    /** Element size in bytes. */
    public int bytes() { return bytes; }

    /** True for the floating-point types (float16, bfloat16, float32, float64, fp8). */
    public boolean isFloating() { return floating; }

    /** The name nccl-tests prints in its {@code type} column and takes with {@code -d}. */
    public String ncclTestsName() { return ncclTestsName; }

    /** A descriptive name ({@code float32}, {@code bfloat16}). */
    public String longName() { return longName; }

    /**
     * Parses nccl-tests' names ({@code float}, {@code half}, {@code bfloat16}, {@code int32}...) and the
     * long names ({@code float32}, {@code float16}, {@code fp8_e4m3}) case-insensitively.
     */
    public static DataType parse(String s) {
        String t = s.trim().toLowerCase(java.util.Locale.ROOT).replace("_", "");
        for (DataType d : values()) {
            if (d.ncclTestsName.equals(t) || d.longName.equals(t) || d.name().toLowerCase(java.util.Locale.ROOT).replace("_", "").equals(t)) {
                return d;
            }
        }
        switch (t) {
            case "fp16": return FLOAT16;
            case "bf16": return BFLOAT16;
            case "fp32": return FLOAT32;
            case "fp64": return FLOAT64;
            case "int": return INT32;
            default: break;
        }
        throw new IllegalArgumentException("unknown data type '" + s + "'; valid: "
                + Arrays.stream(values()).map(DataType::ncclTestsName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() { return ncclTestsName; }
}
