package io.ccsim.gpu.study;

import io.ccsim.gpu.exec.CudaPerf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows of the studies' {@code timing.json}: {@code set}, optional {@code trial}, then the {@link CudaPerf.Row}
 * fields under nccl-tests' and NCCL's names, {@code n}, {@code graph}, and time / algbw / busbw rounded to 3
 * decimals (the format {@code KernelTimings} and {@code ccsim validate} read).
 */
final class TimingRows {
    private TimingRows() { }

    /** Appends {@code r} as a row without a trial field. */
    static void add(List<Map<String, Object>> rows, CudaPerf.Row r, int n, boolean graph, String set) {
        add(rows, r, n, graph, set, 0);
    }

    /** Appends {@code r} as a row; {@code trial} ≥ 1 adds a {@code "trial"} field (0: none). */
    static void add(List<Map<String, Object>> rows, CudaPerf.Row r, int n, boolean graph, String set, int trial) {
        add(rows, r, n, graph, set, trial, null);
    }

    /**
     * As {@link #add(List, CudaPerf.Row, int, boolean, String, int)}, with the all-to-all's {@code "placement"}
     * ({@code "nccl"} or {@code "striped"}, which the measurement readers take; null: none, read as striped).
     */
    static void add(List<Map<String, Object>> rows, CudaPerf.Row r, int n, boolean graph, String set, int trial,
                    String placement) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("set", set);
        if (trial > 0) m.put("trial", trial);
        m.put("op", r.op().cliName());
        m.put("bytes", r.bytes());
        m.put("count", r.count());
        m.put("dtype", r.dtype().ncclTestsName());
        m.put("redop", r.redop().ncclTestsName());
        m.put("root", r.root());
        m.put("algo", r.algo().ncclName());
        m.put("proto", r.proto().ncclName());
        m.put("channels", r.channels());
        if (placement != null) m.put("placement", placement);
        m.put("n", n);
        m.put("graph", graph);
        m.put("time_us", Math.round(r.timeUs() * 1000) / 1000.0);
        m.put("algbw_gbps", Math.round(r.algbwGbps() * 1000) / 1000.0);
        m.put("busbw_gbps", Math.round(r.busbwGbps() * 1000) / 1000.0);
        rows.add(m);
    }
}
