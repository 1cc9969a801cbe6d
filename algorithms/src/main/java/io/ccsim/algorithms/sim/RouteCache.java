package io.ccsim.algorithms.sim;

import io.ccsim.sim.HashKeys;
import io.ccsim.topology.Route;
import io.ccsim.topology.Routing;

/**
 * Routes between GPU nodes for one execution's connections ({@link NcclPaths} with the fabric's NCCL_P2P_DISABLE and
 * network policy); the ECMP key is the channel so channels spread over equal paths.
 */
final class RouteCache {
    /*
     * A route depends on the channel only through the ECMP choice among equal paths: with routing by destination
     * (d-mod-k, an InfiniBand fabric's default) it does not, and one route per pair of nodes serves every channel.
     * Keys are packed (src, dst, channel) longs, spread ({@link HashKeys}). Folding a 1,024-GPU tree all-reduce asks
     * for 32,736 connections' routes, which by destination are 5,600 pairs.
     */
    private final NcclPaths paths;
    private final boolean ring;
    /** whether the channel picks among equal paths (ECMP), else the route is the pair's */
    private final boolean byChannel;
    private final LongKeyedMap<Route> cache = new LongKeyedMap<>();

    /** @param ring whether the connections are a ring's ({@link NcclPaths#route(int, int, long, boolean)}) */
    RouteCache(Fabric fabric, boolean ring) {
        this.paths = new NcclPaths(fabric.topology(), fabric.p2pDisabled(), fabric.netPolicy());
        this.ring = ring;
        this.byChannel = fabric.topology().routing() != Routing.DESTINATION;
    }

    /** The path of GPU node {@code gpu} to ({@code toSwitch}) or from its NVLink switch ({@link NcclPaths#switchRoute}). */
    Route switchRoute(int gpu, boolean toSwitch) {
        long key = ((long) gpu << 40) ^ (toSwitch ? 3L << 60 : 1L << 60);
        long k = HashKeys.spread(key);
        Route r = cache.get(k);
        if (r == null) cache.putNew(k, r = paths.switchRoute(gpu, toSwitch));
        return r;
    }

    /** The path between GPU node {@code gpu} and network switch node {@code sw} ({@link NcclPaths#netSwitchRoute}). */
    Route netSwitchRoute(int gpu, int sw, boolean toSwitch, int channel) {
        long key = ((long) gpu << 40) ^ ((long) sw << 16) ^ (toSwitch ? 1L << 62 : 0) ^ (1L << 61);
        long k = HashKeys.spread(key);
        Route r = cache.get(k);
        if (r == null) cache.putNew(k, r = paths.netSwitchRoute(gpu, sw, toSwitch, channel));
        return r;
    }

    /** The route between GPU nodes for a connection of {@code channel} (its ECMP key; none by destination). */
    Route route(int srcNode, int dstNode, int channel) {
        if (srcNode == dstNode) return Route.local();
        long key = ((long) srcNode << 40) ^ ((long) dstNode << 16) ^ (byChannel ? channel : 0);
        long k = HashKeys.spread(key);
        Route r = cache.get(k);
        if (r == null) cache.putNew(k, r = paths.route(srcNode, dstNode, channel, ring));
        return r;
    }
}
