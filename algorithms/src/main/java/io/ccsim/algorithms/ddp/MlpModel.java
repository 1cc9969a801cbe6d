package io.ccsim.algorithms.ddp;

import io.ccsim.algorithms.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * A model described by its layer sizes, with a compute-time model, as a {@link StepProfile}: a stack of L MLP blocks
 * (Linear d→4d, GELU, Linear 4d→d, each with a bias), as {@code torch.nn.Sequential} registers it (block i's
 * linears are modules {@code 3i} and {@code 3i+2}), on {@code tokens} tokens per rank. It is the model of the
 * measurements in experiments/ddp-h100x4.
 *
 * <p>Compute: every matrix product runs at {@code tflops} TFLOP/s. A linear layer of n inputs and m outputs costs
 * 2·tokens·n·m FLOPs forward and twice that backward (the input's gradient and the weight's), except the first layer,
 * whose input needs no gradient (once). Backward runs the layers in reverse; a layer's weight and bias gradients are
 * ready when its backward ends, the bias first (the later registered, as autograd fires them). GELU, the loss and
 * the bias sums are taken as free.
 */
public final class MlpModel {
    private MlpModel() {}

    /**
     * Parses {@code mlp:L=24,d=1024,tokens=4096[,dtype=float32]} and builds its profile.
     *
     * @param tflops achieved matrix throughput, TFLOP/s, {@code > 0}
     * @throws IllegalArgumentException naming the bad part and what is valid
     */
    public static StepProfile parse(String spec, double tflops) {
        String s = spec.trim();
        if (!s.toLowerCase(Locale.ROOT).startsWith("mlp:")) {
            throw new IllegalArgumentException("model '" + spec + "': valid: mlp:L=LAYERS,d=WIDTH,tokens=TOKENS[,dtype=TYPE]");
        }
        long layers = -1;
        long d = -1;
        long tokens = -1;
        DataType dtype = DataType.FLOAT32;
        for (String kv : s.substring(4).split(",")) {
            String[] p = kv.split("=", 2);
            String key = p[0].trim().toLowerCase(Locale.ROOT);
            if (p.length != 2) throw new IllegalArgumentException("model '" + spec + "': '" + kv + "' is not KEY=VALUE");
            switch (key) {
                case "l": case "layers": layers = positive(spec, p[0].trim(), p[1]); break;
                case "d": d = positive(spec, p[0].trim(), p[1]); break;
                case "tokens": tokens = positive(spec, p[0].trim(), p[1]); break;
                case "dtype": dtype = DataType.parse(p[1]); break;
                default: throw new IllegalArgumentException("model '" + spec + "': unknown key '" + p[0].trim()
                        + "'; valid: L, d, tokens, dtype");
            }
        }
        if (layers < 0 || d < 0 || tokens < 0) {
            throw new IllegalArgumentException("model '" + spec + "': needs L, d and tokens, e.g. mlp:L=24,d=1024,tokens=4096");
        }
        return build((int) layers, d, tokens, dtype, tflops);
    }

    /** The profile of {@code layers} blocks of width {@code d} on {@code tokens} tokens at {@code tflops} TFLOP/s. */
    public static StepProfile build(int layers, long d, long tokens, DataType dtype, double tflops) {
        if (layers < 1 || d < 1 || tokens < 1) throw new IllegalArgumentException("layers, d and tokens must be >= 1");
        if (!(tflops > 0) || Double.isInfinite(tflops)) throw new IllegalArgumentException("tflops must be > 0, got " + tflops);
        int linears = 2 * layers;
        long[] in = new long[linears];
        long[] out = new long[linears];
        for (int i = 0; i < linears; i++) {
            in[i] = i % 2 == 0 ? d : 4 * d;
            out[i] = i % 2 == 0 ? 4 * d : d;
        }
        double psPerFlop = 1e12 / (tflops * 1e12);
        long forward = 0;
        for (int i = 0; i < linears; i++) forward += Math.round(2.0 * tokens * in[i] * out[i] * psPerFlop);
        long[] ready = new long[linears];
        long t = 0;
        for (int i = linears - 1; i >= 0; i--) {
            t += Math.round((i == 0 ? 2.0 : 4.0) * tokens * in[i] * out[i] * psPerFlop);
            ready[i] = t;
        }
        List<Gradient> grads = new ArrayList<>(2 * linears);
        for (int i = 0; i < linears; i++) {
            int module = 3 * (i / 2) + (i % 2 == 0 ? 0 : 2);
            grads.add(new Gradient(module + ".weight", in[i] * out[i] * dtype.bytes(), ready[i]));
            grads.add(new Gradient(module + ".bias", out[i] * dtype.bytes(), ready[i]));
        }
        return new StepProfile(grads, forward, t, dtype, OptionalInt.empty(), List.of());
    }

    private static long positive(String spec, String key, String v) {
        try {
            long x = Long.parseLong(v.trim());
            if (x >= 1 && x <= 1_000_000) return x;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("model '" + spec + "': " + key + "=" + v.trim() + "; valid: a whole number from 1 to 1000000");
    }
}
