package io.ccsim.cli;

import io.ccsim.algorithms.DataType;
import picocli.CommandLine.Option;

/**
 * The sizes and element type of {@code perf} and {@code tune}, with nccl-tests' names and meaning ({@code -b -e -f
 * -d}): one picocli mixin, so both take them alike. {@code perf} adds {@code -i}, which only it takes.
 */
final class SizeOptions {
    @Option(names = {"-b", "--minbytes"}, defaultValue = "8", paramLabel = "SIZE",
            description = "smallest size in bytes, K/M/G suffixes (default: ${DEFAULT-VALUE})")
    String minBytes;
    @Option(names = {"-e", "--maxbytes"}, defaultValue = "128M", paramLabel = "SIZE",
            description = "largest size in bytes, K/M/G suffixes (default: ${DEFAULT-VALUE})")
    String maxBytes;
    @Option(names = {"-f", "--stepfactor"}, paramLabel = "F", description = "multiply the size by F, an integer >= 2 (default: 2)")
    Long factor;
    @Option(names = {"-d", "--datatype"}, defaultValue = "float", paramLabel = "TYPE",
            description = "nccl-tests type name: int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double f8e4m3"
                    + " f8e5m2 (default: ${DEFAULT-VALUE})")
    String dtype;

    /**
     * The sizes from {@code -b} to {@code -e}, by {@code -f} or by {@code stepBytes} (bytes; null: by the factor), as
     * nccl-tests steps them.
     *
     * @throws UserException naming the flag of a malformed size
     */
    long[] sizes(Long stepBytes) {
        return SimSetup.sizes(Sizes.parse("-b", minBytes), Sizes.parse("-e", maxBytes), factor, stepBytes);
    }

    /** The element type {@code -d} names. @throws IllegalArgumentException naming the valid types */
    DataType dataType() {
        return DataType.parse(dtype);
    }
}
