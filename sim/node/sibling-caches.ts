// Lines another core of the same socket holds dirty in its private caches, where the socket's
// shared cache is a victim cache. AMD's L3 since K10 is filled only by what the L2s evict and holds
// no copy of what they keep (non-inclusive), so a line a core has just written sits in its own L2
// alone. A read that misses the reader's caches and the L3 makes the northbridge probe the other
// caches, and a cache holding the line Modified or Owned answers with its data (MOESI: AMD BIOS and
// Kernel Developer's Guide for Family 10h, "Cache coherency"; the Owned state lets a dirty line be
// shared without writing it back), while a clean line comes from its home memory as before. A leaf
// reading the segment its leader on the same socket has just written therefore gets it from the
// leader's L2, not from the leader's memory.
//
// Behind an inclusive shared cache (Intel's L3) the shared cache holds every line its cores' private
// caches hold and answers first, so siblings are never consulted there.
import type { CacheSpec, MachineSpec } from '../../hardware/spec.ts';
import type { CacheState } from './cache.ts';
import { peerLatency } from './topology.ts';

export interface SiblingHit {
  cache: CacheSpec;
  /** Bytes of the range it holds. */
  bytes: number;
  /** Probe and transfer through the socket's northbridge: the victim cache's cache-to-cache
   *  latency (CacheSpec.peerLatencyNs), else its hit latency (the probe answered no sooner than an
   *  L3 lookup). */
  latencyNs: number;
}

/** The ids of the private caches behind a victim cache, which keep what they wrote dirty for a
 *  probe (every core's siblings, from siblingCachesByCore). */
export function keptDirtyIds(siblings: ReturnType<typeof siblingCachesByCore>): Set<string> {
  return new Set([...siblings.values()].flatMap((e) => e.siblings.map((c) => c.id)));
}

/** Per core, the private caches of the other cores of its socket that a miss probes (empty unless
 *  the core's shared cache is a victim cache). */
export function siblingCachesByCore(spec: MachineSpec): Map<number, { victim: CacheSpec; siblings: CacheSpec[] }> {
  const out = new Map<number, { victim: CacheSpec; siblings: CacheSpec[] }>();
  for (const core of spec.cores) {
    const victim = spec.caches.find((c) => c.victim && !c.memorySide && c.cores.includes(core.id));
    if (victim === undefined) continue;
    const siblings = spec.caches.filter(
      (c) =>
        !c.memorySide &&
        !c.victim &&
        !c.cores.includes(core.id) &&
        c.cores.every((other) => victim.cores.includes(other)),
    );
    out.set(core.id, { victim, siblings });
  }
  return out;
}

/** The sibling private cache holding most of [offset, offset + bytes) of buffer `buf` dirty, if any;
 *  only the caches in `holding` (those holding some of the buffer) are looked up. */
export function bestSibling(
  entry: { victim: CacheSpec; siblings: CacheSpec[] } | undefined,
  states: ReadonlyMap<string, CacheState>,
  holding: ReadonlySet<CacheState>,
  buf: number,
  offset: number,
  bytes: number,
): SiblingHit | undefined {
  if (entry === undefined) return undefined;
  let best: SiblingHit | undefined;
  for (const cache of entry.siblings) {
    const state = states.get(cache.id)!;
    if (!holding.has(state)) continue;
    const resident = state.dirtyBytes(buf, offset, bytes);
    if (resident > (best?.bytes ?? 0)) best = { cache, bytes: resident, latencyNs: peerLatency(entry.victim) };
  }
  return best;
}
