package io.ccsim.gpu.calibrate;

import com.google.gson.GsonBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one calibration measured: the raw values by name, in measuring order (written next to the profile as
 * {@code <profile>.measurements.json}), and the fits' median relative errors (the profile's fit residuals).
 */
final class CalibrationRecord {
    private final Map<String, Object> raw = new LinkedHashMap<>();
    private final Map<String, Double> residuals = new LinkedHashMap<>();

    /** Records a raw value (a number, a list of points {x, t, ...}, or a small map). */
    void put(String name, Object value) {
        raw.put(name, value);
    }

    /** Records a fit's median relative error. */
    void residual(String name, double medianRelErr) {
        residuals.put(name, medianRelErr);
    }

    /** The residuals by name, in recording order (live view). */
    Map<String, Double> residuals() {
        return residuals;
    }

    /** Writes the raw values as pretty-printed JSON (NaN and infinities written as such). */
    void write(Path file) throws IOException {
        Files.writeString(file, new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(raw),
                StandardCharsets.UTF_8);
    }
}
