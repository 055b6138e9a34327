// Software path costs of the MPI layer itself (not hardware): what the library spends around a
// message besides moving its bytes. Hardware costs (cache latency, syscall, pinning) come from the
// machine spec; these come from published measurements of the implementations. They sit in the node
// layer because its control channel (control.ts) pays them, as do the transports of sim/kernel/shm.

export const softwareCosts = {
  /**
   * Library work on each side of a small shared-memory message (matching, queue bookkeeping),
   * excluding the cache-line transfers the node model adds from the machine's latencies.
   * Source: Goglin & Moreaud (JPDC 2013) put optimised intra-node latency at ~200 ns end to end on
   * Westmere; about half of it is line transfers on such a machine, the rest is split between sides.
   */
  controlSideNs: 50,
} as const;
