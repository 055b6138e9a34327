// The timed steps every kernel-assisted mechanism is made of, each recorded in the trace so the
// breakdown shows where the time went: entering the kernel, queueing on a lock, pinning pages.
import type { Program } from '../engine/program.ts';
import type { World } from '../node/world.ts';
import type { Range } from '../node/buffer.ts';
import { pagesSpanned, type AddressSpace } from './address-space.ts';
import { pinPages } from './page-table-locks.ts';

/**
 * One system call or ioctl of rank `rank`, `body` being everything from its entry to its return. The
 * call blocks the rank's one thread all that time, waits on kernel locks included (Node.onRankThread):
 * the rank's other requests' copies and steps wait for it.
 */
export function kernelCall<T>(world: World, rank: number, body: Program<T>): Program<T> {
  return world.node.onRankThread(rank, body);
}

/** Entering and leaving the kernel once (an ioctl or a system call). */
export function* syscall(world: World, rank: number, label: string, kind = 'syscall'): Program<void> {
  yield* step(world, rank, kind, label, world.node.spec.kernel.syscallNs);
}

/** `ns` of the rank's work on its thread (the kernel's, in its call or a KNEM kernel thread's
 *  mapping of pages; the library's, sim/kernel/shm/transport.ts), recorded as `kind`. A plain
 *  function returning the program, not a generator of its own: one level less to resume. */
export function step(
  world: World,
  rank: number,
  kind: string,
  label: string,
  ns: number,
  resource?: string,
): Program<void> {
  return world.node.onRankThread(rank, busy(world, rank, kind, label, ns, resource));
}

function* busy(
  world: World,
  rank: number,
  kind: string,
  label: string,
  ns: number,
  resource: string | undefined,
): Program<void> {
  const start = world.sim.now;
  yield* world.sim.sleep(ns);
  world.node.trace.record({ rank, kind, label, start, end: world.sim.now, bytes: 0, resource });
}

/** Records the time `take` kept the caller queued as a `kind` step, 'lock-wait' by default
 *  (nothing when the lock was free). */
export function* queued(
  world: World,
  rank: number,
  lock: string,
  take: Program<void>,
  kind = 'lock-wait',
): Program<void> {
  const start = world.sim.now;
  yield* take;
  if (world.sim.now > start) {
    world.node.trace.record({
      rank,
      kind,
      label: `wait ${lock}`,
      start,
      end: world.sim.now,
      bytes: 0,
      resource: lock,
    });
  }
}

/**
 * get_user_pages on `pages` pages of `space` from the page holding `address`: queue for the
 * address-space lock, move its line to this core (the rw_semaphore's count is one cache line
 * every reader's down_read writes), pin under the page-table locks (page-table-locks.ts, each page
 * `perPageNs`: `kernel.pinPerPageNs` unless a mechanism says otherwise; recorded as `kind`), release.
 */
export function* pinUnderLock(
  world: World,
  rank: number,
  space: AddressSpace,
  address: number,
  pages: number,
  perPageNs: number = world.node.spec.kernel.pinPerPageNs,
  kind = 'pin',
): Program<void> {
  // Pinning takes kernel locks and then steps on the rank's thread: only inside a call, which holds
  // the thread already, can it never wait for the thread while holding a lock (Node.onRankThread).
  if (!world.node.holdsRankThread(rank))
    throw new Error(`rank ${rank}: pinning outside a system call (kernelCall), which must hold the rank's thread`);
  yield* queued(world, rank, space.lockName, space.lockForPinning());
  const handoff = space.lineHandoffNs(world.cores[rank]);
  if (handoff > 0) yield* step(world, rank, 'lock-wait', `hand-off ${space.lockName}`, handoff, space.lockName);
  yield* pinPages(world, rank, space, address, pages, perPageNs, kind);
  space.unlockForPinning();
}

/** pinUnderLock on the pages of `space` that range `r` of one of its buffers spans (none pinned
 *  for an empty range). */
export function* pinRangeUnderLock(world: World, rank: number, space: AddressSpace, r: Range): Program<void> {
  const address = space.addressOf(r.buf) + r.offset;
  const pages = pagesSpanned(address, r.bytes, world.node.spec.kernel.pageBytes);
  if (pages > 0) yield* pinUnderLock(world, rank, space, address, pages);
}
