package io.ccsim.cli;

import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.util.ShapeUtils;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The {@code sweep --chart} image (PNG or SVG, {@link ChartFile}): busbw (GB/s) against size (bytes, log2 axis), one
 * line per setup of the study, a setup being a point's setting without its size. A line's legend names only what
 * differs between the setups (the op, the ranks, a what-if, an NCCL variable, ...); what all share goes into the
 * title, unless it is what a study without that axis gets (one node, no what-if, float, seed 0, ...). Where the
 * topology and the rank count vary together, the legend gives the ranks and the title the topologies. Rows without
 * numbers (a point NCCL could not run) are left out; {@link Summary} counts them.
 */
final class SweepChart {
    private SweepChart() {}

    /** The columns that make a point's setup, in the order their values appear in a legend. */
    static final List<String> SETUP = List.of("op", "topology", "ranks", "nodes", "nics_per_node", "oversubscription", "sharp",
            "what_if", "env", "dtype", "seed", "sim_mode");
    /** Setup values left out of the title where every line has them: what a study without that axis gets. */
    private static final Map<String, String> DEFAULTS = Map.of("nodes", "1", "nics_per_node", "0", "oversubscription", "1.0",
            "sharp", "false", "what_if", "", "env", "", "dtype", "float", "seed", "0", "sim_mode", "folded");

    /** Beyond this many lines the legend is left out (it would cover the plot); the title says how many. */
    static final int MAX_LEGEND = 16;

    /** What was drawn: the file, the lines, the points on them and the rows left out (no numbers). */
    record Summary(ChartFile.Written file, int lines, int points, int leftOut) {
        String describe() {
            return file.describe() + ", " + lines + (lines == 1 ? " line, " : " lines, ") + points + " points"
                    + (leftOut > 0 ? ", " + leftOut + " rows without numbers left out" : "");
        }
    }

    /**
     * Draws the rows ({@link SweepRows#COLUMNS} to their text value, empty where none) of study {@code study} into
     * {@code file}.
     *
     * @throws UserException where no row has numbers
     */
    static Summary write(Path file, String study, List<Map<String, String>> rows) {
        List<Map<String, String>> drawn = new ArrayList<>();
        for (Map<String, String> r : rows) if (!r.getOrDefault("busbw_gbps", "").isEmpty()) drawn.add(r);
        if (drawn.isEmpty()) throw new UserException("--chart " + file + ": no row has numbers to draw (" + rows.size() + " rows)");
        List<String> varying = new ArrayList<>();
        List<String> common = new ArrayList<>();
        for (String k : SETUP) {
            Set<String> values = new LinkedHashSet<>();
            for (Map<String, String> r : drawn) values.add(r.getOrDefault(k, ""));
            if (values.size() > 1) varying.add(k);
            else if (!values.iterator().next().equals(DEFAULTS.get(k))) common.add(part(k, values.iterator().next()));
        }
        if (varying.contains("topology") && varying.contains("ranks") && oneToOne(drawn, "topology", "ranks")) {
            // a board built with --gpus N is named for it (hgx-h200-4g): the rank count says the same, more plainly
            varying.remove("topology");
            Set<String> topologies = new LinkedHashSet<>();
            for (Map<String, String> r : drawn) topologies.add(r.get("topology"));
            common.add(varying.contains("op") ? 0 : 1, topologies.size() <= 3 ? "on " + String.join(", ", topologies) : "on " + topologies.size() + " topologies");
        }
        Map<String, XYSeries> lines = new LinkedHashMap<>();
        long lo = Long.MAX_VALUE;
        long hi = 1;
        for (Map<String, String> r : drawn) {
            List<String> parts = new ArrayList<>();
            for (String k : varying) parts.add(part(k, r.getOrDefault(k, "")));
            String name = parts.isEmpty() ? "busbw" : String.join(", ", parts);
            long bytes = Math.max(1, Long.parseLong(r.get("bytes")));
            lines.computeIfAbsent(name, n -> new XYSeries(n, true, true)).add(bytes, Double.parseDouble(r.get("busbw_gbps")));
            lo = Math.min(lo, bytes);
            hi = Math.max(hi, bytes);
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        Shape[] shapes = {new Ellipse2D.Double(-3.5, -3.5, 7, 7), new Rectangle2D.Double(-3, -3, 6, 6), ShapeUtils.createDiamond(4.5f),
            ShapeUtils.createUpTriangle(4.5f), ShapeUtils.createDownTriangle(4.5f)};
        int i = 0;
        for (XYSeries s : lines.values()) {
            data.addSeries(s);
            renderer.setSeriesPaint(i, ChartStyle.color(i));
            // colours repeat every 10 lines: the stroke and shape tell the repeats apart
            renderer.setSeriesStroke(i, (i / 10) % 2 == 0 ? ChartStyle.solid(1.6f) : ChartStyle.dashed(1.6f));
            renderer.setSeriesShape(i, shapes[(i / 10 + i) % shapes.length]);
            i++;
        }
        NumberAxis y = new NumberAxis("busbw (GB/s)");
        y.setAutoRangeIncludesZero(true);
        XYPlot plot = new XYPlot(data, ChartStyle.sizeAxis("size (bytes, log2 scale)", lo, hi), y, renderer);
        boolean legend = lines.size() <= MAX_LEGEND;
        String title = "sweep " + study + ": busbw vs size" + (common.isEmpty() ? "" : ", " + String.join(", ", common))
                + (legend ? "" : " (" + lines.size() + " lines, legend left out)");
        JFreeChart chart = ChartStyle.chart(title, plot, legend);
        ChartFile.Written w = ChartFile.write("--chart", file, chart, PerfChart.WIDTH, PerfChart.HEIGHT);
        return new Summary(w, lines.size(), drawn.size(), rows.size() - drawn.size());
    }

    /** Whether each value of {@code a} goes with one value of {@code b} and the other way round. */
    private static boolean oneToOne(List<Map<String, String>> rows, String a, String b) {
        Map<String, String> ab = new java.util.HashMap<>();
        Map<String, String> ba = new java.util.HashMap<>();
        for (Map<String, String> r : rows) {
            String x = r.get(a);
            String y = r.get(b);
            if (!y.equals(ab.computeIfAbsent(x, k -> y)) || !x.equals(ba.computeIfAbsent(y, k -> x))) return false;
        }
        return true;
    }

    /** A setup value as a legend or title shows it: {@code all_reduce}, {@code 8 ranks}, {@code what-if --degrade ...}. */
    static String part(String key, String value) {
        return switch (key) {
            case "op", "topology", "dtype" -> value;
            case "ranks" -> value + " ranks";
            case "nodes" -> value + ("1".equals(value) ? " node" : " nodes");
            case "what_if" -> value.isEmpty() ? "no what-if" : value;
            case "env" -> value.isEmpty() ? "NCCL defaults" : value;
            case "sharp" -> "true".equals(value) ? "SHARP" : "no SHARP";
            default -> key.replace('_', ' ') + " " + value;
        };
    }
}
