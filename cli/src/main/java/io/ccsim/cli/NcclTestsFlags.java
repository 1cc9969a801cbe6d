package io.ccsim.cli;

import picocli.CommandLine.Option;

/**
 * nccl-tests' command-line flags, with nccl-tests' names, long forms and defaults (src/common.cu {@code main} and its
 * globals at NVIDIA/nccl-tests v2.19.6). Values are kept as typed; {@link NcclTestsConfig#of} reads them as nccl-tests
 * does ({@code strtol(s, NULL, 0)}: decimal, {@code 0x} hex or a leading-0 octal; sizes with K, M, G) and says which
 * have no effect on a simulation.
 */
final class NcclTestsFlags {
    @Option(names = {"-t", "--nthreads"}, paramLabel = "N", defaultValue = "1", description = "threads per process (default: ${DEFAULT-VALUE})")
    String nThreads;
    @Option(names = {"-g", "--ngpus"}, paramLabel = "N", defaultValue = "1", description = "GPUs per thread (default: ${DEFAULT-VALUE})")
    String nGpus;
    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", defaultValue = "32M", description = "min size in bytes, K/M/G suffixes (default: ${DEFAULT-VALUE})")
    String minBytes;
    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", defaultValue = "32M", description = "max size in bytes (default: ${DEFAULT-VALUE})")
    String maxBytes;
    @Option(names = {"-i", "--stepbytes"}, paramLabel = "SIZE", defaultValue = "1M", description = "increment size, used where -f is 1 (default: ${DEFAULT-VALUE})")
    String stepBytes;
    @Option(names = {"-f", "--stepfactor"}, paramLabel = "F", defaultValue = "1", description = "increment factor; 1: add -i instead (default: ${DEFAULT-VALUE})")
    String stepFactor;
    @Option(names = {"-n", "--iters"}, paramLabel = "N", defaultValue = "20", description = "iteration count: the time is the mean of -n x -m back-to-back calls (default: ${DEFAULT-VALUE})")
    String iters;
    @Option(names = {"-m", "--agg_iters"}, paramLabel = "N", defaultValue = "1", description = "aggregated iteration count (default: ${DEFAULT-VALUE})")
    String aggIters;
    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", defaultValue = "1", description = "warmup iteration count; no effect here (default: ${DEFAULT-VALUE})")
    String warmupIters;
    @Option(names = {"-N", "--run_cycles"}, paramLabel = "N", defaultValue = "1", description = "cycle count: the rows are printed N times, every cycle the same (0=infinite: once) (default: ${DEFAULT-VALUE})")
    String runCycles;
    @Option(names = {"-p", "--parallel_init"}, paramLabel = "0|1", defaultValue = "0", description = "threads initialize NCCL in parallel; no effect here (default: ${DEFAULT-VALUE})")
    String parallelInit;
    @Option(names = {"-c", "--check"}, paramLabel = "N", defaultValue = "1", description = "check iteration count; no data is moved here, so #wrong is N/A (default: ${DEFAULT-VALUE})")
    String check;
    @Option(names = {"-o", "--op"}, paramLabel = "OP", defaultValue = "sum", description = "reduction: sum/prod/min/max/avg/mulsum/all (default: ${DEFAULT-VALUE})")
    String op;
    @Option(names = {"-d", "--datatype"}, paramLabel = "TYPE", defaultValue = "float", description = "nccltype/all: int8, uint8, int32, uint32, int64, uint64, half, float, double, bfloat16, f8e4m3, f8e5m2 (default: ${DEFAULT-VALUE})")
    String datatype;
    @Option(names = {"-r", "--root"}, paramLabel = "ROOT", defaultValue = "0", description = "root rank of broadcast and reduce; -1: every rank in turn (default: ${DEFAULT-VALUE})")
    String root;
    @Option(names = {"-z", "--blocking"}, paramLabel = "0-3", defaultValue = "0", description = "blocking collectives; no effect here (default: ${DEFAULT-VALUE})")
    String blocking;
    @Option(names = {"-y", "--stream_null"}, paramLabel = "0|1", defaultValue = "0", description = "use the NULL stream; no effect here (default: ${DEFAULT-VALUE})")
    String streamNull;
    @Option(names = {"-T", "--timeout"}, paramLabel = "SECONDS", defaultValue = "0", description = "timeout; no effect here (default: ${DEFAULT-VALUE})")
    String timeout;
    @Option(names = {"-G", "--cudagraph"}, paramLabel = "N", defaultValue = "0", description = "CUDA graph launches: each call NCCL's own captured call, the profile's sim.framework_call_us less than"
            + " its PyTorch-captured one (5 us built in); no host launch cost is simulated either way (default: ${DEFAULT-VALUE})")
    String cudaGraph;
    @Option(names = {"-C", "--report_cputime"}, paramLabel = "0|1", defaultValue = "0", description = "report CPU time: the column is named cputime, the value is the simulated time (default: ${DEFAULT-VALUE})")
    String reportCpuTime;
    @Option(names = {"-S", "--report_timestamps"}, paramLabel = "0|1", defaultValue = "0", description = "report timestamps; not printed here (same inputs, same output) (default: ${DEFAULT-VALUE})")
    String reportTimestamps;
    @Option(names = {"-J", "--output_file"}, paramLabel = "FILE", description = "write nccl-tests' JSON to FILE (a .json name; an existing FILE is kept and FILE.0, FILE.1, ... tried, as nccl-tests does)")
    String outputFile;
    @Option(names = {"-a", "--average"}, paramLabel = "0-3", defaultValue = "1", description = "rank0/avg/min/max time; here every rank's time is the last rank's (default: ${DEFAULT-VALUE})")
    String average;
    @Option(names = {"-R", "--local_register"}, paramLabel = "0|1|2", defaultValue = "0", description = "2: both buffers in symmetric windows, so NCCL's symmetric kernels run where eligible; 1: no effect here (default: ${DEFAULT-VALUE})")
    String localRegister;
    @Option(names = {"-x", "--cta_policy"}, paramLabel = "0-2", defaultValue = "-1", description = "NCCL CTA policy; not modelled (default: not set)")
    String ctaPolicy;
    @Option(names = {"-D", "--device_implementation"}, paramLabel = "N", defaultValue = "0", description = "nccl-tests' device-API kernels; not modelled: NCCL's own is simulated (default: ${DEFAULT-VALUE})")
    String deviceImplementation;
    @Option(names = {"-V", "--device_cta_count"}, paramLabel = "N", defaultValue = "16", description = "CTAs of -D's kernels; not modelled (default: ${DEFAULT-VALUE})")
    String deviceCtaCount;
    @Option(names = {"-M", "--memory"}, paramLabel = "0|1", defaultValue = "0", description = "GPU memory report; not modelled (default: ${DEFAULT-VALUE})")
    String memory;
    @Option(names = {"-u", "--unalign"}, paramLabel = "N", defaultValue = "0", description = "misalign the buffers; no effect here (default: ${DEFAULT-VALUE})")
    String unalign;
    @Option(names = {"-I", "--per_iter_timing"}, paramLabel = "0|1", defaultValue = "0", description = "per-iteration timing columns; not printed here (default: ${DEFAULT-VALUE})")
    String perIterTiming;
    @Option(names = {"-K", "--per_iter_skip"}, paramLabel = "N", defaultValue = "0", description = "samples left out of -I's statistics; no effect here (default: ${DEFAULT-VALUE})")
    String perIterSkip;
}
