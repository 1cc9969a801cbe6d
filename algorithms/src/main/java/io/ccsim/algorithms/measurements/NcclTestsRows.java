package io.ccsim.algorithms.measurements;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.ReduceOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * Measured rows from an nccl-tests text log ({@link NcclTestsLog}): the out-of-place times (the in-place ones where
 * a row has no out-of-place half); algorithm, protocol and channels unknown (NCCL chose); {@code n}, the hosts and the
 * GPU model from the log's rank lines (0 and empty without them). Rows of size 0 or time 0 are left out.
 */
final class NcclTestsRows {
    private NcclTestsRows() {}

    /** @throws IllegalArgumentException naming {@code src} and the line, and what is valid */
    static MeasuredFile read(String src, String text, CollectiveOp defaultOp) {
        NcclTestsLog log;
        try {
            log = NcclTestsLog.parse(text, src, defaultOp);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().contains("no nccl-tests table rows")) throw e;
            throw new IllegalArgumentException(e.getMessage() + " (not JSON or CSV either: expected a JSON array of perf rows, a CSV with"
                    + " header 'op,bytes,...', ccsim perf's text, or nccl-tests output)", e);
        }
        List<MeasuredRow> rows = new ArrayList<>();
        java.util.Set<String> notes = new java.util.LinkedHashSet<>();
        int zero = 0;
        for (NcclTestsLog.Section s : log.sections()) {
            String host = hostLaunchNote(s);
            if (host != null) notes.add(host);
            boolean registered = registeredByGraphs(s);
            for (NcclTestsLog.Row r : s.rows()) {
                if (r.sizeBytes() == 0 || !(r.oop().timeUs() > 0)) {
                    zero++;
                    continue;
                }
                rows.add(row(src + ":" + r.line(), r, s.ranks(), s.hosts(), String.join(" + ", s.gpus())).withRegistered(registered)
                        .withOwnCalls(s.graphLaunches() > 0));
            }
        }
        return new MeasuredFile(rows, zero > 0 ? zero + " rows of size 0 or time 0" : "", List.copyOf(notes));
    }

    /**
     * What section {@code s}'s eager calls hold that no simulation does, or null: a thread that launches several GPUs'
     * calls without CUDA graphs ({@code -g N}, N &gt; 1, no {@code -G}) pays the host's launches, a floor per call that
     * depends on the host (nccl-tests below 4 MiB: 34 to 44 µs at 4 GPUs of a 4 × H200 VM,
     * experiments/nccl-tests-h200x4/harness/lease2; about 22 µs at 8 H100 and 39 µs at 8 A100 in the logs of
     * ccsim's golden tests).
     */
    static String hostLaunchNote(NcclTestsLog.Section s) {
        if (s.graphLaunches() > 0 || s.gpusPerThread() < 2) return null;
        return "a thread launched " + s.gpusPerThread() + " GPUs' calls eagerly (nGpus " + s.gpusPerThread() + ", no -G):"
                + " the host's launches set a floor per call that ccsim does not simulate (nccl-tests measured 34-44 us at"
                + " 4 GPUs of a 4 x H200 VM: experiments/nccl-tests-h200x4/harness/lease2), so small sizes may read fast"
                + " here";
    }

    /**
     * Whether NCCL registered the user buffers of section {@code s}'s point-to-point calls: send/recv or all-to-all
     * captured in CUDA graphs ({@code -G}) by one process driving several GPUs, unless NCCL's own output in the log says
     * NCCL_GRAPH_REGISTER=0 ({@link NcclTestsLog.Section#graphRegisterOff}). The table does not say -R, and without
     * NCCL_DEBUG=INFO nothing says NCCL_GRAPH_REGISTER: such logs read as what an eager or a graph run prints
     * (experiments/nccl-tests-h200x4's -R1 and -graph-noreg files).
     */
    static boolean registeredByGraphs(NcclTestsLog.Section s) {
        return (s.op() == CollectiveOp.SEND_RECV || s.op() == CollectiveOp.ALL_TO_ALL) && s.graphLaunches() > 0
                && s.processes() == 1 && s.ranks() > 1 && !s.graphRegisterOff();
    }

    /** The measured row of {@code r}, {@code ranks} on {@code hosts} hosts of {@code gpu}s (0, 0, "": unknown). */
    static MeasuredRow row(String where, NcclTestsLog.Row r, int ranks, int hosts, String gpu) {
        DataType dt = r.dtype().orElseThrow(() -> new IllegalArgumentException(where + ": nccl-tests type '" + r.type()
                + "' is not one ccsim models; valid: " + Arrays.stream(DataType.values()).map(DataType::ncclTestsName)
                .collect(Collectors.joining(", "))));
        String ro = r.redop().toLowerCase(Locale.ROOT);
        Optional<ReduceOp> redop = ro.isEmpty() ? Optional.empty() : NamedFields.redop(where, ro);
        return new MeasuredRow(where, r.op(), ranks, r.sizeBytes(), dt, redop, Math.max(0, r.root()), Optional.empty(), Optional.empty(),
                0, Optional.empty(), Optional.empty(), OptionalInt.empty(), r.oop().timeUs(), hosts, gpu);
    }
}
