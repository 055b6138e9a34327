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
// theirs shares a cache with the reader) and, behind victim caches, the private caches that keep
// written lines dirty; memory-side caches are never owners. The caller skips the home socket's last
// level, which it has looked in already.
import type { CacheSpec, MachineSpec } from '../../hardware/spec.ts';

/** Per core, the caches that may answer its read with a Modified line, in the machine's cache order
 *  (ties between two holding as much go to the earlier one). */
export function ownerCandidatesByCore(
  spec: MachineSpec,
  lastLevel: readonly CacheSpec[],
  dirtyPrivate: ReadonlySet<string>,
): Map<number, CacheSpec[]> {
  const outermost = new Set(lastLevel.map((c) => c.id));
  const out = new Map<number, CacheSpec[]>();
  for (const core of spec.cores) {
    // Every core that shares some cache with this one: their lines are found before this step.
    const group = new Set<number>();
    for (const c of spec.caches) if (!c.memorySide && c.cores.includes(core.id)) for (const o of c.cores) group.add(o);
    out.set(
      core.id,
      spec.caches.filter(
        (c) => !c.memorySide && (outermost.has(c.id) || dirtyPrivate.has(c.id)) && !c.cores.some((o) => group.has(o)),
      ),
    );
  }
  return out;
}
