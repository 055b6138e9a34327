// How a copy routine writes its destination, per routine and per processor.
//
// - 'rfo': ordinary stores. Each destination line not already owned is first read for ownership
//   (RFO) from wherever it is, then written back when evicted: a cold destination costs its bytes
//   twice in memory traffic, and the RFO's latency holds the core's miss queues like a load.
// - 'full-line': the destination line is claimed without being read, because the routine is known
//   to overwrite all of it (Intel's fast-string `rep movs`: "a cache-line read for the source
//   address and an invalidation ... for the destination address, knowing that all bytes in the
//   destination cache line will be modified", Intel SDM Vol. 3A §8.2.4, P6 through Core 2; ERMS
//   since Ivy Bridge). The line is still allocated in cache.
// - 'non-temporal': write-combining stores that bypass the caches (glibc's memcpy for large
//   copies): no RFO, nothing left in cache, every byte goes to memory.
import type { MachineSpec } from '../../hardware/spec.ts';
import type { Topology } from './topology.ts';

export type StoreKind = 'rfo' | 'full-line' | 'non-temporal';

/** Which code copies: the C library's memcpy in user space, or the kernel's copy loop. */
export type CopyRoutine = 'memcpy' | 'kernel';

/**
 * The size above which memcpy stores non-temporally: the preset's share (costs.memcpyNonTemporalShare,
 * per glibc release) of the per-thread share of the core's last-level cache, which is how glibc
 * sizes `__x86_shared_non_temporal_threshold` (sysdeps/x86/dl-cacheinfo.h: the shared cache size
 * divided by the threads sharing it).
 */
export function nonTemporalThreshold(spec: MachineSpec, topo: Topology, core: number): number {
  const share = spec.costs.memcpyNonTemporalShare;
  const last = topo
    .cachesOf(core)
    .filter((c) => !c.memorySide)
    .at(-1);
  if (share === undefined || !last) return Infinity;
  return (share * last.sizeBytes) / last.cores.length;
}

export function storeKind(
  spec: MachineSpec,
  topo: Topology,
  core: number,
  routine: CopyRoutine,
  bytes: number,
): StoreKind {
  if (routine === 'kernel') return spec.costs.kernelStores === 'full-line' ? 'full-line' : 'rfo';
  if (bytes >= nonTemporalThreshold(spec, topo, core)) return 'non-temporal';
  return 'rfo';
}
