// MachineSpec: the one description of a node that every layer above reads.
// Units: time in nanoseconds, sizes in bytes, bandwidths in bytes per nanosecond (= GB/s).
//
// The interconnect is a graph of *vertices*: every package is a vertex named `pkg<id>`, and a
// machine may add hubs (a north-bridge chipset, a board-to-board switch). NUMA nodes (memory
// controllers) and I/O buses hang off a vertex. A core reaches memory on NUMA node n by the route
// from its package vertex to n's vertex; each direction of each link on that route is a resource.

export type VertexId = string;

export interface PackageSpec {
  id: number;
  /** Model name, e.g. "Intel Xeon E7340 (Tigerton)". */
  model: string;
}

export interface HubSpec {
  /** Vertex name, e.g. "northbridge". Must not start with "pkg". */
  id: VertexId;
  description: string;
}

export interface NumaNodeSpec {
  id: number;
  /** Vertex the memory controller hangs off: a package (`pkg0`) or a hub. */
  attach: VertexId;
  memoryBytes: number;
  /** Sustained bandwidth of the memory controller, reads and writes together (bytes/ns). */
  bandwidth: number;
  /** Idle load latency of a miss served by this controller from a local core (ns). */
  latencyNs: number;
  /**
   * One-way trip of a cache line between two of this node's cores that share no cache, on one
   * package (ns): a probe answered by the other core's caches, across the package's fabric, rather
   * than by the memory controller, so it can be shorter than `latencyNs` or longer. Absent, and
   * between cores of two packages: `latencyNs` and the links between them, as through memory.
   */
  peerLatencyNs?: number;
  /**
   * Share of the controller's bandwidth one written byte takes, against one read byte: switching
   * the DRAM bus between reads and writes (turnarounds) costs time, so a mix delivers less than
   * reads alone. Absent: 1.
   */
  writeCost?: number;
  /**
   * Sustained bandwidth of write lanes of their own (bytes/ns): FB-DIMM and the buffered memory of
   * its time carry write data on southbound lanes apart from the northbound lanes that return
   * read data, so reads and writes proceed at once, each up to its own lanes' bandwidth. With it,
   * `bandwidth` is the read lanes' alone and a written byte loads these lanes only (no bus turns
   * around between reads and writes, so `writeCost` does not apply). Absent: one bus for both.
   */
  writeBandwidth?: number;
  /** Kind of memory: ordinary DRAM, or high-bandwidth memory exposed as its own node. */
  kind: 'dram' | 'hbm';
}

export interface CoreSpec {
  /** OS index of the core (first hardware thread). */
  id: number;
  package: number;
  /** NUMA node whose memory is local to this core. */
  numa: number;
  frequencyGHz: number;
  /** Hardware threads per core (SMT). Ranks go on a core's first thread unless a scenario asks for SMT. */
  threads: number;
  /** Host of a several-host machine (hardware/cluster.ts); absent: 0. */
  host?: number;
}

export interface CacheSpec {
  id: string;
  level: number;
  sizeBytes: number;
  /** OS indices of the cores sharing this cache. */
  cores: number[];
  /** Bandwidth of this cache, shared by every core that uses it (bytes/ns). */
  bandwidth: number;
  /** Load-to-use latency of a hit (ns); also the cost of moving a cache line between its sharers
   *  when `peerLatencyNs` is absent. */
  latencyNs: number;
  /**
   * A shared cache: the time a line that one of its cores holds in its private caches (just written
   * there) takes to reach another of its cores (ns), a cache-to-cache transfer through this cache's
   * snoop or probe. A flag or a queue line passing between two cores costs this, and so does every
   * line a core reads or claims from another core's private caches. Absent: `latencyNs`, as if the
   * shared cache answered.
   */
  peerLatencyNs?: number;
  /**
   * A memory-side cache (KNL MCDRAM in cache mode) caches one memory for every core instead of
   * sitting beside particular cores; `cores` then lists every core of the machine.
   */
  memorySide?: boolean;
  /**
   * A victim cache is filled only with lines its cores' private caches evict, never directly by a
   * load (AMD's L3 since K10: non-inclusive, "victim cache" in AMD's BKDG and optimisation guides).
   * A stream read by one core therefore does not land in it for the next reader on the same socket.
   */
  victim?: boolean;
}

export interface LinkSpec {
  /** Name used in traces, e.g. "HT pkg0-pkg1". */
  name: string;
  a: VertexId;
  b: VertexId;
  /** Bandwidth of each direction (bytes/ns). */
  bandwidth: number;
  /** One-way latency added to every transfer that crosses the link (ns). */
  latencyNs: number;
}

export type RoutingSpec =
  | { kind: 'shortest' }
  /** Explicit routes: key "from->to", value the full vertex path including both ends. */
  | { kind: 'table'; routes: Record<string, VertexId[]> };

export interface IoBusSpec {
  id: string;
  /** Vertex the bus's host bridge hangs off. */
  attach: VertexId;
  /** Bandwidth of each direction of the host link (bytes/ns). */
  bandwidth: number;
}

export interface NicSpec {
  id: string;
  /** e.g. "InfiniBand ConnectX DDR", "Myri-10G". */
  model: string;
  bus: string;
  /** Wire bandwidth per direction (bytes/ns). */
  bandwidth: number;
  /** Largest DMA transfer the NIC issues; small ones suffer more from a remote path. */
  dmaBytes?: number;
  /** One-way latency from this NIC to its peer NIC: both NICs' processing and the wire (ns). */
  latencyNs?: number;
  /** Host of a several-host machine (hardware/cluster.ts); absent: 0. */
  host?: number;
}

export const KERNEL_STORES = ['full-line', 'rfo'] as const;
export type KernelStores = (typeof KERNEL_STORES)[number];

export interface CoreCosts {
  /** Sustained memcpy bandwidth of one core when source and destination are in its caches (bytes/ns). */
  copyBandwidth: number;
  /** Element-wise reduction throughput of one core over input bytes (bytes/ns). */
  reduceBandwidth: number;
  /**
   * Cache-line misses one core keeps in flight (L1D fill buffers, miss address buffers). With an
   * access's latency this bounds what one core can stream by Little's law: missConcurrency x
   * lineBytes / latency. Absent: no such bound (only the copy bandwidth and shared resources).
   */
  missConcurrency?: number;
  /**
   * Cache-line misses one core keeps in flight beyond its L2 for a sequential stream once the L2's
   * hardware prefetcher has trained on it (Intel's L2 superqueue, AMD's L2 miss queue). The L2
   * streamer runs ahead of the loads, so the L1 fill buffers then wait only for the L2 while these
   * entries wait for the far level: a stream runs at streamConcurrency x lineBytes / latency instead
   * of missConcurrency x lineBytes / latency. Absent: no prefetcher is modelled.
   */
  streamConcurrency?: number;
  /**
   * How the kernel's copy loop (copy_to_user, copy_from_user, the copies of CMA, KNEM and LiMIC)
   * stores: 'full-line' when its `rep movs` writes whole lines without reading them first (Intel's
   * fast strings), 'rfo' when each destination line is read for ownership before it is written.
   * Absent: 'rfo'.
   */
  kernelStores?: KernelStores;
  /**
   * The C library's memcpy switches to non-temporal stores, which neither read the destination nor
   * leave it in cache, for copies larger than this fraction of the per-thread share of the core's
   * last-level cache (glibc on x86-64: one half up to 2.23, three quarters from 2.33). Absent:
   * memcpy always stores through the cache.
   */
  memcpyNonTemporalShare?: number;
  /**
   * Ownership claims one core keeps in flight for lines another core of its socket holds in a
   * private cache (a buffer a peer has just read): each store must invalidate that copy through the
   * shared cache before it commits, and stores commit in program order, so few such claims overlap.
   * Absent: such claims cost nothing beyond the store itself (the presets: no published figure).
   */
  claimConcurrency?: number;
  /** Cache line size (bytes); DEFAULT_LINE_BYTES when absent. */
  lineBytes?: number;
}

export interface KernelSpec {
  /** The kernel the preset assumes, e.g. "2.6.32" or "4.15". */
  version: string;
  /** Which single-copy mechanisms this node offers. Shared memory is always available. */
  mechanisms: { cma: boolean; knem: boolean; xpmem: boolean; limic: boolean; ioat: boolean };
  /** Cost of entering and leaving the kernel (ns). */
  syscallNs: number;
  pageBytes: number;
  /** get_user_pages cost per page: pinning and translation (ns). */
  pinPerPageNs: number;
  /**
   * Lock taken on the target address space while pinning its pages for CMA:
   * 'exclusive' (readers of one process serialise) or 'shared' (they proceed together).
   */
  cmaLockMode: 'exclusive' | 'shared';
  /** Further mechanism constants (KNEM, XPMEM, I/OAT...), each documented where it is read. */
  params: Record<string, number>;
}

export interface MachineSpec {
  name: string;
  description: string;
  /** Where the description came from: a preset, a file path, hwloc import, sysfs. */
  origin: string;
  packages: PackageSpec[];
  hubs: HubSpec[];
  numaNodes: NumaNodeSpec[];
  cores: CoreSpec[];
  caches: CacheSpec[];
  links: LinkSpec[];
  routing: RoutingSpec;
  ioBuses: IoBusSpec[];
  nics: NicSpec[];
  costs: CoreCosts;
  kernel: KernelSpec;
  /** NUMA distance matrix (hwloc/ACPI SLIT), indexed by NUMA node position; absent if unknown. */
  distances?: number[][];
  /**
   * Measurements of the real machine the file cites (with their sources), to check the model
   * against; the model never reads them. oneCoreCopy: one core's memcpy of a buffer far larger
   * than the last-level cache, bytes copied per ns.
   */
  measured?: { oneCoreCopy?: number };
  /** Processor-table row an imported machine took its speeds from (hardware/processor-rows.ts). */
  processor?: string;
  /** Fields that were not in the source and got a documented default, e.g. "numa[0].bandwidth". */
  guessed: string[];
  /** Number of hosts when the spec is several copies of one host joined by their NICs' wires
   *  (hardware/cluster.ts); absent: one host. */
  hosts?: number;
}

export const packageVertex = (pkg: number): VertexId => `pkg${pkg}`;

/**
 * Cache line of a machine whose spec gives none: 64 bytes on every x86-64 core of the presets, K8 to
 * Zen 4 and Core to Golden Cove (Intel 64 and IA-32 Optimization Reference Manual; AMD family
 * 0Fh-19h optimization guides). POWER8's 128-byte lines are given in its preset.
 */
export const DEFAULT_LINE_BYTES = 64;

/** The cache line of `spec`: its own, or DEFAULT_LINE_BYTES. */
export function lineBytesOf(spec: MachineSpec): number {
  return spec.costs.lineBytes ?? DEFAULT_LINE_BYTES;
}
