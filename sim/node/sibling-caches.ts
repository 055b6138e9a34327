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

/** A core's victim cache and the private caches of the other cores behind it, with each one's
 *  place in that list by cache id. */
export interface SiblingEntry {
  victim: CacheSpec;
  siblings: CacheSpec[];
  position: Map<string, number>;
}

/** Per core, the private caches of the other cores of its socket that a miss probes (empty unless
 *  the core's shared cache is a victim cache). */
export function siblingCachesByCore(spec: MachineSpec): Map<number, SiblingEntry> {
  const out = new Map<number, SiblingEntry>();
  // Per victim cache, the private caches of its cores, in the spec's order; each core's siblings
  // are those of its own victim cache that are not its own (one pass over the caches per victim,
  // not per core: a 1,024-core machine has some two thousand caches).
  const behind = new Map<CacheSpec, CacheSpec[]>();
  const victimOf = new Map<number, CacheSpec>();
  for (const victim of spec.caches) {
    if (!victim.victim || victim.memorySide) continue;
    const inside = new Set(victim.cores);
    behind.set(
      victim,
      spec.caches.filter((c) => !c.memorySide && !c.victim && c.cores.every((other) => inside.has(other))),
    );
    for (const core of victim.cores) if (!victimOf.has(core)) victimOf.set(core, victim);
  }
  for (const core of spec.cores) {
    const victim = victimOf.get(core.id);
    if (victim === undefined) continue;
    const siblings = behind.get(victim)!.filter((c) => !c.cores.includes(core.id));
    out.set(core.id, { victim, siblings, position: new Map(siblings.map((c, i) => [c.id, i])) });
  }
  return out;
}

/** The sibling private cache holding most of [offset, offset + bytes) of buffer `buf` dirty, if any
 *  (the first in the siblings' order on a tie); only the caches in `holding` (those holding some of
 *  the buffer, a CacheState named by its cache's id) are looked up, walking whichever of the two
 *  lists is shorter: a buffer is held by a handful of a big socket's caches. */
export function bestSibling(
  entry: SiblingEntry | undefined,
  states: ReadonlyMap<string, CacheState>,
  holding: ReadonlySet<CacheState>,
  buf: number,
  offset: number,
  bytes: number,
): SiblingHit | undefined {
  if (entry === undefined) return undefined;
  let bestAt = -1;
  let bestBytes = 0;
  const fromHolding = holding.size < entry.siblings.length;
  const walk = fromHolding ? holding : entry.siblings;
  for (const item of walk) {
    let at: number | undefined;
    let state: CacheState;
    if (fromHolding) {
      state = item as CacheState;
      at = entry.position.get(state.name);
      if (at === undefined || states.get(state.name) !== state) continue;
    } else {
      const cache = item as CacheSpec;
      state = states.get(cache.id)!;
      if (!holding.has(state)) continue;
      at = entry.position.get(cache.id)!;
    }
    const resident = state.dirtyBytes(buf, offset, bytes);
    if (resident > bestBytes || (resident > 0 && resident === bestBytes && at < bestAt)) {
      bestAt = at;
      bestBytes = resident;
    }
  }
  return bestAt < 0
    ? undefined
    : { cache: entry.siblings[bestAt], bytes: bestBytes, latencyNs: peerLatency(entry.victim) };
}
