package io.ccsim.algorithms.tuner;

import java.util.List;

/**
 * An NCCL environment variable has a value NCCL would reject (or, where NCCL silently clamps or ignores
 * it, one ccsim refuses so that a typo never goes unnoticed). The message names the variable, its value,
 * the offending token and the valid values.
 */
public final class NcclEnvException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String variable;
    private final String value;
    private final String token;
    private final List<String> validValues;

    NcclEnvException(String variable, String value, String token, List<String> validValues, String problem) {
        super(io.ccsim.topology.input.InputException.oneLine(variable + "=\"" + value + "\": " + problem
                + (validValues.isEmpty() ? "" : "; valid: " + String.join(", ", validValues))));
        this.variable = variable;
        this.value = value;
        this.token = token;
        this.validValues = List.copyOf(validValues);
    }

    /** The variable's name, e.g. {@code NCCL_ALGO}. */
    public String variable() { return variable; }

    /** The variable's whole value as given. */
    public String value() { return value; }

    /** The part of the value that is wrong (a token, a prefix, or the whole value). */
    public String token() { return token; }

    /** What would have been accepted in place of {@link #token()} (may be a range such as {@code 1..64}). */
    public List<String> validValues() { return validValues; }
}
