package io.ccsim.algorithms.measurements;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A row from named fields, JSON keys or CSV columns alike: {@code op}, {@code bytes} and {@code time_us} required;
 * {@code dtype} (default float32), {@code redop}, {@code root}, {@code algo}, {@code proto}, {@code channels} and
 * {@code n} (or {@code ranks}, as {@code ccsim perf}'s provenance names it), {@code nodes} and {@code gpu} (the GPU model)
 * optional. Errors name the place and the field ({@code file: $[3].time_us: ...}) and what is valid.
 */
final class NamedFields {
    private NamedFields() {}

    /**
     * The row at {@code where}; {@code get} gives a field's text, or null where it is absent.
     *
     * @throws IllegalArgumentException naming {@code where} and the field
     */
    static MeasuredRow row(String where, Function<String, String> get) {
        CollectiveOp op = parse(where, "op", get.apply("op"), CollectiveOp::parse);
        long bytes = parse(where, "bytes", get.apply("bytes"), Long::parseLong);
        if (bytes <= 0) throw new IllegalArgumentException(where + ": bytes must be > 0, got " + bytes);
        String dt = get.apply("dtype");
        DataType dtype = dt == null ? DataType.FLOAT32 : parse(where, "dtype", dt, DataType::parse);
        Optional<ReduceOp> redop = redop(where, get.apply("redop"));
        String r = get.apply("root");
        int root = r == null ? 0 : Math.max(0, parse(where, "root", r, Integer::parseInt));
        String al = get.apply("algo");
        Optional<Algorithm> algo = al == null ? Optional.empty() : Optional.of(parse(where, "algo", al, NamedFields::algorithm));
        String pr = get.apply("proto");
        Optional<Protocol> proto = pr == null ? Optional.empty() : Optional.of(parse(where, "proto", pr, NamedFields::protocol));
        String ch = get.apply("channels");
        int channels = ch == null ? 0 : parse(where, "channels", ch, Integer::parseInt);
        String nKey = get.apply("n") != null ? "n" : "ranks";   // ccsim perf's provenance names the rank count "ranks"
        String ns = get.apply(nKey);
        int n = ns == null ? 0 : parse(where, nKey, ns, Integer::parseInt);
        if (channels < 0 || n < 0) throw new IllegalArgumentException(where + ": channels and n must be >= 0");
        double us = parse(where, "time_us", get.apply("time_us"), Double::parseDouble);
        if (!(us > 0) || Double.isInfinite(us)) {
            throw new IllegalArgumentException(where + ".time_us: must be a time > 0 in us, got " + us);
        }
        String nodesText = get.apply("nodes");
        int nodes = nodesText == null ? 0 : parse(where, "nodes", nodesText, Integer::parseInt);
        if (nodes < 0) throw new IllegalArgumentException(where + ": nodes must be >= 0");
        String gpu = get.apply("gpu");
        return new MeasuredRow(where, op, n, bytes, dtype, redop, root, algo, proto, channels, Optional.empty(), Optional.empty(),
                OptionalInt.empty(), us, nodes, gpu == null ? "" : gpu.trim(), ncclPlaced(where, get.apply("placement")),
                registered(where, get.apply(MeasuredRow.REGISTERED_FIELD)));
    }

    /**
     * Whether a row's {@link MeasuredRow#REGISTERED_FIELD} (null where absent) says NCCL registered its buffers.
     *
     * @throws IllegalArgumentException {@code where.registered_buffers: invalid ...} for anything but true or false
     */
    static boolean registered(String where, String value) {
        if (value != null && !value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(where + "." + MeasuredRow.REGISTERED_FIELD + ": invalid '" + value + "'; valid: true"
                    + " (NCCL registered the call's buffers: perf -R 1), false");
        }
        return "true".equals(value);
    }

    /**
     * Whether a row's {@code placement} (null where absent) names NCCL's all-to-all placement ({@code nccl}) rather
     * than the striped plan ({@code striped}, the default); see {@link MeasuredRow#ncclPlaced()}.
     *
     * @throws IllegalArgumentException {@code where.placement: invalid ...} for any other value
     */
    static boolean ncclPlaced(String where, String placement) {
        if (placement != null && !placement.equals("nccl") && !placement.equals("striped")) {
            throw new IllegalArgumentException(where + ".placement: invalid '" + placement + "'; valid: nccl (each peer's"
                    + " operation on its own channels), striped");
        }
        return "nccl".equals(placement);
    }

    /** The reduction named {@code s}; empty for null or {@code none}. */
    static Optional<ReduceOp> redop(String where, String s) {
        return s == null || s.equals("none") ? Optional.empty() : Optional.of(parse(where, "redop", s, ReduceOp::parse));
    }

    /**
     * {@code f} applied to a field's text.
     *
     * @throws IllegalArgumentException {@code where: missing 'key'}, or {@code where.key: invalid 'value': why}
     */
    static <T> T parse(String where, String key, String value, Function<String, T> f) {
        if (value == null) throw new IllegalArgumentException(where + ": missing '" + key + "'");
        try {
            return f.apply(value);
        } catch (IllegalArgumentException e) {   // NumberFormatException included
            throw new IllegalArgumentException(where + "." + key + ": invalid '" + value + "': " + e.getMessage(), e);
        }
    }

    /** NCCL's algorithm name ({@code Ring}, {@code Tree}, {@code P2P}), case-insensitively. */
    static Algorithm algorithm(String s) {
        for (Algorithm a : Algorithm.values()) if (a.ncclName().equalsIgnoreCase(s.trim())) return a;
        throw new IllegalArgumentException("unknown algorithm; valid: "
                + Arrays.stream(Algorithm.values()).map(Algorithm::ncclName).collect(Collectors.joining(", ")));
    }

    /** NCCL's protocol name ({@code LL}, {@code LL128}, {@code Simple}), case-insensitively. */
    static Protocol protocol(String s) {
        for (Protocol p : Protocol.values()) if (p.ncclName().equalsIgnoreCase(s.trim())) return p;
        throw new IllegalArgumentException("unknown protocol; valid: "
                + Arrays.stream(Protocol.values()).map(Protocol::ncclName).collect(Collectors.joining(", ")));
    }
}
