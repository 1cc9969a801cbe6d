package io.ccsim.cli;

import io.ccsim.algorithms.perf.PerfRow;
import java.awt.Color;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.util.ShapeUtils;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The {@code perf --chart} image (PNG or SVG, {@link ChartFile}): busbw (GB/s, nccl-tests' definition) against size
 * (bytes, log2 axis). Each source of rows (simulated; measured with {@code --backend cuda}) is a line of its own
 * colour and stroke (simulated dashed, measured solid); on it, each size's point has the shape and colour of the
 * algorithm/protocol that ran it, so that a change of NCCL's choice shows where it happens.
 */
final class PerfChart {
    private PerfChart() {}

    static final int WIDTH = 900;
    static final int HEIGHT = 560;

    /** One line of the chart: its legend name, its rows, and whether it was measured (solid) or simulated (dashed). */
    record Source(String name, List<PerfRow> rows, boolean measured) { }

    /** {@code "all_reduce busbw on hgx-h200: 8 ranks, 1 node, <what>"}. */
    static String title(io.ccsim.algorithms.CollectiveOp op, io.ccsim.topology.Topology topo, io.ccsim.algorithms.perf.PerfRunner runner,
                        String what) {
        int nodes = runner.graph().nNodes();
        return op.cliName() + " busbw on " + topo.name() + ": " + runner.graph().nRanks() + " ranks, " + nodes
                + (nodes == 1 ? " node, " : " nodes, ") + what;
    }

    /**
     * Each row measured by {@code perf --backend cuda} simulated as it was timed: its own algorithm, protocol and
     * channels, the mean of as many back-to-back graph replays, an all-to-all placed as NCCL places it
     * ({@link io.ccsim.algorithms.perf.PerfRunner#simulateGraphReplay}).
     */
    static List<PerfRow> simulated(io.ccsim.algorithms.perf.PerfRunner runner, List<PerfRow> measured) {
        List<PerfRow> out = new java.util.ArrayList<>();
        for (PerfRow m : measured) {
            out.add(runner.simulateGraphReplay(m.op(), m.count(), m.dtype(), m.redop() == null ? io.ccsim.algorithms.ReduceOp.SUM
                    : m.redop(), Math.max(m.root(), 0), m.algo(), m.proto(), m.channels(), true));
        }
        return out;
    }

    /** Draws {@code sources} (at least one row in all) titled {@code title}; returns what was written. */
    static ChartFile.Written write(Path file, String title, List<Source> sources) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        long lo = Long.MAX_VALUE;
        long hi = 1;
        int i = 0;
        for (Source s : sources) {
            XYSeries line = new XYSeries(s.name(), true, true);
            for (PerfRow row : s.rows()) {
                line.add(Math.max(row.bytes(), 1), row.busbwGbps());
                lo = Math.min(lo, Math.max(row.bytes(), 1));
                hi = Math.max(hi, row.bytes());
            }
            data.addSeries(line);
            r.setSeriesPaint(i, s.measured() ? Color.BLACK : Color.DARK_GRAY);
            r.setSeriesStroke(i, s.measured() ? ChartStyle.solid(1.8f) : ChartStyle.dashed(1.8f));
            r.setSeriesShapesVisible(i, false);
            i++;
        }
        // the choices, points only: one series per algorithm/protocol across sources
        Map<String, XYSeries> choices = new LinkedHashMap<>();
        for (Source s : sources) {
            for (PerfRow row : s.rows()) {
                String k = row.algo().ncclName() + "/" + row.proto().ncclName();
                choices.computeIfAbsent(k, x -> new XYSeries(x, false, true)).add(Math.max(row.bytes(), 1), row.busbwGbps());
            }
        }
        Shape[] shapes = {new Ellipse2D.Double(-4, -4, 8, 8), new Rectangle2D.Double(-3.5, -3.5, 7, 7), ShapeUtils.createDiamond(5f),
            ShapeUtils.createUpTriangle(5f), ShapeUtils.createDownTriangle(5f), ShapeUtils.createDiagonalCross(4f, 1.2f)};
        int c = 0;
        for (XYSeries s : choices.values()) {
            data.addSeries(s);
            r.setSeriesLinesVisible(i, false);
            r.setSeriesShape(i, shapes[c % shapes.length]);
            r.setSeriesPaint(i, ChartStyle.color(c));
            i++;
            c++;
        }
        NumberAxis y = new NumberAxis("busbw (GB/s)");
        y.setAutoRangeIncludesZero(true);
        XYPlot plot = new XYPlot(data, ChartStyle.sizeAxis("size (bytes, log2 scale)", lo == Long.MAX_VALUE ? 1 : lo, hi), y, r);
        JFreeChart chart = ChartStyle.chart(title, plot, true);
        return ChartFile.write("--chart", file, chart, WIDTH, HEIGHT);
    }
}
