package io.ccsim.algorithms.sim;

import io.ccsim.topology.Route;
import io.ccsim.topology.Routing;
import java.util.HashMap;
import java.util.Map;

/**
 * Routes between GPU nodes for one execution's connections ({@link NcclPaths} with the fabric's NCCL_P2P_DISABLE and
 * network policy); the ECMP key is the channel so channels spread over equal paths.
 */
final class RouteCache {
    /*
     * A route depends on the channel only through the ECMP choice among equal paths: with routing by destination
     * (d-mod-k, an InfiniBand fabric's default) it does not, and one route per pair of nodes serves every channel.
     * Keys are packed (src, dst, channel) longs passed through a bijective mix (splitmix64's finalizer), so that the
     * map's buckets spread: the packed keys of a large cluster fold onto few hash codes, and HashMap then turns
     * buckets into trees. A 1,024-GPU tree all-reduce asks for 49,152 connections' routes while folding (16 channels
     * of them); by destination they are 3,072 pairs.
     */
    private final NcclPaths paths;
    private final boolean ring;
    /** whether the channel picks among equal paths (ECMP), else the route is the pair's */
    private final boolean byChannel;
    private final Map<Long, Route> cache = new HashMap<>();

    /** @param ring whether the connections are a ring's ({@link NcclPaths#route(int, int, long, boolean)}) */
    RouteCache(Fabric fabric, boolean ring) {
        this.paths = new NcclPaths(fabric.topology(), fabric.p2pDisabled(), fabric.netPolicy());
        this.ring = ring;
        this.byChannel = fabric.topology().routing() != Routing.DESTINATION;
    }

    /** The path of GPU node {@code gpu} to ({@code toSwitch}) or from its NVLink switch ({@link NcclPaths#switchRoute}). */
    Route switchRoute(int gpu, boolean toSwitch) { return paths.switchRoute(gpu, toSwitch); }

    /** The path between GPU node {@code gpu} and network switch node {@code sw} ({@link NcclPaths#netSwitchRoute}). */
    Route netSwitchRoute(int gpu, int sw, boolean toSwitch, int channel) {
        long key = ((long) gpu << 40) ^ ((long) sw << 16) ^ (toSwitch ? 1L << 62 : 0) ^ (1L << 61);
        return cache.computeIfAbsent(spread(key), x -> paths.netSwitchRoute(gpu, sw, toSwitch, channel));
    }

    Route route(int srcNode, int dstNode, int channel) {
        if (srcNode == dstNode) return Route.local();
        long key = ((long) srcNode << 40) ^ ((long) dstNode << 16) ^ (byChannel ? channel : 0);
        return cache.computeIfAbsent(spread(key), x -> paths.route(srcNode, dstNode, channel, ring));
    }

    /** splitmix64's finalizer: a bijection of the longs, so distinct keys stay distinct. */
    private static long spread(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
