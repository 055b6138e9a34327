// What an importer found on a machine, before defaults are filled in: the shared shape between the
// hwloc XML reader and the sysfs reader. CPUs are named by OS index of their hardware thread (PU).

export interface FoundPackage {
  /** OS index; the assembled machine renumbers packages 0..n-1 in this order. */
  id: number;
  model?: string;
  /** Processor identity, when the source gives it (hwloc CPUVendor/CPUFamilyNumber/CPUModelNumber, /proc/cpuinfo). */
  vendor?: string;
  family?: number;
  modelNumber?: number;
  /** Clock read from the model string or from cpufreq. */
  frequencyGHz?: number;
}

export interface FoundNuma {
  id: number;
  memoryBytes?: number;
  /** Hardware threads local to this node; empty for a memory-only node. */
  cpus: number[];
  kind: 'dram' | 'hbm';
  bandwidth?: number;
  latencyNs?: number;
  /** Package the node sits inside in the source tree, used when its cpus say nothing. */
  packageHint?: number;
}

export interface FoundCore {
  /** Hardware threads, first one first: the core is named by pus[0]. */
  pus: number[];
  package?: number;
  /** NUMA node the source places the core under, used when no node's cpus contain it. */
  numaHint?: number;
  frequencyGHz?: number;
}

export interface FoundCache {
  level: number;
  sizeBytes: number;
  cpus: number[];
  memorySide?: boolean;
}

/** A NUMA distance matrix (ACPI SLIT style: local = 10). */
export interface FoundDistances {
  ids: number[];
  values: number[][];
}

export interface FoundBus {
  id: string;
  /** Hardware threads the bus is local to; empty when the whole machine. */
  cpus: number[];
  packageHint?: number;
  bandwidth?: number;
}

export type NicKind = 'infiniband' | 'ethernet' | 'other';

export interface FoundNic {
  id: string;
  model: string;
  bus: string;
  kind: NicKind;
  /** Bandwidth of the NIC's own PCIe link, when known (bytes/ns): a bound, not its speed. */
  linkBandwidth?: number;
  /** The wire speed the source states (an InfiniBand port's rate, an Ethernet port's speed), bytes/ns. */
  wireBandwidth?: number;
}

export interface FoundMachine {
  /** File or directory the description came from, for errors. */
  source: string;
  name: string;
  origin: string;
  packages: FoundPackage[];
  numaNodes: FoundNuma[];
  cores: FoundCore[];
  caches: FoundCache[];
  distances?: FoundDistances;
  buses: FoundBus[];
  nics: FoundNic[];
  kernelRelease?: string;
  architecture?: string;
  mechanisms?: { knem?: boolean; xpmem?: boolean; limic?: boolean; ioat?: boolean };
}
