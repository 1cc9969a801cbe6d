package io.ccsim.cli;

import io.ccsim.scenarios.ScenarioResult;
import io.ccsim.scenarios.diagnosis.FrEntry;
import io.ccsim.scenarios.diagnosis.RankEvent;
import java.awt.BasicStroke;
import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.chart.util.ShapeUtils;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The {@code scenario run --chart} per-rank timeline (PNG or SVG, {@link ChartFile}): one row per rank (at most
 * {@link #MAX_RANKS}: beyond, the ranks the diagnosis names, then the lowest), time in seconds of simulated job time
 * across. From each rank's flight recorder: "waiting" from a collective's enqueue to its start (its peers not there
 * yet), "collective" from start to completion, "stalled" from start (or enqueue) to the end of the run for a
 * collective that never completed; "compute" is the time between a collective's completion (or the end of
 * communicator init) and the next enqueue; "init" from INIT_START to INIT_DONE in the rank's log. Each injected fault
 * is a red vertical line at its time (its note as label). Process ends are marks on their rank's row: a rank's own
 * failure (crash, GPU hang, watchdog timeout, error, never launched) as a black cross, a rank stopped from outside
 * (killed by the elastic agent, aborted) as a grey cross, so that the culprit stands out among the peers torchrun
 * stops with it. The rows of the ranks the diagnosis names carry its first category in their label.
 */
final class TimelineChart {
    private TimelineChart() {}

    static final int WIDTH = 1100;
    static final int MAX_RANKS = 32;
    private static final Pattern FAULT_TIME = Pattern.compile("^([0-9.]+) (s|ms|us|ps):");
    private static final Set<String> FAILS = Set.of("CRASH", "WATCHDOG", "GPU_HANG", "ERROR", "NET_ERROR", "NOT_LAUNCHED");
    private static final Set<String> STOPS = Set.of("KILLED", "ABORT");

    /** Draws the timeline of {@code r}. */
    static ChartFile.Written write(Path file, ScenarioResult r) {
        List<Integer> ranks = ranksShown(r);
        Map<Integer, Integer> row = new TreeMap<>();
        for (int i = 0; i < ranks.size(); i++) row.put(ranks.get(i), i);
        double end = r.simTimeSeconds();
        String[] kinds = {"init", "compute", "waiting for peers", "collective", "stalled (never completed)"};
        Color[] colors = {new Color(0xBAB0AC), new Color(0x59A14F), new Color(0xEDC948), new Color(0x4E79A7), new Color(0xE15759)};
        XYIntervalSeries[] series = new XYIntervalSeries[kinds.length];
        for (int k = 0; k < kinds.length; k++) series[k] = new XYIntervalSeries(kinds[k]);
        Map<Integer, java.util.TreeSet<Double>> initDone = new TreeMap<>();   // every init's end, per rank
        Map<Integer, Double> initStart = new TreeMap<>();  // an init begun and not yet done
        XYSeries fails = new XYSeries("process fails (crash, watchdog, GPU hang, error)", false, true);
        XYSeries stops = new XYSeries("process stopped (killed, aborted)", false, true);
        for (RankEvent e : r.events()) {
            Integer y = row.get(e.rank());
            if (y == null) continue;
            double t = e.timePs() / 1e12;
            if (e.kind().equals("INIT_START")) initStart.put(e.rank(), t);
            if (e.kind().equals("INIT_DONE") && initStart.containsKey(e.rank())) {
                add(series[0], y, initStart.remove(e.rank()), t);
                initDone.computeIfAbsent(e.rank(), k -> new java.util.TreeSet<>()).add(t);
            }
            if (FAILS.contains(e.kind())) fails.add(t, (double) y);
            if (STOPS.contains(e.kind())) stops.add(t, (double) y);
        }
        for (Map.Entry<Integer, Double> s : initStart.entrySet()) add(series[0], row.get(s.getKey()), s.getValue(), end);
        for (Map.Entry<Integer, List<FrEntry>> f : r.flightRecords().entrySet()) {
            Integer y = row.get(f.getKey());
            if (y == null) continue;
            java.util.TreeSet<Double> inits = initDone.getOrDefault(f.getKey(), new java.util.TreeSet<>());
            double free = 0;
            for (FrEntry e : f.getValue()) {
                double created = e.createdPs() / 1e12;
                Double init = inits.floor(created);   // a relaunch starts the rank afresh
                if (init != null) free = Math.max(free, init);
                if (created > free) add(series[1], y, free, created);
                boolean started = e.startedPs() >= 0;
                double start = started ? e.startedPs() / 1e12 : created;
                if (started && start > created) add(series[2], y, created, start);
                if (e.completedPs() >= 0) {
                    add(series[3], y, start, e.completedPs() / 1e12);
                    free = Math.max(free, e.completedPs() / 1e12);
                } else {
                    add(series[4], y, start, end);
                    free = end;
                }
            }
        }
        XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
        for (XYIntervalSeries s : series) data.addSeries(s);
        XYBarRenderer bars = new XYBarRenderer();
        bars.setUseYInterval(true);
        bars.setBarPainter(new StandardXYBarPainter());
        bars.setShadowVisible(false);
        bars.setDrawBarOutline(false);
        for (int k = 0; k < kinds.length; k++) bars.setSeriesPaint(k, colors[k]);
        NumberAxis x = new NumberAxis("simulated job time (s)");
        x.setRange(0, Math.max(end, 1e-9) * 1.02);
        String[] names = new String[ranks.size()];
        Map<Integer, String> named = new TreeMap<>();
        r.diagnosis().stream().filter(d -> d.ranks().size() < r.ranks().size())   // an entry naming every rank singles none out
                .forEach(d -> d.ranks().forEach(k -> named.putIfAbsent(k, d.category().toString())));
        for (int i = 0; i < names.length; i++) {
            String tag = named.get(ranks.get(i));
            names[i] = "rank " + ranks.get(i) + (tag == null ? "" : " [" + tag + "]");
        }
        SymbolAxis y = new SymbolAxis(null, names);
        y.setGridBandsVisible(false);
        y.setInverted(true);
        y.setTickLabelFont(ChartStyle.SMALL);
        XYPlot plot = new XYPlot(data, x, y, bars);
        XYSeriesCollection endData = new XYSeriesCollection();
        endData.addSeries(fails);
        endData.addSeries(stops);
        XYLineAndShapeRenderer endR = new XYLineAndShapeRenderer(false, true);
        endR.setSeriesShape(0, ShapeUtils.createDiagonalCross(6f, 1.5f));
        endR.setSeriesPaint(0, Color.BLACK);
        endR.setSeriesShape(1, ShapeUtils.createDiagonalCross(5f, 1.0f));
        endR.setSeriesPaint(1, new Color(0x8C8C8C));
        plot.setDataset(1, endData);
        plot.setRenderer(1, endR);
        plot.setDatasetRenderingOrder(org.jfree.chart.plot.DatasetRenderingOrder.FORWARD);
        int n = 0;
        for (String note : r.faults()) {
            double t = faultTime(note);
            if (Double.isNaN(t)) continue;
            ValueMarker m = new ValueMarker(t, new Color(0xC00000), new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
                    10f, new float[] {5f, 3f}, 0f));
            if (n < 6) {
                m.setLabel(note.substring(note.indexOf(':') + 1).trim());
                m.setLabelFont(ChartStyle.SMALL);
                m.setLabelPaint(new Color(0xC00000));
                m.setLabelBackgroundColor(new Color(255, 255, 255, 220));
                m.setLabelAnchor(n % 2 == 0 ? RectangleAnchor.TOP_RIGHT : RectangleAnchor.BOTTOM_RIGHT);
                m.setLabelTextAnchor(n % 2 == 0 ? TextAnchor.TOP_LEFT : TextAnchor.BOTTOM_LEFT);
            }
            plot.addDomainMarker(m, Layer.FOREGROUND);
            n++;
        }
        String shown = ranks.size() < r.ranks().size() ? ranks.size() + " of " + r.ranks().size() + " ranks shown" : r.ranks().size() + " ranks";
        String title = String.format(Locale.ROOT, "scenario %s: %s after %.3f s simulated, %s%s", r.scenario(),
                r.outcome().toString().toLowerCase(Locale.ROOT), end, shown, r.faults().isEmpty() ? ""
                        : ", injected faults dashed red");
        JFreeChart chart = ChartStyle.chart(title, plot, true);
        return ChartFile.write("--chart", file, chart, WIDTH, 170 + 22 * ranks.size());
    }

    /** The ranks drawn: all up to {@link #MAX_RANKS}; beyond, the diagnosis' ranks first, then the lowest. */
    static List<Integer> ranksShown(ScenarioResult r) {
        List<Integer> all = new ArrayList<>();
        for (ScenarioResult.RankSummary s : r.ranks()) all.add(s.rank());
        all.sort(Comparator.naturalOrder());
        if (all.size() <= MAX_RANKS) return all;
        java.util.TreeSet<Integer> pick = new java.util.TreeSet<>();
        r.diagnosis().forEach(d -> d.ranks().stream().filter(all::contains).forEach(k -> { if (pick.size() < MAX_RANKS) pick.add(k); }));
        for (int k : all) if (pick.size() < MAX_RANKS) pick.add(k);
        return new ArrayList<>(pick);
    }

    /** The time (s) a fault note starts with ("2.502 s: link ... up"), or NaN. */
    static double faultTime(String note) {
        if (note.startsWith("0 s:")) return 0;
        Matcher m = FAULT_TIME.matcher(note);
        if (!m.find()) return Double.NaN;
        double v = Double.parseDouble(m.group(1));
        switch (m.group(2)) {
            case "ms": return v / 1e3;
            case "us": return v / 1e6;
            case "ps": return v / 1e12;
            default: return v;
        }
    }

    private static void add(XYIntervalSeries s, int y, double from, double to) {
        if (to <= from) return;
        s.add((from + to) / 2, from, to, y, y - 0.36, y + 0.36);
    }
}
