package io.ccsim.scenarios.incident;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One process's PyTorch output (stdout/stderr of a rank), as {@link #read} understands it: the watchdog's timeout line
 * (ProcessGroupNCCL.cpp: WorkNCCL::checkTimeout, {@code [Rank 0] Watchdog caught collective operation timeout:
 * WorkNCCL(SeqNum=11, OpType=ALLREDUCE, NumelIn=..., NumelOut=..., Timeout(ms)=20000) ran for 20042 milliseconds before
 * timing out.}), the dump signal received from another rank, and NCCL errors raised to Python
 * ({@code torch.distributed.DistBackendError: NCCL error in: ...}, {@code ncclInvalidUsage: ...} and the {@code Last
 * error:} line after it). The rank is the one the {@code [rankN]:} prefix names, else the file name's.
 *
 * @param file      where it was read
 * @param rank      global rank, -1 if unknown
 * @param timeouts  watchdog timeout lines (the first of each SeqNum)
 * @param seqNums   the SeqNum of each timeout line
 * @param errors    NCCL errors raised to Python, each with its {@code Last error} reason appended where given
 * @param dumpFrom  lines saying this rank dumped on another rank's signal
 */
public record TorchLog(String file, int rank, List<LogLine> timeouts, List<Long> seqNums, List<LogLine> errors,
                       List<LogLine> dumpFrom) {

    private static final Pattern PREFIX = Pattern.compile("^\\[rank(\\d+)\\]:");
    private static final Pattern ANY_PREFIX = Pattern.compile("(?m)^\\[rank\\d+\\]:\\[[EWI]");
    private static final Pattern TIMEOUT = Pattern.compile("Watchdog caught collective operation timeout: WorkNCCL\\(SeqNum=(\\d+)");
    private static final Pattern ERROR = Pattern.compile("DistBackendError: NCCL error");
    private static final Pattern CODE = Pattern.compile("^(nccl[A-Z][A-Za-z]+):");

    public TorchLog {
        timeouts = List.copyOf(timeouts);
        seqNums = List.copyOf(seqNums);
        errors = List.copyOf(errors);
        dumpFrom = List.copyOf(dumpFrom);
    }

    /** Whether a text is a PyTorch rank's output: a {@code [rankN]:} line, or an NCCL error raised to Python. */
    public static boolean is(String text) {
        return ANY_PREFIX.matcher(text).find() || text.contains("DistBackendError: NCCL error");
    }

    /**
     * Reads a rank's output.
     *
     * @param fileRank the rank the file name names, -1 if none
     */
    public static TorchLog read(String file, int fileRank, String text) {
        int rank = -1;
        List<LogLine> timeouts = new ArrayList<>(), errors = new ArrayList<>(), dumps = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            Matcher m = PREFIX.matcher(l);
            if (rank < 0 && m.find()) rank = Integer.parseInt(m.group(1));
            if ((m = TIMEOUT.matcher(l)).find() && !l.contains("terminated with exception")) {
                long seq = Long.parseLong(m.group(1));
                if (!seqs.contains(seq)) {
                    seqs.add(seq);
                    timeouts.add(new LogLine(file, i + 1, l.replaceFirst("^\\[rank\\d+\\]:\\[[^\\]]*\\]\\s*", "")));
                }
            } else if (ERROR.matcher(l).find()) {
                String reason = l.replaceFirst("^.*?DistBackendError: ", "");
                for (int j = i + 1; j < lines.length && j <= i + 4; j++) {
                    Matcher c = CODE.matcher(lines[j].strip());
                    if (c.find()) reason = c.group(1) + ": " + reason;
                    if (lines[j].strip().equals("Last error:") && j + 1 < lines.length) {
                        reason = reason + "; last error: " + lines[j + 1].strip();
                        break;
                    }
                }
                errors.add(new LogLine(file, i + 1, reason));
            } else if (l.contains("Received a dump signal due to a collective timeout from  rank")
                    || l.contains("Received a dump signal due to a collective timeout from rank")) {
                dumps.add(new LogLine(file, i + 1, l.replaceFirst("^\\[rank\\d+\\]:\\[[^\\]]*\\]\\s*", "")));
            }
        }
        return new TorchLog(file, rank >= 0 ? rank : fileRank, timeouts, seqs, errors, dumps);
    }
}
