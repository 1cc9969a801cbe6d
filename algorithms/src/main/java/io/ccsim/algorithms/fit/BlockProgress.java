package io.ccsim.algorithms.fit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One block of one round of a fit, done: what a progress callback receives.
 *
 * @param round       the round, from 1
 * @param block       the block's name ({@code "cta LL"}, {@code "ring Simple"} ...)
 * @param rows        rows simulated while searching this block
 * @param evaluations objective evaluations spent
 * @param lossBefore  the search loss at the block's start
 * @param lossAfter   the lowest search loss seen (the block's values are kept only where it is below {@code lossBefore})
 * @param values      the block's parameters after the step, by name (as in the profile JSON), in block order
 */
public record BlockProgress(int round, String block, int rows, int evaluations, double lossBefore, double lossAfter,
                            Map<String, Double> values) {
    public BlockProgress {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
