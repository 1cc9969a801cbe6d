package io.ccsim.algorithms.measurements;

import java.util.Arrays;
import java.util.List;

/** Measured rows from CSV with {@code ccsim perf --format csv}'s header (an {@code n} column is optional), each row read by {@link NamedFields}. */
final class CsvRows {
    private CsvRows() {}

    /** @throws IllegalArgumentException naming {@code src} and the line, and what is valid */
    static MeasuredFile read(String src, String text) {
        List<String> lines = text.lines().toList();
        List<String> header = Arrays.asList(lines.get(0).split(",", -1));
        for (String need : List.of("op", "bytes", "dtype", "time_us")) {
            if (!header.contains(need)) {
                throw new IllegalArgumentException(src + ":1: the CSV header has no '" + need + "' column; expected perf --format csv's header "
                        + "op,bytes,count,dtype,redop,root,algo,proto,channels,time_us,algbw_gbps,busbw_gbps (n optional)");
            }
        }
        Trials rows = new Trials();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) continue;
            String[] f = lines.get(i).split(",", -1);
            String where = src + ":" + (i + 1);
            if (f.length != header.size()) {
                throw new IllegalArgumentException(where + ": " + f.length + " fields, the header has " + header.size());
            }
            rows.add(NamedFields.row(where, k -> {
                int j = header.indexOf(k);
                return j < 0 || f[j].isBlank() ? null : f[j].trim();
            }));
        }
        return new MeasuredFile(rows.rows(), "");
    }
}
