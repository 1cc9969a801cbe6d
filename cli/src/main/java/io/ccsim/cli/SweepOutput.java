package io.ccsim.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The result files of a sweep ({@code .csv} and {@code .jsonl}), written one complete line per finished point, so that
 * an interrupted sweep keeps every point it finished and a rerun resumes it.
 *
 * <p>Contract: {@link #open} reads what the files already hold: a point counts as done when every file holds a
 * complete row of it (a line ended by a newline, with all columns; a line cut by a kill is not one). Each file is
 * rewritten with exactly one row per done point (dropping cut lines, duplicates and rows the other file lacks), so
 * the rerun appends only the rest: no row lost, none twice. A row of a point that is not in the study is an error (a
 * different study writes to a new file). {@link #append} writes a row to every file and flushes it. {@link #finish}
 * of a complete sweep sorts the rows by point, so the files of a finished sweep do not depend on the order the
 * points finished in.
 */
final class SweepOutput implements AutoCloseable {
    private final List<Path> files;
    private final List<BufferedWriter> writers = new ArrayList<>();
    private final Set<String> done;

    private SweepOutput(List<Path> files, Set<String> done) {
        this.files = files;
        this.done = done;
    }

    /**
     * Opens {@code files} for the study whose point ids are {@code ids}.
     *
     * @throws UserException for a file of another extension, one that cannot be read or written, or rows of another study
     */
    static SweepOutput open(List<Path> files, Set<String> ids) {
        Set<String> done = null;
        for (Path f : files) {
            if (!isCsv(f) && !f.toString().endsWith(".jsonl")) {
                throw new UserException("--out " + f + ": unknown format; valid: FILE.csv or FILE.jsonl (FILE.parquet with --master)");
            }
            Set<String> have = new LinkedHashSet<>();
            List<String> lines = lines(f);
            for (int i = 0; i < lines.size(); i++) {
                String id = id(f, lines.get(i), i);
                if (id == null) continue;
                if (!ids.contains(id)) {
                    throw new UserException("--out " + f + ": holds point " + id + ", which is not a point of this study;"
                            + " valid: the file of an interrupted run of the same study, or a new file");
                }
                have.add(id);
            }
            if (done == null) done = have;
            else done.retainAll(have);
        }
        SweepOutput out = new SweepOutput(List.copyOf(files), done == null ? new HashSet<>() : done);
        for (Path f : files) out.writers.add(out.rewrite(f));
        return out;
    }

    /** The ids of the points already done. */
    Set<String> done() {
        return Set.copyOf(done);
    }

    /** Writes the row in JSON line {@code json} to every file, flushed. */
    synchronized void append(String json) {
        try {
            for (int i = 0; i < files.size(); i++) {
                BufferedWriter w = writers.get(i);
                w.write(isCsv(files.get(i)) ? SweepRows.csvLine(json) : json);
                w.write('\n');
                w.flush();
            }
        } catch (IOException e) {
            throw new UserException("cannot write sweep rows: " + e.getMessage(), e);
        }
    }

    /** Closes the files; sorts their rows by point when {@code complete}. */
    void finish(boolean complete) {
        close();
        if (!complete) return;
        for (Path f : files) {
            List<String> rows = new ArrayList<>();
            List<String> lines = lines(f);
            for (int i = 0; i < lines.size(); i++) if (id(f, lines.get(i), i) != null) rows.add(lines.get(i));
            rows.sort(Comparator.comparingInt(l -> Integer.parseInt(l.substring(isCsv(f) ? 0 : l.indexOf(':') + 1,
                    isCsv(f) ? l.indexOf(',') : l.indexOf(',')))));
            write(f, rows);
        }
    }

    @Override
    public synchronized void close() {
        for (BufferedWriter w : writers) {
            try {
                w.close();
            } catch (IOException e) {
                throw new UserException("cannot write sweep rows: " + e.getMessage(), e);
            }
        }
        writers.clear();
    }

    /** Rewrites {@code f} with one row per done point (the first of each), then opens it for appending. */
    private BufferedWriter rewrite(Path f) {
        List<String> keep = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        List<String> lines = lines(f);
        for (int i = 0; i < lines.size(); i++) {
            String id = id(f, lines.get(i), i);
            if (id != null && done.contains(id) && seen.add(id)) keep.add(lines.get(i));
        }
        write(f, keep);
        try {
            return Files.newBufferedWriter(f, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UserException("cannot write --out " + f + ": " + e.getMessage(), e);
        }
    }

    /** Writes the header (CSV) and {@code rows} to {@code f} through a temporary file moved over it. */
    private static void write(Path f, List<String> rows) {
        try {
            Path abs = f.toAbsolutePath();
            Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
            StringBuilder sb = new StringBuilder();
            if (isCsv(f)) sb.append(SweepRows.csvHeader()).append('\n');
            for (String r : rows) sb.append(r).append('\n');
            Files.writeString(tmp, sb, StandardCharsets.UTF_8);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UserException("cannot write --out " + f + ": " + e.getMessage(), e);
        }
    }

    /** The complete lines of {@code f} (a last line without its newline is cut, so left out); none if absent. */
    private static List<String> lines(Path f) {
        if (!Files.exists(f)) return List.of();
        String text = io.ccsim.topology.input.TextFile.read(f, "--out");
        int end = text.lastIndexOf('\n');
        if (end < 0) return List.of();
        return List.of(text.substring(0, end).split("\n", -1));
    }

    /** The point id of line {@code index} (from 0) of {@code f}, or null if it is not a complete row. */
    private static String id(Path f, String line, int index) {
        return isCsv(f) ? SweepRows.idOfCsv(line) : SweepRows.idOfJson(line, "--out " + f + ": line " + (index + 1));
    }

    private static boolean isCsv(Path f) {
        return f.toString().endsWith(".csv");
    }
}
