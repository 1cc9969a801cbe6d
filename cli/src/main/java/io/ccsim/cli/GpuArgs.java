package io.ccsim.cli;

import io.ccsim.gpu.cuda.Cuda;
import io.ccsim.gpu.cuda.CudaUnavailableException;

/**
 * The {@code --gpus} grammar of the commands that run on real GPUs ({@code calibrate}, {@code perf --backend cuda};
 * the {@code device} studies take every device, {@code devices(null)}):
 * <ul>
 *   <li>{@code N} (one integer): the first N CUDA devices, 0..N−1 — the same meaning as the simulated
 *       {@code perf --gpus N} (N GPUs of a board);</li>
 *   <li>{@code a,b,...} (two or more comma-separated indices): exactly those devices, in that rank order;</li>
 *   <li>absent: every device the driver reports.</li>
 * </ul>
 */
final class GpuArgs {
    private GpuArgs() {}

    static final String VALID = "valid: a count N (the first N devices, 0..N-1) or a comma-separated list of at least two"
            + " device indices (e.g. 0,1,2,3)";

    /**
     * Device ordinals for {@code text} (null = all devices). Checks the syntax first, then that CUDA works and the
     * devices exist.
     *
     * @throws UserException for bad syntax or a device that does not exist
     * @throws CudaUnavailableException where CUDA or a GPU is missing ("no CUDA device found: ...")
     */
    static int[] devices(String text) {
        int[] gpus = text == null ? null : parse(text);
        String why = Cuda.unavailableReason();
        if (why != null) throw new CudaUnavailableException(why);
        if (gpus == null) {
            int n = Cuda.deviceCount();
            gpus = new int[n];
            for (int i = 0; i < n; i++) gpus[i] = i;
        }
        try {
            Cuda.requireDevices(gpus);
        } catch (IllegalArgumentException e) {
            throw new UserException("--gpus " + text + ": " + e.getMessage(), e);
        }
        return gpus;
    }

    /** The syntax alone: {@code "4"} → {0,1,2,3}; {@code "2,3"} → {2,3}. */
    static int[] parse(String text) {
        String t = text.trim();
        if (t.matches("\\d{1,4}")) {
            int n = Integer.parseInt(t);
            if (n < 1) throw new UserException("--gpus: the device count must be >= 1, got " + n + "; " + VALID);
            int[] g = new int[n];
            for (int i = 0; i < n; i++) g[i] = i;
            return g;
        }
        if (t.matches("\\d{1,4}(\\s*,\\s*\\d{1,4})+")) {
            String[] parts = t.split("\\s*,\\s*");
            int[] g = new int[parts.length];
            for (int i = 0; i < g.length; i++) g[i] = Integer.parseInt(parts[i]);
            return g;
        }
        throw new UserException("--gpus: invalid '" + text + "'; " + VALID);
    }
}
