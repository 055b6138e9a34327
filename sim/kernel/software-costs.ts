// Software path costs of the MPI layer itself (not hardware): what the library spends around a
// message besides moving its bytes. Hardware costs (cache latency, syscall, pinning) come from the
// machine spec; these come from published measurements of the implementations.

export const softwareCosts = {
  /**
   * Library work on each side of a small shared-memory message (matching, queue bookkeeping),
   * excluding the cache-line transfers the node model adds from the machine's latencies.
   * Source: Goglin & Moreaud (JPDC 2013) put optimised intra-node latency at ~200 ns end to end on
   * Westmere; about half of it is line transfers on such a machine, the rest is split between sides.
   */
  controlSideNs: 50,
  /**
   * Size of one chunk of a pipelined double copy through a shared bounce buffer.
   * Source: MPICH2 Nemesis default LMT pipelines 64 KiB chunks (Goglin & Moreaud, JPDC 2013, §4.4).
   */
  pipelineChunkBytes: 64 * 1024,
  /** Slots of that size in the bounce ring; two let copy-in and copy-out overlap (double buffering).
   *  Source: Buntinas et al., ICPP 2009, describe the LMT copy buffer as a small ring of chunks. */
  pipelineSlots: 2,
} as const;
