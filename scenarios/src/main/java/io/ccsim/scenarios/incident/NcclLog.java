package io.ccsim.scenarios.incident;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One process's {@code NCCL_DEBUG=INFO} log, as {@link #read} understands it: init, version, NCCL variables set by
 * the environment, ring/tree/channel lines and the transports of the hops, WARN lines.
 *
 * <p>Xid mentions ({@code Xid 79}, {@code NVRM: Xid}) are kept wherever they appear. The rank is the one the init line
 * names, else the one the file name names ({@code nccl_rank1.log}), else unknown (-1).
 *
 * @param file        where it was read
 * @param rank        global rank, -1 if unknown
 * @param nranks      ranks of the communicator, 0 if unknown
 * @param version     NCCL version ({@code 2.28.9+cuda13.0}), empty if not logged
 * @param host        host name of the line prefix, empty if none
 * @param cudaDev     CUDA device, -1 if unknown
 * @param busId       PCI bus id of the GPU as NCCL prints it, empty if unknown
 * @param initStart   the first {@code Init START} line, or null
 * @param initDone    the first {@code Init COMPLETE} line, or null
 * @param env         NCCL variables the log says were set ({@code NCCL_SOCKET_IFNAME -> ens99}), in order
 * @param graphLines  ring, tree and channel lines
 * @param transports  transports of the channel hops ({@code P2P/CUMEM}, {@code SHM}, {@code NET/Socket}), in order
 * @param warns       WARN lines
 * @param xids        lines that mention an Xid
 */
public record NcclLog(String file, int rank, int nranks, String version, String host, int cudaDev, String busId,
                      LogLine initStart, LogLine initDone, Map<String, String> env, int graphLines, Set<String> transports,
                      List<LogLine> warns, List<LogLine> xids) {

    /*
     * The line forms, from NCCL v2.28.9-1 (src/debug.cc: ncclDebugLog prefixes host:pid:tid [cudaDev], WARN lines add
     * [time] and file:line) and the real logs of experiments/incidents-h100x2:
     *
     *   NCCL INFO NCCL version 2.28.9+cuda13.0                                      (init.cc: showVersion)
     *   NCCL INFO ncclCommInitRankConfig comm 0x.. rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 60 commId 0x.. - Init START
     *   NCCL INFO ncclCommInitRankConfig comm ... - Init COMPLETE                   (init.cc: ncclCommInitRankFunc)
     *   NCCL INFO NCCL_SOCKET_IFNAME set by environment to ens99                   (misc/socket.cc, misc/param.cc)
     *   NCCL INFO Channel 00/24 : 0 1                                               (graph/rings.cc)
     *   NCCL INFO Ring 00 : 1 -> 0 -> 1 | Trees [0] 1/-1/-1->0->-1 ...             (init.cc)
     *   NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM                        (transport/p2p.cc; net.cc: "[send]
     *                                                                                via NET/Socket/0"; a hop's transport)
     *   [time] host:pid:tid [1] bootstrap.cc:114 NCCL WARN Bootstrap : no socket interface found   (bootstrapNetInit)
     */

    private static final Pattern LINE = Pattern.compile("(?m)^(?:\\[[^\\]]*\\]\\s+)?[^\\s:]+:\\d+:\\d+ \\[\\d+\\] (?:\\S+ )?NCCL (?:INFO|WARN) ");
    private static final Pattern PREFIX = Pattern.compile("^(?:\\[[^\\]]*\\]\\s+)?([^\\s:]+):(\\d+):(\\d+) \\[(\\d+)\\]");
    private static final Pattern INIT = Pattern.compile("rank (\\d+) nranks (\\d+) cudaDev (\\d+).*?busId (\\S+).*- Init (START|COMPLETE)");
    private static final Pattern VERSION = Pattern.compile("NCCL INFO NCCL version (\\S+)");
    private static final Pattern ENV = Pattern.compile("NCCL INFO (NCCL_[A-Z0-9_]+) set by environment to (\\S*)");
    private static final Pattern GRAPH = Pattern.compile("NCCL INFO (?:Channel \\d+/\\d+ :|Ring \\d+ :|Trees \\[)");
    private static final Pattern VIA = Pattern.compile("NCCL INFO Channel \\d+/\\d+ : .* via (\\S+)");
    private static final Pattern XID = Pattern.compile("\\bXid\\b", Pattern.CASE_INSENSITIVE);

    public NcclLog {
        env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));   // log order
        transports = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(transports));
        warns = List.copyOf(warns);
        xids = List.copyOf(xids);
    }

    /** Whether a text is an NCCL debug log: a line that starts with NCCL's prefix and says {@code NCCL INFO} or {@code NCCL WARN}. */
    public static boolean is(String text) {
        return LINE.matcher(text).find();
    }

    /**
     * Reads a log.
     *
     * @param file     for evidence
     * @param fileRank the rank the file name names, -1 if none
     */
    public static NcclLog read(String file, int fileRank, String text) {
        int rank = -1, nranks = 0, cudaDev = -1, graph = 0;
        String version = "", host = "", busId = "";
        LogLine start = null, done = null;
        Map<String, String> env = new LinkedHashMap<>();
        Set<String> transports = new LinkedHashSet<>();
        List<LogLine> warns = new ArrayList<>(), xids = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (l.isEmpty()) continue;
            LogLine line = new LogLine(file, i + 1, l);
            Matcher m = PREFIX.matcher(l);
            if (m.find()) {
                if (host.isEmpty()) host = m.group(1);
                if (cudaDev < 0) cudaDev = Integer.parseInt(m.group(4));
            }
            if ((m = INIT.matcher(l)).find()) {
                if (rank < 0) {
                    rank = Integer.parseInt(m.group(1));
                    nranks = Integer.parseInt(m.group(2));
                    cudaDev = Integer.parseInt(m.group(3));
                    busId = m.group(4);
                }
                if (m.group(5).equals("START") && start == null) start = line;
                if (m.group(5).equals("COMPLETE") && done == null) done = line;
            } else if ((m = VERSION.matcher(l)).find()) {
                if (version.isEmpty()) version = m.group(1);
            } else if ((m = ENV.matcher(l)).find()) {
                env.putIfAbsent(m.group(1), m.group(2).replaceAll("\\.$", ""));
            } else if (GRAPH.matcher(l).find()) {
                graph++;
                if ((m = VIA.matcher(l)).find()) transports.add(m.group(1));
            }
            if (l.contains(" NCCL WARN ")) warns.add(line);
            if (XID.matcher(l).find()) xids.add(line);
        }
        return new NcclLog(file, rank >= 0 ? rank : fileRank, nranks, version, host, cudaDev, busId, start, done, env, graph,
                transports, warns, xids);
    }
}
