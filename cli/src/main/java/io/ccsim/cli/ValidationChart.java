package io.ccsim.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The {@code validate --chart} PNG: busbw (GB/s) against size (bytes, log2 axis), one panel per (op, n, channels),
 * in each panel one colour per (algorithm, protocol): measured solid with dots, simulated dashed. Panels are laid
 * out in a grid of up to 4 columns. Headless (sets {@code java.awt.headless=true} before touching AWT).
 */
final class ValidationChart {
    private ValidationChart() {}

    /** What was drawn: image size in pixels, panels drawn, and panels left out because every series had one size. */
    record Summary(int width, int height, int panels, int leftOut) { }

    static final int PANEL_W = 620;
    static final int PANEL_H = 430;
    /** Tableau 10 (colour-blind friendly enough to tell six series apart). */
    private static final Color[] PALETTE = {new Color(0x4E79A7), new Color(0xF28E2B), new Color(0xE15759), new Color(0x76B7B2),
        new Color(0x59A14F), new Color(0xEDC948), new Color(0xB07AA1), new Color(0xFF9DA7), new Color(0x9C755F), new Color(0xBAB0AC)};

    static Summary write(Path png, List<ValidateCommand.Compared> rows) throws IOException {
        System.setProperty("java.awt.headless", "true");
        // panels per (op, n, channels) where a channel count was swept over sizes (timing files); rows whose
        // channels change with the size (perf output: the tuner's choice) go to one (op, n) panel per series
        List<ValidateCommand.Compared> sorted = rows.stream()
                .sorted(java.util.Comparator.comparing((ValidateCommand.Compared c) -> c.m().op()).thenComparingInt(ValidateCommand.Compared::n)
                        .thenComparingInt(c -> c.m().channels()).thenComparing(ValidateCommand.Compared::algoLabel)
                        .thenComparing(ValidateCommand.Compared::protoLabel).thenComparingLong(c -> c.m().bytes()))
                .collect(java.util.stream.Collectors.toList());
        Map<String, java.util.Set<Long>> sizesPerSweep = new java.util.HashMap<>();
        for (ValidateCommand.Compared c : sorted) sizesPerSweep.computeIfAbsent(sweepKey(c), k -> new java.util.HashSet<>()).add(c.m().bytes());
        Map<String, Map<String, List<ValidateCommand.Compared>>> panels = new LinkedHashMap<>();
        for (ValidateCommand.Compared c : sorted) {
            boolean swept = c.m().channels() > 0 && sizesPerSweep.get(sweepKey(c)).size() > 1;
            String title = c.m().op().cliName() + ", n = " + c.n() + ", "
                    + (swept ? c.m().channels() + " channels" : c.m().channels() > 0 ? "channels as measured" : "NCCL's choice");
            panels.computeIfAbsent(title, k -> new LinkedHashMap<>()).computeIfAbsent(c.algoLabel() + " " + c.protoLabel(),
                    k -> new ArrayList<>()).add(c);
        }
        int leftOut = 0;
        List<JFreeChart> charts = new ArrayList<>();
        List<JFreeChart> single = new ArrayList<>();
        for (Map.Entry<String, Map<String, List<ValidateCommand.Compared>>> p : panels.entrySet()) {
            boolean anyLine = p.getValue().values().stream().anyMatch(s -> s.stream().mapToLong(c -> c.m().bytes()).distinct().count() > 1);
            (anyLine ? charts : single).add(panel(p.getKey(), p.getValue()));
        }
        if (charts.isEmpty()) charts = single;   // nothing but single sizes: draw those rather than nothing
        else leftOut = single.size();
        int cols = Math.min(4, charts.size());
        int rowsN = (charts.size() + cols - 1) / cols;
        int w = cols * PANEL_W;
        int h = rowsN * PANEL_H + 40;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, w, h);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
            g.drawString("ccsim validate: bus bandwidth, measured (solid, dots) vs simulated (dashed)", 16, 27);
            for (int i = 0; i < charts.size(); i++) {
                charts.get(i).draw(g, new Rectangle2D.Double((i % cols) * PANEL_W, 40 + (i / cols) * PANEL_H, PANEL_W, PANEL_H));
            }
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(img, "png", png.toFile())) throw new IOException("no PNG writer in this Java runtime");
        return new Summary(w, h, charts.size(), leftOut);
    }

    private static String sweepKey(ValidateCommand.Compared c) {
        return c.m().op() + "|" + c.n() + "|" + c.m().channels() + "|" + c.algoLabel() + "|" + c.protoLabel();
    }

    private static JFreeChart panel(String title, Map<String, List<ValidateCommand.Compared>> series) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        int i = 0;
        for (Map.Entry<String, List<ValidateCommand.Compared>> s : series.entrySet()) {
            XYSeries meas = new XYSeries(s.getKey() + " measured", true, true);
            XYSeries sim = new XYSeries(s.getKey() + " simulated", true, true);
            for (ValidateCommand.Compared c : s.getValue()) {
                meas.add(c.m().bytes(), c.busbw(c.m().timeUs()));
                sim.add(c.m().bytes(), c.busbw(c.simUs()));
            }
            Color color = PALETTE[i % PALETTE.length];
            data.addSeries(meas);
            data.addSeries(sim);
            int a = 2 * i;
            r.setSeriesPaint(a, color);
            r.setSeriesStroke(a, new BasicStroke(2.2f));
            r.setSeriesShape(a, new Ellipse2D.Double(-3.5, -3.5, 7, 7));
            r.setSeriesShapesVisible(a, true);
            r.setSeriesPaint(a + 1, color);
            r.setSeriesStroke(a + 1, new BasicStroke(2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {7f, 5f}, 0f));
            r.setSeriesShapesVisible(a + 1, false);
            i++;
        }
        LogAxis x = new LogAxis("size (bytes)");
        x.setBase(2);
        x.setTickUnit(new NumberTickUnit(2));
        x.setNumberFormatOverride(new SizeFormat());
        x.setSmallestValue(1);
        long lo = series.values().stream().flatMap(List::stream).mapToLong(c -> c.m().bytes()).min().orElse(1);
        long hi = series.values().stream().flatMap(List::stream).mapToLong(c -> c.m().bytes()).max().orElse(1);
        x.setRange(lo / 1.4, hi * 1.4);   // explicit: a single size would be an empty range
        NumberAxis y = new NumberAxis("busbw (GB/s)");
        y.setAutoRangeIncludesZero(true);
        XYPlot plot = new XYPlot(data, x, y, r);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        LegendTitle legend = chart.getLegend();
        legend.setPosition(RectangleEdge.BOTTOM);
        legend.setItemFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        return chart;
    }

    /** Byte counts as 1K, 64M, 1G (powers of 1024), for the log2 axis' ticks. */
    static final class SizeFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
            return to.append(Sizes.human(Math.round(number)));
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
            return to.append(Sizes.human(number));
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            throw new UnsupportedOperationException("SizeFormat only formats");
        }
    }
}
