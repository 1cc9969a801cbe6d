package io.ccsim.cli;

import java.awt.Color;
import java.awt.geom.Ellipse2D;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The {@code validate --chart} image (PNG or SVG, {@link ChartFile}): busbw (GB/s) against size (bytes, log2 axis),
 * one panel per (op, n, channels), in each panel one colour per (algorithm, protocol): measured solid with dots,
 * simulated dashed. Rows that do not name their algorithm and protocol (nccl-tests logs) are one pair, "measured"
 * and "simulated (NCCL's choice)". Panels are laid out in a grid of up to 4 columns under a caption.
 */
final class ValidationChart {
    private ValidationChart() {}

    /** What was drawn: the file, panels drawn, and panels left out because every series had one size. */
    record Summary(ChartFile.Written file, int panels, int leftOut) { }

    static final int PANEL_W = 620;
    static final int PANEL_H = 430;

    static Summary write(Path file, List<ValidateCommand.Compared> rows, String context) {
        // panels per (op, n, channels) where a channel count was swept over sizes (timing files); rows whose
        // channels change with the size (perf output: the tuner's choice) go to one (op, n) panel per series
        List<ValidateCommand.Compared> sorted = rows.stream()
                .sorted(Comparator.comparing((ValidateCommand.Compared c) -> c.m().op()).thenComparingInt(ValidateCommand.Compared::n)
                        .thenComparingInt(c -> c.m().channels()).thenComparing(ValidateCommand.Compared::algoLabel)
                        .thenComparing(ValidateCommand.Compared::protoLabel).thenComparingLong(c -> c.m().bytes()))
                .collect(Collectors.toList());
        Map<String, Set<Long>> sizesPerSweep = new HashMap<>();
        for (ValidateCommand.Compared c : sorted) sizesPerSweep.computeIfAbsent(sweepKey(c), k -> new HashSet<>()).add(c.m().bytes());
        Map<String, Map<String, List<ValidateCommand.Compared>>> panels = new LinkedHashMap<>();
        for (ValidateCommand.Compared c : sorted) {
            boolean swept = c.m().channels() > 0 && sizesPerSweep.get(sweepKey(c)).size() > 1;
            String title = c.m().op().cliName() + ", " + c.n() + " ranks, "
                    + (swept ? c.m().channels() + " channels" : c.m().channels() > 0 ? "channels as measured" : "NCCL's choice")
                    + (c.m().registered() ? ", registered buffers" : ""); // a panel of its own: a different path
            panels.computeIfAbsent(title, k -> new LinkedHashMap<>()).computeIfAbsent(seriesLabel(c), k -> new ArrayList<>()).add(c);
        }
        List<JFreeChart> charts = new ArrayList<>();
        List<JFreeChart> single = new ArrayList<>();
        for (Map.Entry<String, Map<String, List<ValidateCommand.Compared>>> p : panels.entrySet()) {
            boolean anyLine = p.getValue().values().stream().anyMatch(s -> s.stream().mapToLong(c -> c.m().bytes()).distinct().count() > 1);
            (anyLine ? charts : single).add(panel(p.getKey(), p.getValue()));
        }
        int leftOut = 0;
        if (charts.isEmpty()) charts = single;   // nothing but single sizes: draw those rather than nothing
        else leftOut = single.size();
        int cols = Math.min(4, charts.size());
        ChartFile.Written w = ChartFile.writeGrid("--chart", file, "ccsim validate: bus bandwidth, measured (solid, dots) vs simulated"
                + " (dashed); " + context, charts, cols, PANEL_W, PANEL_H);
        return new Summary(w, charts.size(), leftOut);
    }

    /** The measured algorithm/protocol ("ring/LL"), or "" where the file did not say (nccl-tests logs). */
    private static String seriesLabel(ValidateCommand.Compared c) {
        return c.m().algo().isEmpty() && c.m().proto().isEmpty() ? "" : c.algoLabel() + "/" + c.protoLabel();
    }

    private static String sweepKey(ValidateCommand.Compared c) {
        return c.m().op() + "|" + c.n() + "|" + c.m().channels() + "|" + c.algoLabel() + "|" + c.protoLabel();
    }

    private static JFreeChart panel(String title, Map<String, List<ValidateCommand.Compared>> series) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        int i = 0;
        for (Map.Entry<String, List<ValidateCommand.Compared>> s : series.entrySet()) {
            String k = s.getKey();
            XYSeries meas = new XYSeries(k.isEmpty() ? "measured" : k + " measured", true, true);
            XYSeries sim = new XYSeries(k.isEmpty() ? "simulated (NCCL's choice)" : k + " simulated", true, true);
            for (ValidateCommand.Compared c : s.getValue()) {
                meas.add(c.m().bytes(), c.busbw(c.m().timeUs()));
                sim.add(c.m().bytes(), c.busbw(c.simUs()));
            }
            Color color = ChartStyle.color(i);
            data.addSeries(meas);
            data.addSeries(sim);
            int a = 2 * i;
            r.setSeriesPaint(a, color);
            r.setSeriesStroke(a, ChartStyle.solid(2.2f));
            r.setSeriesShape(a, new Ellipse2D.Double(-3.5, -3.5, 7, 7));
            r.setSeriesShapesVisible(a, true);
            r.setSeriesPaint(a + 1, color);
            r.setSeriesStroke(a + 1, ChartStyle.dashed(2.0f));
            r.setSeriesShapesVisible(a + 1, false);
            i++;
        }
        long lo = series.values().stream().flatMap(List::stream).mapToLong(c -> c.m().bytes()).min().orElse(1);
        long hi = series.values().stream().flatMap(List::stream).mapToLong(c -> c.m().bytes()).max().orElse(1);
        NumberAxis y = new NumberAxis("busbw (GB/s)");
        y.setAutoRangeIncludesZero(true);
        XYPlot plot = new XYPlot(data, ChartStyle.sizeAxis("size (bytes, log2 scale)", lo, hi), y, r);
        return ChartStyle.chart(title, plot, true);
    }
}
