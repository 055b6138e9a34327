// Lines a cache outside the reader's own group holds Modified. A read that misses every cache the
// reader looks in first (its own, its socket's siblings behind a victim cache, the last level of the
// line's home socket) is snooped or looked up in a directory, and a cache holding the line Modified
// answers with its data instead of memory:
// - on a front-side bus, the owner asserts HITM# and drives the line itself, an implicit write-back
//   (Intel SDM Vol. 3B, chapter 19, Intel Core microarchitecture events: BUS_HITM_DRV, "HITM signal
//   asserted", and BUS_TRANS_WB, whose count "does not count implicit writebacks due to
//   invalidation by a snoop request");
// - over QuickPath, the owner's L3 forwards a line it holds in M state (Intel SDM Vol. 3B, Nehalem
//   uncore events UNC_SNP_RESP_TO_REMOTE_HOME.WB and .FWD_I_STATE);
// - on AMD's MOESI sockets, a cache holding the line Modified or Owned answers the probe with its
//   data (AMD BIOS and Kernel Developer's Guide for Family 10h, "Cache coherency"; sibling-caches.ts
//   applies the same rule inside a socket).
// A clean line still comes from its home: that is where a snoop filter or the home agent sends a
// clean read. Without this step, a machine whose memory sits behind a hub (a front-side-bus SMP),
// where no last-level cache is at the home, read every line another socket had just written from
// memory, and so did a reader whose home socket was not the writer's.
//
// The candidates of a core are the outermost caches of every other group of cores (no core of
// theirs shares a cache with the reader) and, behind victim caches, each core's outermost private
// cache, which keeps its written lines dirty; memory-side caches are never owners. The caller skips
// the home socket's last level, which it has looked in already. Reading a Modified line makes its
// owner write it back (an implicit write-back on a front-side bus, a write-back to the home on
// QuickPath; AMD's Owned state keeps it dirty): the model leaves the lines dirty with the owner and
// charges their write-back when it evicts them, as for any dirty line.
import type { CacheSpec, MachineSpec } from '../../hardware/spec.ts';
import { outermostAmong } from './topology.ts';

/** The caches that may answer a core's read with a Modified line, in the machine's cache order
 *  (ties between two holding as much go to the earlier one). A core's candidates are the eligible
 *  caches minus those of its own group, so one table of the eligible ones serves every core, and
 *  each core keeps only its group, found when first asked: a run reads through a few of a big
 *  machine's cores, a node is built for every run, and a table per core grew with cores x caches. */
export class OwnerCandidates {
  private readonly spec: MachineSpec;
  /** The outermost cache of each group, and each core's outermost private cache behind a victim. */
  readonly eligible: readonly CacheSpec[];
  private readonly groups = new Map<number, Set<number>>();

  constructor(spec: MachineSpec, lastLevel: readonly CacheSpec[], dirtyPrivate: ReadonlySet<string>) {
    this.spec = spec;
    const outermost = new Set(lastLevel.map((c) => c.id));
    // Of a core's private caches behind a victim cache, the outermost answers for it (what its L1
    // holds dirty, a probe finds through its L2 in one answer).
    // It is the one no other such cache of its core is above.
    const kept = spec.caches.filter((c) => dirtyPrivate.has(c.id));
    const outerPrivate = new Set(outermostAmong(kept).map((c) => c.id));
    this.eligible = spec.caches.filter((c) => !c.memorySide && (outermost.has(c.id) || outerPrivate.has(c.id)));
  }

  /** `core`'s candidates, in the machine's order. */
  of(core: number): CacheSpec[] {
    return this.eligible.filter((c) => this.answers(core, c));
  }

  /** Whether eligible `cache` answers `core`'s read: no core of it is in `core`'s group. */
  answers(core: number, cache: CacheSpec): boolean {
    const group = this.groupOf(core);
    return !cache.cores.some((o) => group.has(o));
  }

  /** Every core that shares some cache with `core`: their lines are found before this step. */
  private groupOf(core: number): Set<number> {
    let group = this.groups.get(core);
    if (group === undefined) {
      group = new Set<number>();
      for (const c of this.spec.caches)
        if (!c.memorySide && c.cores.includes(core)) for (const o of c.cores) group.add(o);
      this.groups.set(core, group);
    }
    return group;
  }
}

/** Every core's candidates at once (tests, and anything that lists them). */
export function ownerCandidatesByCore(
  spec: MachineSpec,
  lastLevel: readonly CacheSpec[],
  dirtyPrivate: ReadonlySet<string>,
): Map<number, CacheSpec[]> {
  const candidates = new OwnerCandidates(spec, lastLevel, dirtyPrivate);
  return new Map(spec.cores.map((core) => [core.id, candidates.of(core.id)]));
}

/** A candidate owner of a reader: the cache, its place in the machine's order, and its group: the
 *  vertex of its socket, where a probe finds every cache of that socket holding the line. */
export interface OwnerCandidate {
  cache: CacheSpec;
  order: number;
  group: string;
}

/**
 * The caches that answer a read with the Modified lines they hold: those of the one group (socket)
 * holding most of the range dirty, each with its dirty bytes, in the machine's order. A socket may
 * hold a written range in several caches at once (a core's L2 and the victim L3 behind it, which
 * never hold the same line), and its probe answer covers them all. Of two groups holding as much,
 * the one whose first cache comes earlier in the machine's order answers.
 */
export function bestOwners<S>(
  held: Iterable<S>,
  candidates: ReadonlyMap<S, OwnerCandidate> | undefined,
  skip: (cache: CacheSpec) => boolean,
  dirtyBytes: (state: S) => number,
): { cache: CacheSpec; bytes: number }[] {
  if (candidates === undefined) return [];
  const groups = new Map<
    string,
    { bytes: number; first: number; caches: { cache: CacheSpec; bytes: number; order: number }[] }
  >();
  for (const state of held) {
    const c = candidates.get(state);
    if (c === undefined || skip(c.cache)) continue;
    const bytes = dirtyBytes(state);
    if (bytes <= 0) continue;
    let g = groups.get(c.group);
    if (g === undefined) groups.set(c.group, (g = { bytes: 0, first: c.order, caches: [] }));
    g.bytes += bytes;
    g.first = Math.min(g.first, c.order);
    g.caches.push({ cache: c.cache, bytes, order: c.order });
  }
  let best: { bytes: number; first: number; caches: { cache: CacheSpec; bytes: number; order: number }[] } | undefined;
  for (const g of groups.values())
    if (!best || g.bytes > best.bytes || (g.bytes === best.bytes && g.first < best.first)) best = g;
  if (best === undefined) return [];
  return best.caches.sort((a, b) => a.order - b.order).map(({ cache, bytes }) => ({ cache, bytes }));
}
