package io.ccsim.algorithms.ddp;

/**
 * One parameter's gradient as a data-parallel step sees it.
 *
 * @param name    the parameter's name ({@code 0.weight}); its module is the text before the last dot
 * @param bytes   the gradient's size in bytes, {@code > 0}
 * @param readyPs when the gradient is ready in a backward pass without communication, picoseconds from the
 *                backward pass's start, {@code >= 0}
 */
public record Gradient(String name, long bytes, long readyPs) {
    public Gradient {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException("a gradient needs a name");
        if (bytes <= 0) throw new IllegalArgumentException("gradient " + name + ": bytes must be > 0, got " + bytes);
        if (readyPs < 0) throw new IllegalArgumentException("gradient " + name + ": ready time must be >= 0, got " + readyPs + " ps");
    }

    /** The module that owns the parameter: the name up to its last dot, or the whole name where it has none. */
    public String module() {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? name : name.substring(0, dot);
    }
}
