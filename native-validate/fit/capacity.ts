// How much of the shared last-level cache this process really gets. A cache shared with work the
// calibration does not see (other tenants of a virtual machine's host, whose cores share the
// socket's L3) holds less of our data than its size: on the two-core development host, whose L3 is
// reported as 32 MiB, a pointer chase takes about 15 ns per load up to 4 MiB, 42 ns at 8 MiB and
// 127 ns at 16 MiB, against 151 ns from memory. The model's cache is then the capacity we get.
//
// A random chase over w bytes of a cache holding C of them (C < w) hits with probability C / w, so
// its latency is h·L + (1 − h)·M for the cache's latency L and memory's M: C = w·(M − t)/(M − L)
// from a chase of latency t. Of the swept working sets, the one whose hit share is nearest one half
// gives the estimate (both latencies weigh most there); L is the fastest chase of the sweep, so the
// sweep's smallest working set must fit in what the process gets (a capacity below it reads as more).
import type { NativeStats } from '../backend.ts';
import type { RoundedStats } from '../rounds.ts';

export interface CapacitySweep {
  /** Working sets chased, ascending, from past the level below to the cache's size; each chase's
   *  fastest of several when they carry the medians of all (rounds.ts). */
  results: RoundedStats[];
  /** The chase from memory (beyond every cache). */
  memory: NativeStats;
}

export interface Capacity {
  bytes: number;
  /** How it was found, for the machine file. */
  source: string;
}

/** A chase's results, the working sets then memory, as the sweep the capacity is read from. */
export function chaseSweep(results: readonly NativeStats[]): CapacitySweep {
  return { results: results.slice(0, -1), memory: results[results.length - 1] };
}

/**
 * The capacity over several chases: `first` (the working sets, then memory), which sized the level
 * probes, and the rounds' chases of the working sets alone (`again`, each size's fastest round with
 * every round's median). Other work holds more of the cache at some moments than at others and only
 * ever slows a chase, so each working set counts with its fastest load (the least `minNs`, which is
 * what the capacity reads), memory with the first chase's (most of a chase's time is memory's, so
 * it is taken once). The capacity is the larger of the first chase's and the fastest chases': a
 * working set's loads only got faster, and the level probes, sized from the first, stay within it.
 * Undefined `found` means the whole cache.
 */
export function capacityOverChases(
  first: readonly NativeStats[],
  again: readonly RoundedStats[],
  sizeBytes: number,
): { sweep: CapacitySweep; found?: Capacity } {
  const firstSweep = chaseSweep(first);
  const cache = firstSweep.results;
  if (again.length !== cache.length || again.some((r, k) => r.bytes !== cache[k].bytes))
    throw new RangeError("capacity: the rounds' chases are not the first chase's working sets");
  const fastest = cache.map((r, k) => ({
    ...(again[k].minNs < r.minNs ? again[k] : r),
    roundMediansNs: [r.medianNs, ...(again[k].roundMediansNs ?? [again[k].medianNs])],
  }));
  const fastestSweep = { results: fastest, memory: firstSweep.memory };
  const atFirst = effectiveCapacity(firstSweep, sizeBytes);
  const atFastest = effectiveCapacity(fastestSweep, sizeBytes);
  const bytes = (c: Capacity | undefined) => c?.bytes ?? sizeBytes;
  return bytes(atFastest) >= bytes(atFirst)
    ? { sweep: fastestSweep, ...(atFastest ? { found: atFastest } : {}) }
    : { sweep: firstSweep, found: atFirst };
}

/** Effective capacity, rounded to 256 KiB; undefined when the sweep shows no loss below `sizeBytes`. */
export function effectiveCapacity(sweep: CapacitySweep, sizeBytes: number): Capacity | undefined {
  const fastest = Math.min(...sweep.results.map((r) => r.minNs));
  const memory = sweep.memory.minNs;
  if (!(memory > fastest)) return undefined;
  // Below the midpoint everywhere: the cache holds most of every swept working set, up to its size
  // (a dedicated cache chased over all of it misses some lines too: associativity, replacement).
  const missing = sweep.results.filter((r) => r.minNs >= (fastest + memory) / 2);
  if (missing.length === 0) return undefined;
  let best: { bytes: number; hit: number } | undefined;
  for (const r of sweep.results) {
    const hit = Math.min(1, Math.max(0, (memory - r.minNs) / (memory - fastest)));
    if (hit <= 0 || hit >= 1) continue;
    if (!best || Math.abs(hit - 0.5) < Math.abs(best.hit - 0.5)) best = { bytes: r.bytes, hit };
  }
  if (!best) return undefined;
  const quantum = 256 * 1024;
  const bytes = Math.min(sizeBytes, Math.max(quantum, Math.round((best.bytes * best.hit) / quantum) * quantum));
  if (bytes >= sizeBytes) return undefined;
  const chases = sweep.results.map((r) => `${mib(r.bytes)} ${r.minNs.toFixed(1)} ns`).join(', ');
  const rounds = sweep.results[0].roundMediansNs?.length ?? 1;
  const of = `fastest of ${sweep.results[0].samples}${rounds > 1 ? `, each working set's fastest of ${rounds} chases` : ''}`;
  return {
    bytes,
    source: `measured: pointer chase by working set (${of}), ${chases}; memory ${memory.toFixed(1)} ns: ${(best.hit * 100).toFixed(0)} % hits at ${mib(best.bytes)}, so this process gets about ${mib(bytes)} of its ${mib(sizeBytes)} (shared with work outside it)`,
  };
}

function mib(bytes: number): string {
  return bytes >= 1 << 20 ? `${Number((bytes / (1 << 20)).toFixed(2))} MiB` : `${bytes / 1024} KiB`;
}
