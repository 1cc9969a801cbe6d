package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.FitInfo;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The {@code fit} section a fitted profile carries: where it came from, when, and the errors it reached. */
final class FitSection {
    private FitSection() {}

    /**
     * {@code profile} with a {@code fit} section: {@code source}, {@code date} and the per-group median errors of
     * {@code errors} (rounded to 4 decimals, keyed {@code median_rel_err GROUP-KEY}).
     */
    static CalibrationProfile with(CalibrationProfile profile, ErrorTable errors, String source, String date) {
        Map<String, Double> res = new LinkedHashMap<>();
        for (ErrorTable.Group g : errors.groups()) {
            res.put("median_rel_err " + g.key(), Math.round(g.medianError() * 10000) / 10000.0);
        }
        return profile.withFit(Optional.of(new FitInfo(source, date, res)));
    }

    /** The fit section's source of {@code start}, or {@code orElse} where it has none. */
    static String sourceOf(CalibrationProfile start, String orElse) {
        return start.fit().map(FitInfo::source).orElse(orElse);
    }
}
