/**
 * PyTorch's c10d key-value {@link io.ccsim.scenarios.store.Store} on the simulated clock: the
 * {@link io.ccsim.scenarios.store.TcpStore} server hosted by rank 0, namespaces by
 * {@link io.ccsim.scenarios.store.PrefixStore}, timeouts worded as TCPStore words them, and every access
 * logged as a {@link io.ccsim.scenarios.store.StoreEvent}.
 */
package io.ccsim.scenarios.store;
