package io.ccsim.algorithms.profile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where a profile's numbers came from.
 *
 * @param source    free text: the measurement set or the constants' origin; not null
 * @param date      ISO-8601 date of the fit ({@code 2026-11-22}); not null
 * @param residuals named fit residuals (for example the median relative error per collective), unitless
 *                  unless the name says otherwise; iteration order is the file's order
 */
public record FitInfo(String source, String date, Map<String, Double> residuals) {
    public FitInfo {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(date, "date");
        residuals = Collections.unmodifiableMap(new LinkedHashMap<>(residuals));
    }
}
