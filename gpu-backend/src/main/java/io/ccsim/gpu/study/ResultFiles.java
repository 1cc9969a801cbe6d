package io.ccsim.gpu.study;

import com.google.gson.GsonBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The studies' result files: pretty-printed JSON (NaN and infinities written as such), UTF-8. */
final class ResultFiles {
    private ResultFiles() { }

    /** Writes {@code o} (maps, lists, numbers, strings) to {@code file}, replacing it. */
    static void writeJson(Path file, Object o) throws IOException {
        Files.writeString(file, new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(o),
                StandardCharsets.UTF_8);
    }
}
