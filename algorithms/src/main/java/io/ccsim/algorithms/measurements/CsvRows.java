package io.ccsim.algorithms.measurements;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Measured rows from CSV with {@code ccsim perf --format csv}'s columns, RFC 4180 (values may be quoted, and a quoted
 * value may hold commas and quotes; read with Apache Commons CSV), each row read by {@link NamedFields}: the header
 * names the columns, in any order; {@code op}, {@code bytes}, {@code dtype} and {@code time_us} are required, the
 * others optional (perf's provenance columns {@code ranks}, {@code nodes}, {@code gpu} among them).
 */
final class CsvRows {
    private CsvRows() {}

    private static final List<String> REQUIRED = List.of("op", "bytes", "dtype", "time_us");

    /** @throws IllegalArgumentException naming {@code src} and the line, and what is valid */
    static MeasuredFile read(String src, String text) {
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).setIgnoreEmptyLines(true)
                .setTrim(true).get();
        Trials rows = new Trials();
        try (CSVParser p = CSVParser.builder().setReader(new StringReader(text)).setFormat(format).get()) {
            Map<String, Integer> header = p.getHeaderMap();
            for (String need : REQUIRED) {
                if (!header.containsKey(need)) {
                    throw new IllegalArgumentException(src + ":1: the CSV header has no '" + need + "' column; expected perf --format csv's"
                            + " header op,bytes,count,dtype,redop,root,algo,proto,channels,time_us,algbw_gbps,busbw_gbps (the others optional)");
                }
            }
            for (CSVRecord r : p) {
                String where = src + ":" + p.getCurrentLineNumber();   // the record's last line (1-based: its terminator is read)
                if (r.size() != header.size()) {
                    throw new IllegalArgumentException(where + ": " + r.size() + " fields, the header has " + header.size());
                }
                rows.add(NamedFields.row(where, k -> {
                    Integer j = header.get(k);
                    return j == null || r.get(j).isBlank() ? null : r.get(j);
                }));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.io.UncheckedIOException e) {
            throw new IllegalArgumentException(src + ": not valid CSV: " + e.getCause().getMessage(), e);
        }
        return new MeasuredFile(rows.rows(), "");
    }
}
