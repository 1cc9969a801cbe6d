package io.ccsim.algorithms.profile;

import io.ccsim.algorithms.Protocol;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The numbers the simulator (SimExecutor) and the {@code Tuner} read for one GPU generation. The Tuner reads NCCL's
 * constants ({@code protocols}, {@code tree}, {@code tuner}: never fitted, so that it chooses as NCCL does); the
 * SimExecutor reads only {@code sim}, {@code reduce_bw_gbps}, {@code copy_bw_gbps} and {@code link_efficiency}, which
 * are fitted to measurements. Units are in the names: µs, ns, GB/s with 1 GB = 1e9 B.
 *
 * <p>Built-in profiles ({@link #builtin(String)}): {@code h100}, {@code h200}, and the uncalibrated {@code l40s} and
 * {@code b200} built from the H200 fit. Their NCCL constants are NCCL's own (src/graph/tuning.cc,
 * ncclTunerConstantsDefaults, compCap 90 = Hopper), cited in the resource files' {@code fit.source} and line by line
 * in {@code NcclHopperConstants}.
 *
 * <p>JSON form (snake_case keys; every key required except {@code fit} and those marked optional in {@link SimCosts},
 * {@link SimProtocolCosts} and {@link CtaCosts}; unknown keys are errors):
 * <pre>
 * { "gpu": "H200", "compute_capability": 90, "kernel_launch_us": 2.0,
 *   "protocols": { "LL": {"base_latency_us":6.6, "max_channel_bw_gbps":48,
 *                         "hop_latency_us": {"nvlink":0.6, "pcie":1.0, "net":2.7}}, "LL128": {...}, "Simple": {...} },
 *   "tree": { "LL": {"base_latency_us":6.8, "hop_latency_us": {...}}, "LL128": {...}, "Simple": {...} },
 *   "reduce_bw_gbps": 120, "copy_bw_gbps": 160,
 *   "link_efficiency": {"nvlink":0.85, "pcie":0.8, "net":0.92},
 *   "tuner": { "ll_max_bw_gbps": {"n1":141, "n2":39, "n4":20.4}, ... },
 *   "sim": { "ring": { "LL": {"launch_latency_us":4.5, "step_overhead_ns":300, "hop_latency_us": {...},
 *                             "max_channel_bw_gbps":60, "pipeline_bytes":16384}, "LL128": {...}, "Simple": {...} },
 *            "tree": { same shape }, "p2p": { same shape }, "chain": { same shape, optional }, ... },
 *   "fit": {"source":"...", "date":"2026-11-22", "residuals": {"name": 0.05}} }
 * </pre>
 *
 * <p>The canonical constructor throws {@link IllegalArgumentException} naming the field of a value out of range.
 *
 * @param gpu               GPU name ({@code H100}, {@code H200}), not blank
 * @param computeCapability CUDA compute capability × 10, in 60..200 ({@code 90} for Hopper); drives NCCL's LL128 rules
 * @param kernelLaunchUs    host-side launch of one collective kernel, µs, finite, ≥ 0, and not larger than any
 *                          protocol's {@code base_latency_us} (which includes it)
 * @param protocols         per protocol, every protocol present: NCCL's ring latencies and the tuner's per-channel
 *                          throughput limit
 * @param treeLatencies     per protocol, every protocol present: NCCL's tree algorithm latencies (baseLat/hwLat of
 *                          NCCL_ALGO_TREE)
 * @param reduceBwGbps      reduction throughput of one channel (one CTA), GB/s of input consumed, finite, &gt; 0
 * @param copyBwGbps        local copy throughput of one channel (one CTA), GB/s, finite, &gt; 0
 * @param linkEfficiency    achievable fraction of raw link bandwidth for bulk data, per link class (every class
 *                          present), in (0, 1]
 * @param tuner             NCCL's bandwidth refinements (caps and factors of the cost model)
 * @param sim               the simulator's own timing parameters (fitted; the Tuner never reads them)
 * @param fit               where the numbers came from, when known (empty: unknown)
 */
public record CalibrationProfile(String gpu, int computeCapability, double kernelLaunchUs,
                                 Map<Protocol, ProtocolCosts> protocols, Map<Protocol, LatencyCosts> treeLatencies,
                                 double reduceBwGbps, double copyBwGbps, Map<LinkClass, Double> linkEfficiency,
                                 TunerConstants tuner, SimCosts sim, Optional<FitInfo> fit) {

    /** Names accepted by {@link #builtin(String)}. */
    public static final java.util.List<String> BUILTIN_NAMES = java.util.List.of("h100", "h200", "l40s", "b200");

    /** The NCCL release whose behaviour (tuner, algorithms, channel rules) ccsim models. */
    public static final String NCCL_VERSION = "2.28.9";

    /**
     * Whether the built-in profile {@code name} is calibrated, and on what: {@code calibrated: NCCL 2.28.9 on 4 x H200}
     * for h200 (experiments/nccl-h200), {@code uncalibrated: ...} for the others.
     *
     * @throws IllegalArgumentException if {@code name} is not built in
     */
    public static String builtinCalibration(String name) {
        switch (name) {
            case "h200": return "calibrated: NCCL " + NCCL_VERSION + " on 4 x H200";
            case "h100": return "uncalibrated: the H200 fit, same NVLink4 board";
            case "b200": return "uncalibrated: the H200 fit with NVLink5 links";
            case "l40s": return "uncalibrated: the H200 fit with PCIe links";
            default: throw new IllegalArgumentException("no built-in profile '" + name + "'; built-in: " + BUILTIN_NAMES);
        }
    }

    public CalibrationProfile {
        Objects.requireNonNull(gpu, "gpu");
        if (gpu.isBlank()) throw new IllegalArgumentException("gpu must not be blank");
        if (computeCapability < 60 || computeCapability > 200) {
            throw new IllegalArgumentException("computeCapability must be in 60..200 (e.g. 90 for Hopper), got "
                    + computeCapability);
        }
        Profiles.requireNonNegative(kernelLaunchUs, "kernelLaunchUs");
        protocols = completeProtocolMap(protocols, "protocols");
        treeLatencies = completeProtocolMap(treeLatencies, "treeLatencies");
        for (Map.Entry<Protocol, ProtocolCosts> e : protocols.entrySet()) {
            if (kernelLaunchUs > e.getValue().baseLatencyUs()) {
                throw new IllegalArgumentException("kernelLaunchUs (" + kernelLaunchUs
                        + ") must not exceed protocols." + e.getKey().ncclName() + ".baseLatencyUs ("
                        + e.getValue().baseLatencyUs() + "): the base latency includes the launch");
            }
        }
        Profiles.requirePositive(reduceBwGbps, "reduceBwGbps");
        Profiles.requirePositive(copyBwGbps, "copyBwGbps");
        linkEfficiency = Profiles.completeLinkMap(linkEfficiency, "linkEfficiency");
        for (Map.Entry<LinkClass, Double> e : linkEfficiency.entrySet()) {
            Profiles.requireFraction(e.getValue(), "linkEfficiency." + e.getKey().jsonName());
        }
        Objects.requireNonNull(tuner, "tuner");
        Objects.requireNonNull(sim, "sim");
        Objects.requireNonNull(fit, "fit");
    }

    private static <V> Map<Protocol, V> completeProtocolMap(Map<Protocol, V> m, String name) {
        EnumMap<Protocol, V> copy = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            V v = m.get(p);
            if (v == null) {
                throw new IllegalArgumentException(name + " lacks protocol '" + p.ncclName()
                        + "'; all of LL, LL128, Simple are required");
            }
            copy.put(p, v);
        }
        return Collections.unmodifiableMap(copy);
    }

    /** The costs of protocol {@code p}. */
    public ProtocolCosts protocol(Protocol p) { return protocols.get(p); }

    /** Achievable fraction of raw bandwidth on {@code c}. */
    public double linkEfficiency(LinkClass c) { return linkEfficiency.get(c); }

    /**
     * A built-in profile by name, case-insensitive: one of {@link #BUILTIN_NAMES} (resources
     * {@code io/ccsim/profiles/NAME.json}).
     *
     * @throws IllegalArgumentException for an unknown name, listing the valid ones
     */
    public static CalibrationProfile builtin(String name) {
        String key = name.trim().toLowerCase(java.util.Locale.ROOT);
        if (!BUILTIN_NAMES.contains(key)) {
            throw new IllegalArgumentException("unknown built-in profile '" + name + "'; valid: "
                    + String.join(", ", BUILTIN_NAMES));
        }
        String resource = "/io/ccsim/profiles/" + key + ".json";
        try (InputStream in = CalibrationProfile.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("built-in profile resource missing: " + resource);
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "resource " + resource);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read built-in profile " + resource + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a profile from a JSON file.
     *
     * @throws ProfileException naming the file, the JSON path and what is valid, for malformed content
     * @throws IOException      if the file cannot be read
     */
    public static CalibrationProfile load(Path file) throws IOException {
        return parse(io.ccsim.topology.input.TextFile.read(file, "profile"), file.toString());
    }

    /**
     * Parses profile JSON text; {@code sourceName} is used in error messages.
     *
     * @throws ProfileException naming the source, the JSON path and what is valid
     */
    public static CalibrationProfile parse(String json, String sourceName) {
        return ProfileJson.read(json, sourceName);
    }

    /** This profile as pretty-printed JSON in the form {@link #parse} reads (deterministic key order). */
    public String toJson() { return ProfileJson.write(this); }

    /** Writes {@link #toJson()} to {@code file} (UTF-8). */
    public void write(Path file) throws IOException {
        Files.writeString(file, toJson(), StandardCharsets.UTF_8);
    }

    /** A copy with other tuner constants (for fits and what-if studies). */
    public CalibrationProfile withTuner(TunerConstants newTuner) {
        return new CalibrationProfile(gpu, computeCapability, kernelLaunchUs, protocols, treeLatencies,
                reduceBwGbps, copyBwGbps, linkEfficiency, newTuner, sim, fit);
    }

    /** A copy with other protocol costs (for fits and what-if studies). */
    public CalibrationProfile withProtocols(Map<Protocol, ProtocolCosts> newProtocols) {
        return new CalibrationProfile(gpu, computeCapability, kernelLaunchUs, newProtocols, treeLatencies,
                reduceBwGbps, copyBwGbps, linkEfficiency, tuner, sim, fit);
    }

    /** A copy with other simulator costs (for fits and what-if studies). */
    public CalibrationProfile withSim(SimCosts newSim) {
        return new CalibrationProfile(gpu, computeCapability, kernelLaunchUs, protocols, treeLatencies,
                reduceBwGbps, copyBwGbps, linkEfficiency, tuner, newSim, fit);
    }

    /** A copy with other shared simulator throughputs and NVLink/PCIe/network efficiencies. */
    public CalibrationProfile withThroughputs(double newReduceBwGbps, double newCopyBwGbps, Map<LinkClass, Double> newLinkEfficiency) {
        return new CalibrationProfile(gpu, computeCapability, kernelLaunchUs, protocols, treeLatencies,
                newReduceBwGbps, newCopyBwGbps, newLinkEfficiency, tuner, sim, fit);
    }

    /** A copy with another {@code fit} section. */
    public CalibrationProfile withFit(Optional<FitInfo> newFit) {
        return new CalibrationProfile(gpu, computeCapability, kernelLaunchUs, protocols, treeLatencies,
                reduceBwGbps, copyBwGbps, linkEfficiency, tuner, sim, newFit);
    }
}
