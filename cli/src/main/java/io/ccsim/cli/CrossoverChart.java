package io.ccsim.cli;

import java.awt.Color;
import java.awt.Paint;
import java.awt.geom.Ellipse2D;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.LookupPaintScale;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.util.ShapeUtils;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The {@code tune --chart} crossover map (PNG or SVG, {@link ChartFile}): one column per size (in the order of the
 * table, so a geometric size range is a log axis), one row per candidate algorithm/protocol; each cell coloured by
 * how much slower than the fastest candidate of its size it is (t / t_fastest, from 1 = fastest to 2 and more), the
 * fastest marked with a black ring, NCCL's default pick with a black cross (inside the ring where they agree). A size where the dot and the cross part
 * is a size where NCCL's cost model misses the simulated best.
 */
final class CrossoverChart {
    private CrossoverChart() {}

    static final int WIDTH = 1000;

    /** Slowdown bands of the colour scale: upper bounds of t / t_fastest and their colours (green to red, grey above). */
    private static final double[] BANDS = {1.0 + 1e-9, 1.05, 1.25, 1.5, 2.0, 4.0};
    private static final Color[] BAND_COLORS = {new Color(0x1A9850), new Color(0x91CF60), new Color(0xD9EF8B), new Color(0xFEE08B),
        new Color(0xFC8D59), new Color(0xD73027)};

    /** Draws the map of {@code lines} over the candidates {@code labels} (the table's column order). */
    static ChartFile.Written write(Path file, String title, List<TuneCommand.Line> lines, List<String> labels) {
        int nx = lines.size();
        int ny = labels.size();
        boolean extrapolated = !lines.isEmpty() && !lines.get(0).cells().isEmpty()
                && lines.get(0).cells().get(0).extrapolation() != null;
        XYSeries fastest = new XYSeries(extrapolated ? "fastest (extrapolated)" : "fastest (simulated)", false, true);
        XYSeries nccl = new XYSeries("NCCL's pick (cost model)", false, true);
        for (int x = 0; x < nx; x++) {
            TuneCommand.Line line = lines.get(x);
            fastest.add(x, labels.indexOf(line.best()));
            if (labels.contains(line.nccl())) nccl.add(x, labels.indexOf(line.nccl()));
        }
        DefaultXYZDataset map = new DefaultXYZDataset();
        map.addSeries("t / t_fastest", blocks(lines, labels));
        XYBlockRenderer blocks = new XYBlockRenderer();
        LookupPaintScale scale = new LookupPaintScale(1.0, 4.4, new Color(0x8C8C8C));
        scale.add(1.0, BAND_COLORS[0]);
        for (int b = 1; b < BANDS.length; b++) scale.add(BANDS[b - 1], BAND_COLORS[b]);
        scale.add(BANDS[BANDS.length - 1], new Color(0x8C8C8C));
        blocks.setPaintScale(scale);

        String[] sizeNames = new String[nx];
        for (int x = 0; x < nx; x++) sizeNames[x] = Sizes.human(lines.get(x).bytes());
        SymbolAxis xAxis = new SymbolAxis("size (bytes; one column per size of the sweep)", sizeNames);
        xAxis.setGridBandsVisible(false);
        xAxis.setTickLabelFont(ChartStyle.SMALL);
        xAxis.setVerticalTickLabels(nx > 16);
        SymbolAxis yAxis = new SymbolAxis("algorithm/protocol", labels.toArray(new String[0]));
        yAxis.setGridBandsVisible(false);
        XYPlot plot = new XYPlot(map, xAxis, yAxis, blocks);
        XYSeriesCollection marks = new XYSeriesCollection();
        marks.addSeries(fastest);
        marks.addSeries(nccl);
        XYLineAndShapeRenderer mr = new XYLineAndShapeRenderer(false, true);
        // a hollow ring for the fastest, a smaller cross for NCCL's pick: where they agree the cross sits in the ring
        mr.setSeriesShape(0, new Ellipse2D.Double(-8, -8, 16, 16));
        mr.setSeriesShapesFilled(0, false);
        mr.setSeriesPaint(0, Color.BLACK);
        mr.setSeriesOutlineStroke(0, ChartStyle.solid(2.5f));
        mr.setSeriesStroke(0, ChartStyle.solid(2.5f));
        mr.setUseOutlinePaint(false);
        mr.setSeriesShape(1, ShapeUtils.createDiagonalCross(4.5f, 1.2f));
        mr.setSeriesPaint(1, Color.BLACK);
        plot.setDataset(1, marks);
        plot.setRenderer(1, mr);
        plot.setDatasetRenderingOrder(org.jfree.chart.plot.DatasetRenderingOrder.FORWARD);
        plot.setDomainGridlinesVisible(false);
        plot.setRangeGridlinesVisible(false);
        JFreeChart chart = ChartStyle.chart(title, plot, true);
        chart.removeLegend();
        org.jfree.chart.title.LegendTitle legend = new org.jfree.chart.title.LegendTitle(mr);
        legend.setPosition(RectangleEdge.BOTTOM);
        legend.setItemFont(ChartStyle.SMALL);
        chart.addSubtitle(legend);
        chart.addSubtitle(scaleLegend(scale));
        int height = 200 + 34 * ny;
        return ChartFile.write("--chart", file, chart, WIDTH, height);
    }

    private static PaintScaleLegend scaleLegend(LookupPaintScale scale) {
        NumberAxis a = new NumberAxis("time / fastest time of the size (grey: more than 4x; blank: no time, see the table)");
        a.setRange(1.0, 4.4);
        a.setTickLabelFont(ChartStyle.SMALL);
        PaintScaleLegend l = new PaintScaleLegend(scale, a);
        l.setPosition(RectangleEdge.BOTTOM);
        l.setStripWidth(12);
        l.setMargin(4, 80, 4, 80);
        l.setSubdivisionCount(200);
        return l;
    }

    /**
     * The map's blocks {x (size index), y (label index), t / t_fastest}, one per cell with a time: a candidate without
     * one at a size (not extrapolated there) is no block and stays blank.
     */
    static double[][] blocks(List<TuneCommand.Line> lines, List<String> labels) {
        double[][] cells = new double[3][lines.size() * labels.size()];
        int k = 0;
        for (int x = 0; x < lines.size(); x++) {
            TuneCommand.Line line = lines.get(x);
            double best = line.bestCell().timeUs();
            for (int y = 0; y < labels.size(); y++) {
                TuneCommand.Cell c = cell(line, labels.get(y));
                if (c == null) continue;
                cells[0][k] = x;
                cells[1][k] = y;
                cells[2][k] = c.timeUs() / best;
                k++;
            }
        }
        for (int i = 0; i < 3; i++) cells[i] = java.util.Arrays.copyOf(cells[i], k);
        return cells;
    }

    private static TuneCommand.Cell cell(TuneCommand.Line line, String label) {
        for (TuneCommand.Cell c : line.cells()) if (c.label().equals(label)) return c;
        return null;
    }

    /** The colour of a slowdown {@code ratio} (t / t_fastest); exposed for tests. */
    static Paint colorOf(double ratio) {
        for (int b = 0; b < BANDS.length; b++) if (ratio <= BANDS[b]) return BAND_COLORS[b];
        return new Color(0x8C8C8C);
    }
}
