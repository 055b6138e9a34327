// Values an imported machine gets where its source (hwloc XML, Linux sysfs) says nothing and the
// processor table (processor-rows.ts) has no row for its processor, or no figure for the field:
// hwloc and sysfs describe the shape of a node (who shares what) but not how fast anything is.
// Each value is a middle-of-the-road figure for a two-socket x86 server of the Nehalem..Skylake generations, the
// machines of the seed papers; an import lists in `spec.guessed` every field that took one, so a
// user knows which numbers to measure or override before trusting a result.
// Units: ns, bytes, bytes/ns (= GB/s).

export const IMPORT_DEFAULTS = {
  memory: {
    // STREAM-class sustained bandwidth of one socket's memory controller: Molka et al., "Memory
    // performance and cache coherency effects on an Intel Nehalem multiprocessor system" (PACT 2009)
    // measure about 17-19 GB/s per Nehalem-EP socket (3 x DDR3-1066/1333); later sockets reach more.
    bandwidth: 18,
    // Idle local DRAM load latency: 65 ns on Nehalem-EP (Molka et al. 2009); Skylake-SP servers
    // measure 80-90 ns (Intel Memory Latency Checker). 80 ns sits between them.
    latencyNs: 80,
    // Capacity does not affect timing in the model; a node without local_memory/MemTotal still
    // needs a size for reports. 16 GiB: a common per-socket population of that era.
    bytes: 16 * 2 ** 30,
  },
  hbm: {
    // Knights Landing MCDRAM: about 450 GB/s STREAM over the whole chip (Intel, "KNL Performance",
    // 2016); in SNC-4 mode each quadrant's MCDRAM node gets a quarter: ~110 GB/s.
    bandwidth: 110,
    // MCDRAM idle latency is higher than DDR4 on KNL: ~150 ns vs ~130 ns (same source).
    latencyNs: 150,
  },
  /**
   * Per cache level: bandwidth of one cache instance (shared by its cores) and hit latency.
   * Nehalem-EP figures from Molka et al. 2009: L1 4 cycles, L2 10 cycles, L3 ~38 cycles at 2.93 GHz;
   * read bandwidth per core ~45 GB/s from L1, ~30 GB/s from L2, and ~60 GB/s aggregate from the
   * shared L3. Levels 4 and 5 (eDRAM, memory-side caches) take the HBM figures above.
   */
  cache: {
    1: { bandwidth: 45, latencyNs: 1.4 },
    2: { bandwidth: 30, latencyNs: 3.4 },
    3: { bandwidth: 60, latencyNs: 13 },
    4: { bandwidth: 110, latencyNs: 40 },
    5: { bandwidth: 110, latencyNs: 60 },
  } as Record<number, { bandwidth: number; latencyNs: number }>,
  link: {
    // QPI at 6.4 GT/s carries 12.8 GB/s per direction (Intel Xeon 5600 datasheet); HyperTransport 3
    // at 2.6 GHz x16 carries 10.4 GB/s per direction. Take QPI's figure.
    bandwidth: 12.8,
    // One socket-to-socket hop adds about 40 ns to a memory access: remote 106 ns vs local 65 ns on
    // Nehalem-EP (Molka et al. 2009). Links derived from a distance matrix scale this figure by
    // their distance relative to the closest pair of sockets.
    latencyNs: 40,
    // A front-side bus to a shared memory hub: FSB 1333 MT/s x 8 bytes = 10.6 GB/s (Intel 5000P
    // chipset datasheet), used where one memory node is shared by several packages.
    hubBandwidth: 10.6,
  },
  io: {
    // Host link of a PCI host bridge: PCIe 2.0 x16, 8 GB/s per direction (PCI-SIG PCIe 2.0 spec).
    busBandwidth: 8,
  },
  nic: {
    // Wire bandwidth per direction: 4X QDR InfiniBand carries 32 Gb/s of data (40 Gb/s signalling,
    // 8b/10b) = 4 GB/s; Ethernet is taken as 10GbE = 1.25 GB/s. A PCIe link slower than that caps it.
    infiniband: 4,
    ethernet: 1.25,
    other: 1.25,
  },
  core: {
    // Nominal clock of a Westmere-EP/Sandy Bridge-EP server part (X5650 2.67 GHz, E5-2670 2.6 GHz).
    frequencyGHz: 2.6,
    // In-cache memcpy sustains about one 16-byte load and one 16-byte store per cycle with SSE on
    // these cores, i.e. 16 bytes copied per cycle; taken at the default clock: 16 * 2.6 = 41.6 bytes/ns.
    copyBytesPerCycle: 16,
    // A reduction (e.g. MPI_SUM on doubles) reads two inputs and writes one per element: one
    // 16-byte vector add per cycle over the input stream, half the copy rate per input byte.
    reduceBytesPerCycle: 8,
    // L1D fill buffers per core on Intel cores since Nehalem (Intel 64 and IA-32 Architectures
    // Optimization Reference Manual, "Fill buffers": 10); AMD cores of the same era have 8-12 MABs.
    missConcurrency: 10,
  },
  kernel: {
    version: 'unknown',
    // Null system call round trip on x86-64 Linux before KPTI: 50-100 ns (lmbench "null call").
    syscallNs: 100,
    // x86 base page; hwloc/sysfs say nothing about huge pages.
    pageBytes: 4096,
    // POWER and some ARM distributions build 64 KiB base pages (RHEL ppc64/ppc64le kernels).
    pageBytesPower: 65536,
    // get_user_pages per page: KNEM paper (Goglin & Moreaud, JPDC 2013) measures 30-180 ns; middle.
    pinPerPageNs: 100,
    // process_vm_readv/writev take the target's address-space lock for read (mm/process_vm_access.c:
    // down_read of mmap_sem, mmap_lock from 5.8), so readers hold it together; what serialises them
    // is the page-table locks, modelled beside it (docs/model.md, "Contended kernel locks").
    // `intranode calibrate` measures which mode fits the host better.
    cmaLockMode: 'shared' as const,
    // CMA (process_vm_readv/writev) appeared in Linux 3.2 (KNEM paper, section 2).
    cmaSinceMajor: 3,
    cmaSinceMinor: 2,
  },
} as const;

/** Cache figures for a level, falling back to the deepest level described. */
export function cacheDefaults(level: number): { bandwidth: number; latencyNs: number } {
  const table = IMPORT_DEFAULTS.cache;
  return table[level] ?? table[Math.min(5, Math.max(1, Math.round(level)))] ?? table[5];
}
