package io.ccsim.cli;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ccsim.algorithms.ddp.BucketTiming;
import io.ccsim.algorithms.ddp.CallTiming;
import io.ccsim.algorithms.ddp.DdpResult;
import io.ccsim.algorithms.ddp.DdpSweep;
import io.ccsim.algorithms.ddp.FsdpResult;
import io.ccsim.algorithms.ddp.MeasuredRun;
import io.ccsim.algorithms.ddp.StepOptions;
import io.ccsim.algorithms.ddp.StepProfile;
import io.ccsim.algorithms.scale.Extrapolation;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Prints what {@code ccsim ddp} simulated: text for people, or one JSON object. Times in ms. */
final class DdpReport {
    private static final double MIB = 1 << 20;
    private final PrintWriter out;
    private final boolean json;
    private final JsonObject root = new JsonObject();

    /** The prefix of the header lines of what-ifs ({@link WhatIfOptions#header}). */
    private static final String WHAT_IF = "# what-if: ";

    DdpReport(PrintWriter out, boolean json) {
        this.out = out;
        this.json = json;
    }

    void header(String what, String topology, int ranks, String profileLabel, String source, StepProfile p,
                StepOptions o, List<String> headerLines, Provenance provenance) {
        String measuredAt = p.worldSize().isPresent() ? " (measured at " + p.worldSize().getAsInt() + " ranks)" : "";
        if (json) {
            root.add("provenance", provenance.toJson());
            JsonArray whatIf = new JsonArray();
            for (String l : headerLines) if (l.startsWith(WHAT_IF)) whatIf.add(l.substring(WHAT_IF.length()));
            if (!whatIf.isEmpty()) root.add("what_if", whatIf);
            root.addProperty("mode", what);
            root.addProperty("topology", topology);
            root.addProperty("ranks", ranks);
            root.addProperty("profile", profileLabel);
            root.addProperty("gradients", source);
            root.addProperty("tensors", p.gradients().size());
            root.addProperty("gradient_bytes", p.totalBytes());
            root.addProperty("dtype", p.dtype().longName());
            root.addProperty("forward_ms", ms(p.forwardPs()));
            root.addProperty("backward_ms", ms(p.backwardPs()));
            root.addProperty("overlap", o.overlap());
            root.addProperty("launch_us", o.launchPs() / 1e6);
            root.addProperty("copy_tbps", o.copyBytesPerSecond() / 1e12);
            return;
        }
        out.printf(Locale.ROOT, "# ccsim ddp: one %s training step on %s, %d ranks; collectives by ccsim's tuner and simulator,"
                + " profile %s%n", what, topology, ranks, profileLabel);
        out.println("# provenance: " + provenance.text());
        out.printf(Locale.ROOT, "# gradients: %s: %d tensors, %.1f MiB %s; forward %.3f ms, backward %.3f ms without"
                + " communication%s%n", source, p.gradients().size(), p.totalBytes() / MIB, p.dtype().longName(),
                ms(p.forwardPs()), ms(p.backwardPs()), measuredAt);
        out.printf(Locale.ROOT, "# model: one NCCL stream in launch order; host launch %.1f us per call; device copies at %.2f TB/s;"
                + " compute at %.2f of its speed while a collective runs (--overlap)%n", o.launchPs() / 1e6,
                o.copyBytesPerSecond() / 1e12, o.overlap());
        for (String line : headerLines) out.println(line);
    }

    void ddp(StepProfile p, double capMb, long firstBytes, DdpResult r, int ranks) {
        long bwd = r.forwardPs();
        // a measured run had its cap given explicitly, so its first bucket took the cap too
        boolean sameRule = firstBytes == io.ccsim.algorithms.ddp.BucketAssigner.capBytes(capMb);
        Optional<MeasuredRun> m = comparable(p, ranks) && sameRule ? DdpSweep.measuredAt(p, capMb) : Optional.empty();
        if (json) {
            JsonObject o = summary(capMb, firstBytes, r, m);
            JsonArray a = new JsonArray();
            for (BucketTiming b : r.buckets()) {
                JsonObject x = new JsonObject();
                x.addProperty("bucket", b.bucket().index());
                x.addProperty("tensors", b.bucket().tensors());
                x.addProperty("bytes", b.bucket().bytes());
                x.addProperty("ready_ms", ms(b.readyPs() - bwd));
                x.addProperty("start_ms", ms(b.startPs() - bwd));
                x.addProperty("end_ms", ms(b.endPs() - bwd));
                x.addProperty("allreduce_us", round(b.cost().timePs() / 1e6, 3));
                x.addProperty("algo", b.cost().algo().ncclName());
                x.addProperty("proto", b.cost().proto().ncclName());
                x.addProperty("channels", b.cost().channels());
                a.add(x);
            }
            o.add("buckets", a);
            root.add("step", o);
            return;
        }
        out.println("#");
        out.printf(Locale.ROOT, "# bucket_cap_mb %s, first bucket %s: %d buckets; times in ms from the start of backward%n",
                num(capMb), mib(firstBytes), r.buckets().size());
        out.println("#  bucket  tensors  size(MiB)     ready     start       end  allreduce(us)      algo   proto  nch");
        for (BucketTiming b : r.buckets()) {
            out.printf(Locale.ROOT, "%9d  %7d  %9.3f  %8.3f  %8.3f  %8.3f  %13.2f  %8s  %6s  %3d%n", b.bucket().index(),
                    b.bucket().tensors(), b.bucket().bytes() / MIB, ms(b.readyPs() - bwd), ms(b.startPs() - bwd),
                    ms(b.endPs() - bwd), b.cost().timePs() / 1e6, b.cost().algo().ncclName(), b.cost().proto().ncclName(),
                    b.cost().channels());
        }
        out.printf(Locale.ROOT, "# iteration %.3f ms = compute %.3f (forward %.3f + backward %.3f + DDP copies %.3f)"
                + " + exposed communication %.3f%n", ms(r.iterationPs()), ms(r.computeOnlyPs()), ms(p.forwardPs()),
                ms(p.backwardPs()), ms(r.copyPs()), ms(r.exposedCommPs()));
        out.printf(Locale.ROOT, "# all-reduces: %d calls, %.3f ms together%n", r.buckets().size(), ms(r.commPs()));
        m.ifPresent(x -> out.printf(Locale.ROOT, "# measured at this cap: median %.3f ms (p10 %.3f, p90 %.3f): error %+.1f %%%n",
                x.medianMs(), x.p10Ms(), x.p90Ms(), error(ms(r.iterationPs()), x.medianMs())));
    }

    void sweep(StepProfile p, List<DdpSweep.Point> points, DdpSweep.Point best, Optional<DdpSweep.Point> bestMeasured, int ranks) {
        boolean cmp = comparable(p, ranks);
        if (json) {
            JsonArray a = new JsonArray();
            for (DdpSweep.Point x : points) {
                a.add(summary(x.capMb(), x.firstCapBytes(), x.result(), cmp ? x.measured() : Optional.empty()));
            }
            root.add("sweep", a);
            root.addProperty("best_cap_mb", best.capMb());
            if (cmp) bestMeasured.ifPresent(b -> root.addProperty("measured_best_cap_mb", b.capMb()));
            return;
        }
        out.println("#");
        out.println("# sweep over bucket_cap_mb, each given to DDP (so the first bucket takes the cap too)");
        out.println("#  cap(MB)  buckets  iteration(ms)  exposed(ms)  allreduce(ms)  measured(ms)      p10-p90   error");
        double sum = 0;
        double max = 0;
        int n = 0;
        for (DdpSweep.Point x : points) {
            DdpResult r = x.result();
            String meas = "             -             -       -";
            if (cmp && x.measured().isPresent()) {
                MeasuredRun m = x.measured().get();
                double e = error(ms(r.iterationPs()), m.medianMs());
                meas = String.format(Locale.ROOT, "  %12.3f  %5.2f-%5.2f  %+5.1f%%", m.medianMs(), m.p10Ms(), m.p90Ms(), e);
                sum += Math.abs(e);
                max = Math.max(max, Math.abs(e));
                n++;
            }
            out.printf(Locale.ROOT, "%9s  %7d  %13.3f  %11.3f  %13.3f%s%n", num(x.capMb()), r.buckets().size(),
                    ms(r.iterationPs()), ms(r.exposedCommPs()), ms(r.commPs()), meas);
        }
        out.printf(Locale.ROOT, "# best bucket_cap_mb: %s (%.3f ms)%s%n", num(best.capMb()), ms(best.result().iterationPs()),
                cmp && bestMeasured.isPresent() ? String.format(Locale.ROOT, "; measured best: %s (%.3f ms)",
                        num(bestMeasured.get().capMb()), bestMeasured.get().measured().get().medianMs()) : "");
        if (n > 0) out.printf(Locale.ROOT, "# error against the measured medians: mean |error| %.1f %%, max %.1f %% over %d caps%n", sum / n, max, n);
        if (!cmp && !p.measured().isEmpty()) {
            out.printf(Locale.ROOT, "# the profile's measured runs were at %d ranks, this run has %d: not compared%n",
                    p.worldSize().getAsInt(), ranks);
        }
    }

    /** What the FSDP step leaves out, measured (experiments/fsdp-h100x4/README.md). */
    static final String FSDP_SCOPE = "the GPU timeline only: FSDP's host time per unit is not modelled, and eager FSDP2 steps"
            + " with small units are host-bound (4 x H100, 16 MiB units: 159-169 ms measured, 31-32 ms here; 64 MiB units:"
            + " 8-10 % below measured; experiments/fsdp-h100x4)";

    void fsdp(StepProfile p, FsdpResult r) {
        if (json) {
            JsonObject o = new JsonObject();
            o.addProperty("iteration_ms", ms(r.iterationPs()));
            o.addProperty("compute_ms", ms(r.computeOnlyPs()));
            o.addProperty("exposed_comm_ms", ms(r.exposedCommPs()));
            o.addProperty("comm_ms", ms(r.commPs()));
            JsonArray a = new JsonArray();
            for (FsdpResult.Unit u : r.units()) {
                JsonObject x = new JsonObject();
                x.addProperty("module", u.module());
                x.addProperty("tensors", u.tensors());
                x.addProperty("bytes", u.bytes());
                x.add("gather_forward", call(u.forwardGather()));
                x.add("gather_backward", call(u.backwardGather()));
                x.add("reduce_scatter", call(u.reduceScatter()));
                a.add(x);
            }
            o.add("units", a);
            o.addProperty("note", FSDP_SCOPE);
            root.add("step", o);
            return;
        }
        out.println("#");
        out.printf(Locale.ROOT, "# FSDP units (one per module), in forward order; times in ms from the step's start (forward ends at %.3f)%n",
                ms(r.forwardEndPs()));
        out.println("#    module  tensors  size(MiB)  gather fwd (start-end)  gather bwd (start-end)  reduce-scatter (start-end)");
        for (FsdpResult.Unit u : r.units()) {
            out.printf(Locale.ROOT, "%11s  %7d  %9.3f  %s  %s  %s%n", u.module(), u.tensors(), u.bytes() / MIB, span(u.forwardGather()),
                    span(u.backwardGather()), span(u.reduceScatter()));
        }
        out.printf(Locale.ROOT, "# iteration %.3f ms = compute %.3f (forward %.3f + backward %.3f + FSDP copies %.3f)"
                + " + exposed communication %.3f%n", ms(r.iterationPs()), ms(r.computeOnlyPs()), ms(p.forwardPs()),
                ms(p.backwardPs()), ms(r.computeOnlyPs() - p.forwardPs() - p.backwardPs()), ms(r.exposedCommPs()));
        out.printf(Locale.ROOT, "# collectives: %d all-gathers and %d reduce-scatters, %.3f ms together%n", 2 * r.units().size(),
                r.units().size(), ms(r.commPs()));
        out.println("# note: " + FSDP_SCOPE);
    }

    /**
     * Ends the output: the distinct collectives timed and how ({@code simMode}; {@code modeLines}, the footer of a run
     * that extrapolated, empty for one folded throughout); text gets what the run cost, its wall time, s.
     */
    void finish(List<DdpCollectives.Found> found, List<String> modeLines, String simMode, double wallSeconds) {
        if (json) {
            root.addProperty("sim_mode", simMode);
            JsonArray a = new JsonArray();
            for (DdpCollectives.Found f : found) {
                JsonObject o = new JsonObject();
                o.addProperty("op", f.op().cliName());
                o.addProperty("bytes", f.bytes());
                o.addProperty("dtype", f.dtype().longName());
                o.addProperty("algo", f.cost().algo().ncclName());
                o.addProperty("proto", f.cost().proto().ncclName());
                o.addProperty("channels", f.cost().channels());
                o.addProperty("time_us", round(f.cost().timePs() / 1e6, 3));
                Extrapolation x = f.extrapolation();
                o.addProperty("found_by", x == null ? "folded" : "extrapolated");
                if (x != null) {
                    o.addProperty("law", x.law().name());
                    o.addProperty("error_bound_pct", x.errorBoundPct());
                    JsonArray nodes = new JsonArray();
                    for (int n : x.sampleNodes()) nodes.add(n);
                    o.add("samples_nodes", nodes);
                }
                if (f.whyFolded() != null) o.addProperty("not_extrapolated", f.whyFolded());
                a.add(o);
            }
            root.add("collectives", a);
            out.println(new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(root));
        } else {
            for (String l : modeLines) out.println(l);
            out.printf(Locale.ROOT, "# simulated %d distinct collectives in %.2f s wall%n", found.size(), wallSeconds);
        }
        out.flush();
    }

    private JsonObject summary(double capMb, long firstBytes, DdpResult r, Optional<MeasuredRun> m) {
        JsonObject o = new JsonObject();
        o.addProperty("bucket_cap_mb", capMb);
        o.addProperty("first_bucket_bytes", firstBytes);
        o.addProperty("buckets", r.buckets().size());
        o.addProperty("iteration_ms", ms(r.iterationPs()));
        o.addProperty("compute_ms", ms(r.computeOnlyPs()));
        o.addProperty("exposed_comm_ms", ms(r.exposedCommPs()));
        o.addProperty("allreduce_ms", ms(r.commPs()));
        m.ifPresent(x -> {
            o.addProperty("measured_median_ms", x.medianMs());
            o.addProperty("error_pct", round(error(ms(r.iterationPs()), x.medianMs()), 2));
        });
        return o;
    }

    private static JsonObject call(CallTiming c) {
        JsonObject o = new JsonObject();
        o.addProperty("start_ms", ms(c.startPs()));
        o.addProperty("end_ms", ms(c.endPs()));
        o.addProperty("algo", c.cost().algo().ncclName());
        o.addProperty("proto", c.cost().proto().ncclName());
        o.addProperty("channels", c.cost().channels());
        return o;
    }

    private static String span(CallTiming c) {
        return String.format(Locale.ROOT, "%22s", String.format(Locale.ROOT, "%.3f-%.3f", ms(c.startPs()), ms(c.endPs())));
    }

    /** Whether the profile's measured runs are at this run's rank count (else they are not compared). */
    private static boolean comparable(StepProfile p, int ranks) {
        return p.worldSize().isEmpty() || p.worldSize().getAsInt() == ranks;
    }

    private static double error(double predicted, double measured) {
        return (predicted - measured) / measured * 100;
    }

    private static double ms(long ps) {
        return round(ps / 1e9, 6);
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static String mib(long bytes) {
        return bytes % (1L << 20) == 0 ? (bytes >> 20) + " MiB" : String.format(Locale.ROOT, "%.3f MiB", bytes / MIB);
    }
}
