package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.net.NetPolicy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The NCCL environment variables ccsim honours, parsed with NCCL's grammar from a map (never from
 * {@code System.getenv} inside: the caller passes the environment, so tests and sweeps stay deterministic).
 *
 * <h2>NCCL_ALGO and NCCL_PROTO</h2>
 * NCCL's {@code parseList} (src/graph/tuning.cc, NVIDIA/nccl @5067397c lines 36-136; documented in
 * docs/userguide env.rst "NCCL_ALGO", since 2.24):
 * <ul>
 *   <li>the value is a {@code ;}-separated list of sections; empty sections are skipped (strtok);</li>
 *   <li>a section is {@code [func:]elem,elem,...}; only the first section may omit {@code func:}, and then
 *       applies to every function; later sections override earlier ones for their function;</li>
 *   <li>{@code func} is one of Broadcast, Reduce, AllGather, ReduceScatter, AllReduce (case-insensitive);</li>
 *   <li>a list starting with {@code ^} enables every element except those listed, otherwise exactly the
 *       listed ones are enabled (so {@code ^} alone enables all, an empty list none);</li>
 *   <li>elements are case-insensitive: algorithms Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree,
 *       PAT; protocols LL, LL128, Simple. No whitespace is trimmed, as in NCCL;</li>
 *   <li>an unknown element or prefix, or a prefix-less section after the first, is an error.</li>
 * </ul>
 * Unset or empty means everything enabled (NCCL skips an empty value). LL128's "enabled by default only on
 * some platforms" rule is the tuner's ({@code Tuner}), not this class's: this class records what the user
 * asked for.
 *
 * <h2>Numbers</h2>
 * NCCL reads integer variables with {@code strtoll(str, NULL, 0)} (src/misc/param.cc ncclLoadParam): an
 * optional sign, then decimal, {@code 0x} hexadecimal or leading-{@code 0} octal. NCCL ignores trailing
 * garbage and falls back to the default on overflow; ccsim rejects both (an error naming the variable).
 * An empty value counts as unset, as in NCCL ({@code strlen(str) > 0}).
 *
 * <h2>Other variables</h2>
 * <ul>
 *   <li>{@code NCCL_BUFFSIZE}: Simple protocol buffer per connection, bytes, > 0 (init.cc computeBuffSizes).</li>
 *   <li>{@code NCCL_MIN_NCHANNELS}, {@code NCCL_MAX_NCHANNELS} (legacy aliases NCCL_MIN_NRINGS/NCCL_MAX_NRINGS,
 *       overridden by the new names as in graph/connect.cc ncclMinNchannels/ncclMaxNchannels): 1..64
 *       (MAXCHANNELS, device.h) and min ≤ max. NCCL clamps out-of-range values; ccsim rejects them.</li>
 *   <li>{@code NCCL_NTHREADS}: 64..512 and a multiple of the warp size 32 (tuning.cc getNthreads with
 *       min 2·WARP_SIZE, max NCCL_SIMPLE_MAX_NTHREADS = 512); NCCL clamps, ccsim rejects.</li>
 *   <li>{@code NCCL_P2P_DISABLE}: 0 or 1 (graph/paths.cc ncclGetLevel: 1 disables P2P).</li>
 *   <li>{@code NCCL_NCHANNELS_PER_NET_PEER}: the channels a point-to-point operation with a peer across the network
 *       may use, 1..64, in place of NCCL's default (2, halved while 2 × nRanks &gt; 4 × p2p channels; init.cc, paths.cc
 *       ncclTopoGetNchannels). NCCL ignores a value ≤ 0 with an INFO line; ccsim rejects it.</li>
 *   <li>{@code NCCL_P2P_LL_THRESHOLD}: a point-to-point operation uses LL while its bytes are at most this times
 *       {@code p2pnChannelsPerPeer} (src/enqueue.cc addP2pToPlan; default 16384), bytes ≥ 0 (0: never LL).</li>
 *   <li>{@code NCCL_NVLS_ENABLE}: 0, 1 or 2 (transport/nvls.cc, default 2).</li>
 *   <li>{@code NCCL_COLLNET_ENABLE}: 1 enables CollNet (default 0); any other number is 0, as NCCL sets it (init.cc
 *       "collnetEnable %d is not a valid value 0/1, set it to 0").</li>
 *   <li>{@code NCCL_PAT_ENABLE}: 0, 1 or 2 (graph/tuning.cc ncclPatEnable, default 2: PAT where every node has one
 *       rank and the network is a host network; 0 and 1 apply as they are, compute capability ≥ 6.0 always).</li>
 *   <li>{@code NCCL_CROSS_NIC}, {@code NCCL_PXN_DISABLE}, {@code NCCL_IB_HCA}, {@code NCCL_NET_GDR_LEVEL}: the
 *       {@link NetPolicy} of the inter-node graphs and routes ({@code NetEnvParser}).</li>
 *   <li>{@code NCCL_TUNER_CONFIG_FILE}: the tuning file of NCCL's example tuner plugin, read when the environment
 *       is parsed ({@link TunerConfig}: its rows override the tuner's choice as the plugin does). NCCL loads the
 *       plugin only with NCCL_TUNER_PLUGIN naming it; ccsim takes the file as the sign that it is loaded.</li>
 *   <li>{@code NCCL_LL128_ENABLE}: no longer read by NCCL (LL128 is controlled by NCCL_PROTO); setting it is
 *       an error here so that it is never silently ignored.</li>
 * </ul>
 */
public final class NcclEnv {
    public static final String NCCL_ALGO = "NCCL_ALGO";
    public static final String NCCL_PROTO = "NCCL_PROTO";
    public static final String NCCL_BUFFSIZE = "NCCL_BUFFSIZE";
    /** The largest NCCL_BUFFSIZE ccsim takes, bytes: 8 slots of at most 256 MiB. */
    static final long MAX_BUFFSIZE = 1L << 31;
    public static final String NCCL_MIN_NCHANNELS = "NCCL_MIN_NCHANNELS";
    public static final String NCCL_MAX_NCHANNELS = "NCCL_MAX_NCHANNELS";
    public static final String NCCL_MIN_NRINGS = "NCCL_MIN_NRINGS";
    public static final String NCCL_MAX_NRINGS = "NCCL_MAX_NRINGS";
    public static final String NCCL_NTHREADS = "NCCL_NTHREADS";
    public static final String NCCL_P2P_DISABLE = "NCCL_P2P_DISABLE";
    public static final String NCCL_NCHANNELS_PER_NET_PEER = "NCCL_NCHANNELS_PER_NET_PEER";
    public static final String NCCL_P2P_LL_THRESHOLD = "NCCL_P2P_LL_THRESHOLD";
    public static final String NCCL_NVLS_ENABLE = "NCCL_NVLS_ENABLE";
    public static final String NCCL_COLLNET_ENABLE = "NCCL_COLLNET_ENABLE";
    public static final String NCCL_PAT_ENABLE = "NCCL_PAT_ENABLE";
    public static final String NCCL_LL128_ENABLE = "NCCL_LL128_ENABLE";
    public static final String NCCL_CROSS_NIC = NetEnvParser.NCCL_CROSS_NIC;
    public static final String NCCL_PXN_DISABLE = NetEnvParser.NCCL_PXN_DISABLE;
    public static final String NCCL_IB_HCA = NetEnvParser.NCCL_IB_HCA;
    public static final String NCCL_NET_GDR_LEVEL = NetEnvParser.NCCL_NET_GDR_LEVEL;
    /** Read by NCCL's example tuner plugin ({@link TunerConfig}). */
    public static final String NCCL_TUNER_CONFIG_FILE = "NCCL_TUNER_CONFIG_FILE";
    /** 0 stops NCCL registering the buffers of calls captured in CUDA graphs (src/enqueue.cc; default 1). */
    public static final String NCCL_GRAPH_REGISTER = "NCCL_GRAPH_REGISTER";
    /** 0 makes NCCL ignore buffers registered with ncclCommRegister (src/register/register.cc; default 1). */
    public static final String NCCL_LOCAL_REGISTER = "NCCL_LOCAL_REGISTER";

    /** Every variable ccsim reads and applies (any other NCCL_* variable has no effect on a run). */
    public static final List<String> HONOURED = List.of(NCCL_ALGO, NCCL_PROTO, NCCL_BUFFSIZE, NCCL_MIN_NCHANNELS,
            NCCL_MAX_NCHANNELS, NCCL_MIN_NRINGS, NCCL_MAX_NRINGS, NCCL_NTHREADS, NCCL_P2P_DISABLE,
            NCCL_NCHANNELS_PER_NET_PEER, NCCL_P2P_LL_THRESHOLD, NCCL_NVLS_ENABLE,
            NCCL_COLLNET_ENABLE, NCCL_PAT_ENABLE, NCCL_CROSS_NIC, NCCL_PXN_DISABLE, NCCL_IB_HCA, NCCL_NET_GDR_LEVEL,
            SymkModel.NCCL_SYM_KERNEL, SymkModel.NCCL_SYM_CTAS, SymkModel.NCCL_WIN_ENABLE, NCCL_TUNER_CONFIG_FILE,
            NCCL_GRAPH_REGISTER, NCCL_LOCAL_REGISTER);

    /** MAXCHANNELS (src/include/device.h). */
    public static final int MAX_CHANNELS = 64;
    /** Smallest NCCL_NTHREADS: 2 × WARP_SIZE (tuning.cc getNthreads). */
    public static final int MIN_NTHREADS = 64;
    /** Largest NCCL_NTHREADS: NCCL_SIMPLE_MAX_NTHREADS (device.h). */
    public static final int MAX_NTHREADS = 512;
    /** WARP_SIZE (device.h). */
    public static final int WARP_SIZE = 32;

    private static final int NFUNCS = NcclFunc.values().length;
    /** The algorithms NCCL_ALGO names, in NCCL's order (P2P is not an NCCL_ALGO value). */
    private static final int NALGOS = Algorithm.P2P.ordinal();
    private static final int NPROTOS = Protocol.values().length;

    private final String algoString;
    private final String protoString;
    /** [func * NALGOS + algo]. */
    private final boolean[] algoEnable;
    /** [func * NPROTOS + proto]. */
    private final boolean[] protoEnable;
    /** [func]: NCCL_PROTO set this function's protocols explicitly (so LL128's platform rule does not apply). */
    private final boolean[] protoExplicit;
    private final long buffSize;
    private final int minChannels;
    private final int maxChannels;
    private final int nThreads;
    private final boolean p2pDisable;
    private final int nvlsEnable;
    private final boolean collNetEnable;
    private final int patEnable;
    private final NetPolicy net;
    private final TunerConfig tunerConfig;
    /** NCCL_NCHANNELS_PER_NET_PEER, or -1 when unset. */
    private final int netPeerChannels;
    /** NCCL_P2P_LL_THRESHOLD, bytes, or -1 when unset. */
    private final long p2pLlThreshold;

    private NcclEnv(String algoString, String protoString, boolean[] algoEnable, boolean[] protoEnable,
                    boolean[] protoExplicit, long buffSize, int minChannels, int maxChannels, int nThreads, boolean p2pDisable,
                    int nvlsEnable, boolean collNetEnable, int patEnable, NetPolicy net, TunerConfig tunerConfig,
                    int netPeerChannels, long p2pLlThreshold) {
        this.netPeerChannels = netPeerChannels;
        this.p2pLlThreshold = p2pLlThreshold;
        this.algoString = algoString;
        this.protoString = protoString;
        this.algoEnable = algoEnable;
        this.protoEnable = protoEnable;
        this.protoExplicit = protoExplicit;
        this.buffSize = buffSize;
        this.minChannels = minChannels;
        this.maxChannels = maxChannels;
        this.nThreads = nThreads;
        this.p2pDisable = p2pDisable;
        this.nvlsEnable = nvlsEnable;
        this.collNetEnable = collNetEnable;
        this.patEnable = patEnable;
        this.net = net;
        this.tunerConfig = tunerConfig;
    }

    /** No variable set: NCCL's defaults. */
    public static NcclEnv empty() { return parse(Map.of()); }

    /**
     * Parses the NCCL variables of {@code env} (other entries are ignored).
     *
     * @throws NcclEnvException naming the variable, the bad token and the valid values
     */
    public static NcclEnv parse(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        if (isSet(env, NCCL_LL128_ENABLE)) {
            throw new NcclEnvException(NCCL_LL128_ENABLE, env.get(NCCL_LL128_ENABLE), env.get(NCCL_LL128_ENABLE),
                    List.of(NCCL_PROTO + "=^LL128", NCCL_PROTO + "=LL,LL128,Simple"),
                    "NCCL no longer reads NCCL_LL128_ENABLE; control LL128 with NCCL_PROTO instead");
        }
        String algo = isSet(env, NCCL_ALGO) ? env.get(NCCL_ALGO) : null;
        String proto = isSet(env, NCCL_PROTO) ? env.get(NCCL_PROTO) : null;
        boolean[] algoEnable = new boolean[NFUNCS * NALGOS];
        Arrays.fill(algoEnable, true);
        boolean[] protoEnable = new boolean[NFUNCS * NPROTOS];
        Arrays.fill(protoEnable, true);
        String[] algoNames = new String[NALGOS];
        for (int a = 0; a < NALGOS; a++) algoNames[a] = ncclAlgoName(Algorithm.values()[a]);
        String[] protoNames = new String[NPROTOS];
        for (int p = 0; p < NPROTOS; p++) protoNames[p] = Protocol.values()[p].ncclName();
        boolean[] protoExplicit = new boolean[NFUNCS];
        boolean[] algoExplicit = new boolean[NFUNCS];
        if (proto != null) parseList(NCCL_PROTO, proto, protoNames, protoEnable, protoExplicit);
        if (algo != null) parseList(NCCL_ALGO, algo, algoNames, algoEnable, algoExplicit);

        long buff = -1;
        if (isSet(env, NCCL_BUFFSIZE)) {
            buff = parseNumber(NCCL_BUFFSIZE, env.get(NCCL_BUFFSIZE));
            long align = io.ccsim.algorithms.plan.PlanOptions.alignmentOf(Protocol.SIMPLE);
            if (buff <= 0 || buff % align != 0 || buff > MAX_BUFFSIZE) {
                throw new NcclEnvException(NCCL_BUFFSIZE, env.get(NCCL_BUFFSIZE), env.get(NCCL_BUFFSIZE),
                        List.of("a multiple of " + align + " bytes from " + align + " to " + MAX_BUFFSIZE + " (2 GiB), e.g."
                                + " 4194304 (the default, 4 MiB)"),
                        "the Simple protocol's buffer is split into NCCL_STEPS=8 slots of 16-byte aligned size");
            }
        }
        int min = channelBound(env, NCCL_MIN_NCHANNELS, NCCL_MIN_NRINGS);
        int max = channelBound(env, NCCL_MAX_NCHANNELS, NCCL_MAX_NRINGS);
        if (min > 0 && max > 0 && min > max) {
            String v = NCCL_MIN_NCHANNELS + "=" + min + ", " + NCCL_MAX_NCHANNELS + "=" + max;
            throw new NcclEnvException(NCCL_MIN_NCHANNELS, Integer.toString(min), Integer.toString(min),
                    List.of("1.." + max + " (at most " + NCCL_MAX_NCHANNELS + ")"),
                    "minimum channel count exceeds the maximum (" + v + ")");
        }
        int nt = -1;
        if (isSet(env, NCCL_NTHREADS)) {
            String v = env.get(NCCL_NTHREADS);
            long n = parseNumber(NCCL_NTHREADS, v);
            if (n < MIN_NTHREADS || n > MAX_NTHREADS || n % WARP_SIZE != 0) {
                throw new NcclEnvException(NCCL_NTHREADS, v, v,
                        List.of(MIN_NTHREADS + ".." + MAX_NTHREADS + " in steps of " + WARP_SIZE
                                + " (typically 64, 128, 256, 512)"),
                        "threads per block out of range or not a multiple of the warp size");
            }
            nt = (int) n;
        }
        boolean p2p = false;
        if (isSet(env, NCCL_P2P_DISABLE)) {
            String v = env.get(NCCL_P2P_DISABLE);
            long n = parseNumber(NCCL_P2P_DISABLE, v);
            if (n != 0 && n != 1) {
                throw new NcclEnvException(NCCL_P2P_DISABLE, v, v, List.of("0", "1"), "not a boolean");
            }
            p2p = n == 1;
        }
        int nvls = enableLevel(env, NCCL_NVLS_ENABLE);
        int pat = enableLevel(env, NCCL_PAT_ENABLE);
        registers(env, NCCL_GRAPH_REGISTER); // read where buffers are registered (PerfRunner#setRegisteredP2p); checked here
        registers(env, NCCL_LOCAL_REGISTER);
        boolean collNet = isSet(env, NCCL_COLLNET_ENABLE) && parseNumber(NCCL_COLLNET_ENABLE, env.get(NCCL_COLLNET_ENABLE)) == 1;
        TunerConfig tuning = isSet(env, NCCL_TUNER_CONFIG_FILE)
                ? TunerConfig.read(java.nio.file.Path.of(env.get(NCCL_TUNER_CONFIG_FILE))) : null;
        int netPeer = -1;
        if (isSet(env, NCCL_NCHANNELS_PER_NET_PEER)) {
            String v = env.get(NCCL_NCHANNELS_PER_NET_PEER);
            long n = parseNumber(NCCL_NCHANNELS_PER_NET_PEER, v);
            if (n < 1 || n > MAX_CHANNELS) {
                throw new NcclEnvException(NCCL_NCHANNELS_PER_NET_PEER, v, v, List.of("1.." + MAX_CHANNELS + ", e.g. 2 or 4"),
                        "channels per network peer out of range");
            }
            netPeer = (int) n;
        }
        long llThreshold = -1;
        if (isSet(env, NCCL_P2P_LL_THRESHOLD)) {
            String v = env.get(NCCL_P2P_LL_THRESHOLD);
            llThreshold = parseNumber(NCCL_P2P_LL_THRESHOLD, v);
            if (llThreshold < 0) {
                throw new NcclEnvException(NCCL_P2P_LL_THRESHOLD, v, v, List.of("0 (never LL)", "16384 (the default)",
                        "any byte count >= 0"), "a negative threshold");
            }
        }
        return new NcclEnv(algo, proto, algoEnable, protoEnable, protoExplicit, buff, min, max, nt, p2p, nvls, collNet, pat,
                NetEnvParser.parse(env), tuning, netPeer, llThreshold);
    }

    /** A 0/1/2 enable variable (2, "where supported", when unset). */
    private static int enableLevel(Map<String, String> env, String name) {
        if (!isSet(env, name)) return 2;
        String v = env.get(name);
        long n = parseNumber(name, v);
        if (n < 0 || n > 2) {
            throw new NcclEnvException(name, v, v,
                    List.of("0 (disable)", "1 (enable)", "2 (default: enable where supported)"), "out of range");
        }
        return (int) n;
    }

    /**
     * Whether NCCL registers user buffers by way of {@code variable} ({@link #NCCL_GRAPH_REGISTER} or
     * {@link #NCCL_LOCAL_REGISTER}): unset or any number but 0, as NCCL_PARAM reads them (default 1).
     *
     * @throws NcclEnvException if the value is not an integer
     */
    public static boolean registers(Map<String, String> env, String variable) {
        return !isSet(env, variable) || parseNumber(variable, env.get(variable)) != 0;
    }

    private static boolean isSet(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isEmpty();
    }

    /** NCCL's spelling of an algorithm in NCCL_ALGO (src/init.cc ncclAlgoStr). */
    static String ncclAlgoName(Algorithm a) {
        switch (a) {
            case COLLNET_DIRECT: return "CollNetDirect";
            case COLLNET_CHAIN: return "CollNetChain";
            default: return a.ncclName();
        }
    }

    private static int channelBound(Map<String, String> env, String name, String legacy) {
        String var = isSet(env, name) ? name : isSet(env, legacy) ? legacy : null;
        if (var == null) return -1;
        String v = env.get(var);
        long n = parseNumber(var, v);
        if (n < 1 || n > MAX_CHANNELS) {
            throw new NcclEnvException(var, v, v, List.of("1.." + MAX_CHANNELS + " (MAXCHANNELS)"),
                    "channel count out of range");
        }
        return (int) n;
    }

    /**
     * An integer as C's {@code strtoll(str, &end, 0)} reads it — leading whitespace, optional sign, then
     * {@code 0x}/{@code 0X} hexadecimal, leading-{@code 0} octal, or decimal — but requiring the whole string
     * to be consumed and the value to fit in 64 bits.
     *
     * @throws NcclEnvException for anything else
     */
    static long parseNumber(String variable, String value) {
        String s = value.stripLeading();
        int i = 0;
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int radix = 10;
        if (s.startsWith("0x", i) || s.startsWith("0X", i)) {
            radix = 16;
            i += 2;
        } else if (s.startsWith("0", i) && s.length() > i + 1) {
            radix = 8;
            i += 1;
        }
        String digits = s.substring(i);
        long ex = example(variable);
        List<String> valid = List.of("a decimal integer (" + ex + ")", "0x hexadecimal (0x" + Long.toHexString(ex) + ")",
                "0-prefixed octal (0" + Long.toOctalString(ex) + ")");
        if (digits.isEmpty()) {
            throw new NcclEnvException(variable, value, value, valid, "not an integer");
        }
        for (int k = 0; k < digits.length(); k++) {
            if (Character.digit(digits.charAt(k), radix) < 0) {
                throw new NcclEnvException(variable, value, digits.substring(k), valid,
                        "not an integer (unexpected '" + digits.charAt(k) + "' in base " + radix + ")");
            }
        }
        BigInteger b = new BigInteger(digits, radix);
        if (negative) b = b.negate();
        if (b.bitLength() > 63) {
            throw new NcclEnvException(variable, value, value, valid, "integer does not fit in 64 bits");
        }
        return b.longValue();
    }

    /** A typical value of {@code variable} for the examples of an integer error: its default where it has one. */
    private static long example(String variable) {
        return switch (variable) {
            case NCCL_BUFFSIZE -> 4194304;
            case NCCL_NTHREADS -> 512;
            case NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS, NCCL_MIN_NRINGS, NCCL_MAX_NRINGS -> 16;
            default -> 1;
        };
    }

    /** NCCL's parseList: fills {@code enable[func * names.length + elem]}. */
    private static void parseList(String variable, String str, String[] names, boolean[] enable,
                                  boolean[] touched) {
        List<String> funcNames = new ArrayList<>();
        for (NcclFunc f : NcclFunc.values()) funcNames.add(f.ncclName());
        boolean first = true;
        for (String section : str.split(";", -1)) {
            if (section.isEmpty()) continue; // strtok skips empty tokens
            // strtok(section, ":"): leading/repeated colons are skipped. NCCL ignores a third part; ccsim rejects it.
            List<String> parts = new ArrayList<>();
            for (String part : section.split(":", -1)) if (!part.isEmpty()) parts.add(part);
            String prefix;
            String elems;
            if (parts.size() < 2) {
                if (section.endsWith(":") && !parts.isEmpty() && indexOfIgnoreCase(funcNames.toArray(new String[0]), parts.get(0)) >= 0) {
                    throw new NcclEnvException(variable, str, section, List.of(parts.get(0) + ":<list>, e.g. " + parts.get(0)
                            + ":" + names[0].toLowerCase(java.util.Locale.ROOT)), "function prefix \"" + parts.get(0)
                            + "\" has no list after ':'");
                }
                if (!first) {
                    throw new NcclEnvException(variable, str, section, prefixedForms(funcNames),
                            "all sections except the first must have a function prefix");
                }
                prefix = null;
                elems = parts.isEmpty() ? "" : parts.get(0);
            } else {
                if (parts.size() > 2) {
                    throw new NcclEnvException(variable, str, section, prefixedForms(funcNames),
                            "a section has at most one ':' (function:list)");
                }
                prefix = parts.get(0);
                elems = parts.get(1);
            }
            first = false;
            boolean set = true;
            if (elems.startsWith("^")) {
                set = false;
                elems = elems.substring(1);
            }
            boolean[] listed = new boolean[names.length];
            for (String elem : elems.split(",", -1)) {
                if (elem.isEmpty()) continue; // strtok skips empty tokens
                int e = indexOfIgnoreCase(names, elem);
                if (e < 0) {
                    throw new NcclEnvException(variable, str, elem, Arrays.asList(names),
                            "unrecognized element \"" + elem + "\"");
                }
                listed[e] = true;
            }
            boolean found = false;
            for (int f = 0; f < NFUNCS; f++) {
                if (prefix != null && !prefix.equalsIgnoreCase(funcNames.get(f))) continue;
                found = true;
                touched[f] = true;
                for (int e = 0; e < names.length; e++) enable[f * names.length + e] = listed[e] == set;
            }
            if (!found) {
                throw new NcclEnvException(variable, str, prefix, funcNames,
                        "unrecognized function prefix \"" + prefix + "\"");
            }
        }
    }

    private static List<String> prefixedForms(List<String> funcNames) {
        List<String> l = new ArrayList<>();
        for (String f : funcNames) l.add(f + ":<list>");
        return l;
    }

    private static int indexOfIgnoreCase(String[] names, String s) {
        for (int i = 0; i < names.length; i++) if (names[i].equalsIgnoreCase(s)) return i;
        return -1;
    }

    /**
     * Whether NCCL_ALGO allows {@code algorithm} for {@code func}. P2P and the symmetric kernels are not
     * NCCL_ALGO values and are always allowed (NCCL_SYM_KERNEL selects among the latter).
     */
    boolean algoEnabled(NcclFunc func, Algorithm algorithm) {
        if (algorithm == Algorithm.P2P || algorithm.isSymmetric()) return true;
        return algoEnable[func.ordinal() * NALGOS + algorithm.ordinal()];
    }

    /** Whether NCCL_PROTO allows {@code protocol} for {@code func} (before the LL128 platform rule). */
    boolean protoEnabled(NcclFunc func, Protocol protocol) {
        return protoEnable[func.ordinal() * NPROTOS + protocol.ordinal()];
    }

    /**
     * Whether NCCL_PROTO set the protocols of {@code func} explicitly. NCCL applies LL128's platform rule
     * (tuning.cc lines 518-536, {@code pEnable == 2}) only to functions NCCL_PROTO left untouched.
     */
    boolean protoExplicit(NcclFunc func) { return protoExplicit[func.ordinal()]; }

    /** NCCL_ALGO as given, if set and non-empty. */
    public Optional<String> algo() { return Optional.ofNullable(algoString); }

    /** NCCL_PROTO as given, if set and non-empty. */
    public Optional<String> proto() { return Optional.ofNullable(protoString); }

    /** NCCL_BUFFSIZE in bytes (Simple protocol buffer per connection), if set. */
    public OptionalLong buffSizeBytes() { return buffSize > 0 ? OptionalLong.of(buffSize) : OptionalLong.empty(); }

    /** NCCL_MIN_NCHANNELS (or NCCL_MIN_NRINGS), 1..64, if set. */
    public OptionalInt minChannels() { return minChannels > 0 ? OptionalInt.of(minChannels) : OptionalInt.empty(); }

    /** NCCL_MAX_NCHANNELS (or NCCL_MAX_NRINGS), 1..64, if set. */
    public OptionalInt maxChannels() { return maxChannels > 0 ? OptionalInt.of(maxChannels) : OptionalInt.empty(); }

    /** NCCL_NTHREADS, threads per block, if set. */
    public OptionalInt nThreads() { return nThreads > 0 ? OptionalInt.of(nThreads) : OptionalInt.empty(); }

    /** NCCL_P2P_DISABLE=1: no CUDA P2P between GPUs of a node (traffic goes through host memory). */
    public boolean p2pDisable() { return p2pDisable; }

    /** NCCL_NVLS_ENABLE: 0 disabled, 1 enabled, 2 (default) enabled where supported. */
    public int nvlsEnable() { return nvlsEnable; }

    /** NCCL_COLLNET_ENABLE = 1: CollNet (Direct, Chain) may be used where a SHARP network is there (default off). */
    public boolean collNetEnable() { return collNetEnable; }

    /** NCCL_P2P_LL_THRESHOLD, bytes, if set. */
    public OptionalLong p2pLlThreshold() {
        return p2pLlThreshold >= 0 ? OptionalLong.of(p2pLlThreshold) : OptionalLong.empty();
    }

    /** NCCL_NCHANNELS_PER_NET_PEER, 1..64, if set. */
    public OptionalInt netPeerChannels() {
        return netPeerChannels > 0 ? OptionalInt.of(netPeerChannels) : OptionalInt.empty();
    }

    /** NCCL_PAT_ENABLE: 0 disabled, 1 enabled, 2 (default) enabled with one rank per node on a host network. */
    public int patEnable() { return patEnable; }

    /** NCCL_CROSS_NIC, NCCL_PXN_DISABLE, NCCL_IB_HCA and NCCL_NET_GDR_LEVEL: how graphs and routes use the NICs. */
    public NetPolicy net() { return net; }

    /** Whether {@code variable} is one ccsim applies ({@link #HONOURED}). */
    /**
     * The rows of NCCL_TUNER_CONFIG_FILE, applied as NCCL's example tuner plugin applies them, or empty when the
     * variable is not set.
     */
    public Optional<TunerConfig> tunerConfig() { return Optional.ofNullable(tunerConfig); }

    public static boolean honours(String variable) { return HONOURED.contains(variable); }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("NcclEnv{");
        if (algoString != null) b.append("NCCL_ALGO=").append(algoString).append(' ');
        if (protoString != null) b.append("NCCL_PROTO=").append(protoString).append(' ');
        if (buffSize > 0) b.append("NCCL_BUFFSIZE=").append(buffSize).append(' ');
        if (minChannels > 0) b.append("NCCL_MIN_NCHANNELS=").append(minChannels).append(' ');
        if (maxChannels > 0) b.append("NCCL_MAX_NCHANNELS=").append(maxChannels).append(' ');
        if (nThreads > 0) b.append("NCCL_NTHREADS=").append(nThreads).append(' ');
        if (p2pDisable) b.append("NCCL_P2P_DISABLE=1 ");
        if (netPeerChannels > 0) b.append("NCCL_NCHANNELS_PER_NET_PEER=").append(netPeerChannels).append(' ');
        if (p2pLlThreshold >= 0) b.append("NCCL_P2P_LL_THRESHOLD=").append(p2pLlThreshold).append(' ');
        if (!net.equals(NetPolicy.DEFAULT)) b.append(net).append(' ');
        if (collNetEnable) b.append("NCCL_COLLNET_ENABLE=1 ");
        if (patEnable != 2) b.append("NCCL_PAT_ENABLE=").append(patEnable).append(' ');
        b.append("NCCL_NVLS_ENABLE=").append(nvlsEnable).append('}');
        return b.toString();
    }
}
