package io.ccsim.topology.smi;

import io.ccsim.topology.smi.SmiText.Token;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the matrix of {@code nvidia-smi topo -m}: lines before the header that start with {@code $} or
 * {@code #} (a prompt, a comment) or are blank are skipped; the header row starts with {@code GPU0} and
 * lists the device columns followed by the affinity columns ({@code CPU Affinity}, {@code NUMA Affinity},
 * {@code GPU NUMA ID}); one row per column follows, up to a blank line or the {@code Legend}; the
 * {@code NIC Legend} lines ({@code NIC0: mlx5_0}) name the NICs.
 *
 * <p>Errors ({@link IllegalArgumentException}) name the source, the line and the column, and what is
 * valid: no header; a duplicate column; a row whose label is not a column, or a second row for it; a row
 * with too few cells or an extra value; an unknown cell; X off the diagonal or a diagonal cell that is not
 * X; a missing row; an asymmetric pair.
 */
final class SmiMatrixParser {

    private static final Pattern LEGEND_NIC = Pattern.compile("\\s*(NIC\\d+)\\s*:\\s*(\\S+)\\s*");

    private final SmiText text;
    private List<String> devices;
    private boolean hasCpuAffinity;
    private boolean hasNumaAffinity;
    private boolean hasGpuNumaId;
    private Connection[][] cells;
    private String[] cpuAffinity;
    private String[] numaAffinity;
    private int[] rowLine;

    private SmiMatrixParser(SmiText text) {
        this.text = text;
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException naming the line and column of the first problem and what is valid
     */
    static SmiMatrix parse(SmiText text) {
        return new SmiMatrixParser(text).parse();
    }

    private SmiMatrix parse() {
        int headerLine = findHeader();
        Map<String, Integer> column = readHeader(headerLine);
        int end = readRows(headerLine + 1, column);
        checkEveryRowPresent(end);
        checkSymmetric();
        return new SmiMatrix(text, devices, cells, cpuAffinity, numaAffinity, rowLine, readNicLegend(end));
    }

    /** The line of the header row: the first one whose first token is a GPU label. */
    private int findHeader() {
        for (int i = 0; i < text.lineCount(); i++) {
            List<Token> t = text.tokens(i);
            if (!t.isEmpty() && SmiMatrix.isGpuLabel(t.get(0).text())) {
                return i;
            }
            if (!t.isEmpty() && !t.get(0).text().startsWith("$") && !t.get(0).text().startsWith("#")
                    && !text.line(i).isBlank()) {
                throw text.error(i, t.get(0).column(), "expected the header row of 'nvidia-smi topo -m' starting"
                        + " with GPU0, got '" + t.get(0).text() + "'");
            }
        }
        throw text.error(0, 1, "no header row found; expected a line starting with GPU0 (the column headers of"
                + " 'nvidia-smi topo -m')");
    }

    /** Reads the device columns and which affinity columns follow; returns each label's column. */
    private Map<String, Integer> readHeader(int headerLine) {
        List<Token> header = text.tokens(headerLine);
        devices = new ArrayList<>();
        int extraStart = header.size();
        for (int i = 0; i < header.size(); i++) {
            String h = header.get(i).text();
            if (h.equals("CPU") || h.equals("NUMA") || (h.equals("GPU") && i + 1 < header.size())) {
                extraStart = i;
                break;
            }
            devices.add(h);
        }
        String extra = String.join(" ", header.subList(extraStart, header.size()).stream().map(Token::text)
                .toList());
        hasCpuAffinity = extra.contains("CPU Affinity");
        hasNumaAffinity = extra.contains("NUMA Affinity");
        hasGpuNumaId = extra.contains("GPU NUMA ID");
        Map<String, Integer> column = new HashMap<>();
        for (int i = 0; i < devices.size(); i++) {
            if (column.putIfAbsent(devices.get(i), i) != null) {
                throw text.error(headerLine, header.get(i).column(), "duplicate column '" + devices.get(i) + "'");
            }
        }
        return column;
    }

    /** Reads the rows from {@code first} on; returns the line after the last row. */
    private int readRows(int first, Map<String, Integer> column) {
        int n = devices.size();
        cells = new Connection[n][];
        cpuAffinity = new String[n];
        numaAffinity = new String[n];
        rowLine = new int[n];
        int line = first;
        for (; line < text.lineCount(); line++) {
            List<Token> t = text.tokens(line);
            if (t.isEmpty() || t.get(0).text().startsWith("Legend")) {
                break;
            }
            readRow(line, t, column);
        }
        return line;
    }

    private void readRow(int line, List<Token> t, Map<String, Integer> column) {
        int n = devices.size();
        String label = t.get(0).text();
        Integer r = column.get(label);
        if (r == null) {
            throw text.error(line, t.get(0).column(), "row label '" + label + "' is not a column of the header;"
                    + " valid: " + devices);
        }
        if (cells[r] != null) {
            throw text.error(line, t.get(0).column(), "second row for '" + label + "'");
        }
        if (t.size() < 1 + n) {
            throw text.error(line, text.line(line).length() + 1, "row '" + label + "' has " + (t.size() - 1)
                    + " cells, expected " + n + " (one per column: " + devices + ")");
        }
        cells[r] = new Connection[n];
        rowLine[r] = line;
        for (int c = 0; c < n; c++) {
            Token cell = t.get(1 + c);
            cells[r][c] = Connection.parse(cell.text(), msg -> text.error(line, cell.column(), msg));
            if ((c == r) != (cells[r][c].level() == Connection.Level.X)) {
                throw text.error(line, cell.column(), c == r ? "the diagonal cell of '" + label + "' must be X, got '"
                        + cell.text() + "'" : "X is only valid on the diagonal (a device with itself)");
            }
        }
        int k = 1 + n;
        if (hasCpuAffinity && k < t.size()) {
            cpuAffinity[r] = t.get(k++).text();
        }
        if (hasNumaAffinity && k < t.size()) {
            numaAffinity[r] = t.get(k++).text();
        }
        if (hasGpuNumaId && k < t.size()) {
            k++;
        }
        if (k < t.size()) {
            throw text.error(line, t.get(k).column(), "unexpected extra value '" + t.get(k).text() + "' after the "
                    + n + " cells and the affinity columns");
        }
    }

    private void checkEveryRowPresent(int end) {
        for (int r = 0; r < devices.size(); r++) {
            if (cells[r] == null) {
                throw text.error(end, 1, "missing row for '" + devices.get(r) + "'; every column needs a row");
            }
        }
    }

    private void checkSymmetric() {
        for (int r = 0; r < devices.size(); r++) {
            for (int c = 0; c < r; c++) {
                if (!cells[r][c].equals(cells[c][r])) {
                    throw text.error(rowLine[r], text.tokens(rowLine[r]).get(1 + c).column(), "matrix is not"
                            + " symmetric: " + devices.get(r) + "/" + devices.get(c) + " is " + cells[r][c].label()
                            + " but " + devices.get(c) + "/" + devices.get(r) + " is " + cells[c][r].label());
                }
            }
        }
    }

    /** The {@code NICn: name} lines from {@code from} on. */
    private Map<String, String> readNicLegend(int from) {
        Map<String, String> names = new HashMap<>();
        for (int i = from; i < text.lineCount(); i++) {
            Matcher lm = LEGEND_NIC.matcher(text.line(i));
            if (lm.matches()) {
                names.put(lm.group(1), lm.group(2));
            }
        }
        return names;
    }
}
