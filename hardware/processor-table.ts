// The shape of a processor-table row and how an imported machine's processor is found in it.
// hwloc and sysfs describe who shares what, not how fast anything is; a row gives the speeds of one
// processor generation on its usual platform, so an imported machine of that generation needs no
// guessed figure for its caches, memory, socket links and core. The rows, each number with its
// source, are in processor-rows.ts.

import { PROCESSOR_ROWS } from './processor-rows.ts';
import type { KernelStores } from './spec.ts';

/** One cache level, in core cycles so that a row serves every clock of its generation. */
export interface CacheLevelRow {
  /** Load-to-use latency of a hit. */
  latencyCycles: number;
  /** Bytes per core cycle the cache delivers: the whole instance, or each sharer's slice. */
  bytesPerCycle: number;
  /** bytesPerCycle is per core sharing the cache (a sliced L3 on a ring or mesh grows with its cores). */
  perSharer?: boolean;
  /** Filled only by the evictions of the caches below it (AMD's L3 since K10). */
  victim?: boolean;
}

export interface ProcessorRow {
  /** Short stable name, e.g. 'sandy-bridge-ep'. */
  id: string;
  /** What `machine show` prints, e.g. 'Intel Sandy Bridge-EP (Xeon E5-2600)'. */
  name: string;
  match: {
    /** /proc/cpuinfo vendor_id, hwloc CPUVendor. */
    vendor?: 'GenuineIntel' | 'AuthenticAMD';
    /** /proc/cpuinfo "cpu family", hwloc CPUFamilyNumber. */
    family?: number;
    /** /proc/cpuinfo "model", hwloc CPUModelNumber; absent: every model of the family. */
    models?: number[];
    /** Model strings (/proc/cpuinfo "model name" or "cpu", hwloc CPUModel) of this generation. */
    names: RegExp[];
  };
  /** Clock of the row's reference part, taken when the import cannot read the clock (still listed as guessed). */
  clockGHz: number;
  /** Data and unified caches by level. */
  caches: Partial<Record<number, CacheLevelRow>>;
  core: {
    copyBytesPerCycle: number;
    reduceBytesPerCycle: number;
    missConcurrency: number;
    streamConcurrency?: number;
    kernelStores?: KernelStores;
    lineBytes?: number;
  };
  /** The memory of one socket (or, behind a front-side bus, of the chipset every socket shares). */
  memory: {
    channels: number;
    /** Transfers per second of each channel, in millions (DDR3-1333: 1333). */
    megaTransfers: number;
    /** Bytes per transfer of each channel; absent: 8 (a 64-bit DDR channel). */
    bytesPerTransfer?: number;
    /** Share of the peak that STREAM triad (two reads, one write) sustains. */
    streamShare: number;
    /** A written byte's cost against a read byte's (bus turnarounds); absent: 1. */
    writeCost?: number;
    /** Idle load latency from a local core. */
    latencyNs: number;
  };
  /** High-bandwidth memory exposed as NUMA nodes (flat mode), for the whole package. */
  hbm?: { bandwidth: number; latencyNs: number };
  /** High-bandwidth memory as a memory-side cache (cache mode), for the whole package. */
  memorySideCache?: { bandwidth: number; latencyNs: number };
  /**
   * 'point-to-point': the link between two packages (QPI, UPI, HyperTransport, xGMI), also used
   * for the path to a memory-only node. 'fsb': the front-side bus from a package to the chipset
   * that holds the memory every package shares.
   */
  link: { kind: 'point-to-point' | 'fsb'; bandwidth: number; latencyNs: number };
}

/** What an importer read about a package's processor. */
export interface ProcessorIdentity {
  vendor?: string;
  family?: number;
  model?: number;
  name?: string;
}

/**
 * The row of a processor: by vendor, family and model number when the source gives them (the
 * numbers name a die exactly), else by the model string.
 */
export function findProcessor(
  id: ProcessorIdentity,
  rows: readonly ProcessorRow[] = PROCESSOR_ROWS,
): ProcessorRow | undefined {
  if (id.family !== undefined && id.model !== undefined) {
    const byNumber = rows.find(
      (r) =>
        r.match.family === id.family &&
        (r.match.vendor === undefined || r.match.vendor === id.vendor) &&
        (r.match.models === undefined || r.match.models.includes(id.model!)),
    );
    if (byNumber) return byNumber;
  }
  const name = id.name;
  if (name === undefined) return undefined;
  return rows.find((r) => r.match.names.some((re) => re.test(name)));
}

/** Peak bandwidth of a row's memory, GB/s: channels x transfers x bytes per transfer. */
export function memoryPeak(row: ProcessorRow): number {
  const m = row.memory;
  return (m.channels * m.megaTransfers * (m.bytesPerTransfer ?? 8)) / 1000;
}

/**
 * Bandwidth of one socket's memory as the model counts it (reads, with each written byte costing
 * writeCost): STREAM triad moves two bytes read per byte written, so a sustained triad rate S means
 * S x (2 + writeCost) / 3 of read-equivalent bandwidth.
 */
export function memoryBandwidth(row: ProcessorRow): number {
  const m = row.memory;
  const triad = memoryPeak(row) * m.streamShare;
  return (triad * (2 + (m.writeCost ?? 1))) / 3;
}
