// The figures an imported machine takes from its processor's row of the processor table, in the
// units of MachineSpec. The row gives cycles and bytes per cycle; the machine's clock turns them
// into nanoseconds and bytes per nanosecond.

import { findProcessor, memoryBandwidth, type ProcessorRow } from '../processor-table.ts';
import type { CoreCosts } from '../spec.ts';
import type { FoundPackage } from './found.ts';

/**
 * The row of a machine's processor: every package that names its processor must name the same
 * generation (a machine mixing generations, or naming one the table lacks, keeps the defaults).
 */
export function machineProcessor(packages: FoundPackage[]): ProcessorRow | undefined {
  const named = packages.filter(
    (p) => p.model !== undefined || p.vendor !== undefined || p.family !== undefined || p.modelNumber !== undefined,
  );
  const rows = named.map((p) =>
    findProcessor({ vendor: p.vendor, family: p.family, model: p.modelNumber, name: p.model }),
  );
  const first = rows[0];
  return first !== undefined && rows.every((r) => r === first) ? first : undefined;
}

/** Bandwidth (bytes/ns) and hit latency (ns) of a CPU cache of `sharers` cores at `clockGHz`. */
export function cacheFigures(
  row: ProcessorRow,
  level: number,
  sharers: number,
  clockGHz: number,
): { bandwidth: number; latencyNs: number; victim?: true } | undefined {
  const c = row.caches[level];
  if (c === undefined) return undefined;
  return {
    bandwidth: c.bytesPerCycle * (c.perSharer ? sharers : 1) * clockGHz,
    latencyNs: c.latencyCycles / clockGHz,
    ...(c.victim ? { victim: true } : {}),
  };
}

/** Per-core costs at `clockGHz`. */
export function coreCosts(row: ProcessorRow, clockGHz: number): CoreCosts {
  const c = row.core;
  return {
    copyBandwidth: c.copyBytesPerCycle * clockGHz,
    reduceBandwidth: c.reduceBytesPerCycle * clockGHz,
    missConcurrency: c.missConcurrency,
    ...(c.streamConcurrency !== undefined ? { streamConcurrency: c.streamConcurrency } : {}),
    ...(c.kernelStores !== undefined ? { kernelStores: c.kernelStores } : {}),
    ...(c.lineBytes !== undefined ? { lineBytes: c.lineBytes } : {}),
  };
}

/** One DRAM node's share of its socket's memory, when `shareOf` nodes split that socket's channels. */
export function dramFigures(
  row: ProcessorRow,
  shareOf: number,
): { bandwidth: number; latencyNs: number; writeCost?: number } {
  const m = row.memory;
  return {
    bandwidth: memoryBandwidth(row) / Math.max(1, shareOf),
    latencyNs: m.latencyNs,
    ...(m.writeCost !== undefined ? { writeCost: m.writeCost } : {}),
  };
}

/** A package's high-bandwidth memory (flat-mode nodes or memory-side caches) split over `shareOf` of them. */
export function packageShare(
  figures: { bandwidth: number; latencyNs: number },
  shareOf: number,
): { bandwidth: number; latencyNs: number } {
  return { bandwidth: figures.bandwidth / Math.max(1, shareOf), latencyNs: figures.latencyNs };
}
