package io.ccsim.cli;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.block.LengthConstraintType;
import org.jfree.chart.block.RectangleConstraint;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Size2D;
import org.jfree.data.Range;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.SVGUtils;

/**
 * The file behind every {@code --chart FILE}: a PNG or an SVG, chosen by the name's extension ({@code .png},
 * {@code .svg}, any case). {@link #check} refuses, before any simulation, a name with another extension and a
 * folder that does not exist (missing folders are not created). Drawing is headless: the system property
 * {@code java.awt.headless} is set to {@code true} before AWT is touched.
 */
final class ChartFile {
    private ChartFile() {}

    /** The image format of a chart file. */
    enum Format { PNG, SVG }

    /** What was written: the file's format and its size in pixels (SVG: user units of the same size). */
    record Written(Format format, int width, int height) {
        /** {@code "PNG, 1240 x 470 px"}. */
        String describe() { return String.format(Locale.ROOT, "%s, %d x %d px", format, width, height); }
    }

    /**
     * The format {@code file} names, after checking that it can be created.
     *
     * @throws UserException (one line naming {@code option}) for an extension other than .png/.svg, or a parent
     *                       folder that does not exist or is not a folder
     */
    static Format check(String option, Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        Format f;
        if (name.endsWith(".png")) f = Format.PNG;
        else if (name.endsWith(".svg")) f = Format.SVG;
        else throw new UserException(option + " " + file + ": unknown image type; valid: a file name ending in .png or .svg");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new UserException(option + " " + file + ": folder " + parent + " does not exist; create it first");
        }
        return f;
    }

    /** Height of the strip at the bottom of every image that holds the stamp, px. */
    static final int STAMP_HEIGHT = 12;

    /** The build that drew a chart, in its bottom right corner: the provenance every ccsim output carries. */
    static String stampText() {
        return "ccsim " + BuildInfo.current().label();
    }

    private static void stamp(Graphics2D g, int w, int h) {
        String text = stampText();
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 9));
        g.setColor(Color.GRAY);
        g.drawString(text, w - g.getFontMetrics().stringWidth(text) - 4, h - 3);
    }

    /** Writes one chart filling a {@code width} × {@code height} image. */
    static Written write(String option, Path file, JFreeChart chart, int width, int height) {
        return writeGrid(option, file, null, List.of(chart), 1, width, height);
    }

    /**
     * Writes {@code panels} in a grid of {@code cols} columns, each {@code panelW} × {@code panelH}, under a caption
     * (null: none) wrapped to the image's width.
     *
     * @throws UserException when the file cannot be written (one line: the file and the reason)
     */
    static Written writeGrid(String option, Path file, String caption, List<JFreeChart> panels, int cols, int panelW, int panelH) {
        Format format = check(option, file);
        System.setProperty("java.awt.headless", "true");
        int rows = (panels.size() + cols - 1) / cols;
        int w = cols * panelW;
        TextTitle title = caption == null ? null : new TextTitle(caption, new Font(Font.SANS_SERIF, Font.BOLD, 16));
        int top = 0;
        if (title != null) {
            title.setPadding(8, 12, 4, 12);
            BufferedImage probe = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
            Graphics2D pg = probe.createGraphics();
            // wrapped to the image's width: a width range and no height constraint (JFreeChart's RN arrangement)
            Size2D s = title.arrange(pg, new RectangleConstraint(0, new Range(0, w), LengthConstraintType.RANGE, 0, null,
                    LengthConstraintType.NONE));
            pg.dispose();
            top = (int) Math.ceil(s.height);
        }
        int h = top + rows * panelH;
        BufferedImage img = format == Format.PNG ? new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB) : null;
        SVGGraphics2D svg = format == Format.SVG ? new SVGGraphics2D(w, h) : null;
        Graphics2D g = img != null ? img.createGraphics() : svg;
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, w, h);
            if (title != null) title.draw(g, new Rectangle2D.Double(0, 0, w, top));
            // the panels share the height left above the stamp's strip, so the image keeps its announced size
            double ph = (double) (h - top - STAMP_HEIGHT) / rows;
            for (int i = 0; i < panels.size(); i++) {
                panels.get(i).draw(g, new Rectangle2D.Double((i % cols) * panelW, top + (i / cols) * ph, panelW, ph));
            }
            stamp(g, w, h);
        } finally {
            g.dispose();
        }
        try {
            if (img != null) {
                if (!ImageIO.write(img, "png", file.toFile())) throw new IOException("no PNG writer in this Java runtime");
            } else {
                SVGUtils.writeToSVG(file.toFile(), svg.getSVGElement());
            }
        } catch (IOException e) {
            throw new UserException(option + " " + file + ": cannot write: " + e.getMessage(), e);
        }
        return new Written(format, w, h);
    }
}
