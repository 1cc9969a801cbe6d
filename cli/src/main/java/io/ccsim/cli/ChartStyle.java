package io.ccsim.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Stroke;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;

/**
 * The look shared by ccsim's charts: a colour palette, the message-size axis (log2, ticks labelled 1K, 64M, 1G),
 * white backgrounds with light grid lines, a bold title that wraps rather than clips, and the legend below.
 */
final class ChartStyle {
    private ChartStyle() {}

    /** Tableau 10: colour-blind friendly enough to tell six series apart. */
    private static final Color[] PALETTE = {new Color(0x4E79A7), new Color(0xF28E2B), new Color(0xE15759), new Color(0x76B7B2),
        new Color(0x59A14F), new Color(0xEDC948), new Color(0xB07AA1), new Color(0xFF9DA7), new Color(0x9C755F), new Color(0xBAB0AC)};

    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    static final Color GRID = new Color(0xDDDDDD);

    /** The {@code i}-th colour of the palette (cycles after 10). */
    static Color color(int i) { return PALETTE[Math.floorMod(i, PALETTE.length)]; }

    /** A solid line {@code width} px wide. */
    static Stroke solid(float width) { return new BasicStroke(width); }

    /** A dashed line {@code width} px wide (7 px on, 5 off). */
    static Stroke dashed(float width) {
        return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {7f, 5f}, 0f);
    }

    /**
     * A log2 axis of message sizes in bytes spanning [{@code lo}, {@code hi}] with a margin of a factor 1.4 on each
     * side (so that a single size still has a range), a tick per power of two (every other one past 16 powers).
     */
    static LogAxis sizeAxis(String label, long lo, long hi) {
        LogAxis x = new LogAxis(label);
        x.setBase(2);
        double powers = Math.log(Math.max(hi, 1) / (double) Math.max(lo, 1)) / Math.log(2);
        x.setTickUnit(new NumberTickUnit(powers > 16 ? 2 : 1));
        x.setNumberFormatOverride(new SizeFormat());
        x.setSmallestValue(0.5);
        x.setRange(Math.max(lo, 1) / 1.4, Math.max(hi, 1) * 1.4);
        x.setTickLabelFont(SMALL);
        return x;
    }

    /** A chart of {@code plot} with ccsim's look: wrapped bold {@code title}, white background, legend (if any) below. */
    static JFreeChart chart(String title, Plot plot, boolean legend) {
        plot.setBackgroundPaint(Color.WHITE);
        if (plot instanceof XYPlot xy) {
            xy.setDomainGridlinePaint(GRID);
            xy.setRangeGridlinePaint(GRID);
        }
        JFreeChart chart = new JFreeChart(null, TITLE, plot, legend);
        TextTitle t = new TextTitle(title, TITLE);
        t.setPadding(6, 8, 2, 8);
        chart.setTitle(t);
        chart.setBackgroundPaint(Color.WHITE);
        if (legend) {
            LegendTitle l = chart.getLegend();
            l.setPosition(RectangleEdge.BOTTOM);
            l.setItemFont(SMALL);
        }
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
