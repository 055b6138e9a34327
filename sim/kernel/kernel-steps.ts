// The timed steps every kernel-assisted mechanism is made of, each recorded in the trace so the
// breakdown shows where the time went: entering the kernel, queueing on a lock, pinning pages.
import type { Program } from '../engine/program.ts';
import type { World } from '../node/world.ts';
import type { AddressSpace } from './address-space.ts';

/** Entering and leaving the kernel once (an ioctl or a system call). */
export function* syscall(world: World, rank: number, label: string): Program<void> {
  yield* step(world, rank, 'syscall', label, world.node.spec.kernel.syscallNs);
}

/** `ns` of kernel work by the calling rank, recorded as `kind`. */
export function* step(
  world: World,
  rank: number,
  kind: string,
  label: string,
  ns: number,
  resource?: string,
): Program<void> {
  const start = world.sim.now;
  yield* world.sim.sleep(ns);
  world.node.trace.record({ rank, kind, label, start, end: world.sim.now, bytes: 0, resource });
}

/** Records the time `take` kept the caller queued as a 'lock-wait' step (nothing when it was free). */
export function* queued(world: World, rank: number, lock: string, take: Program<void>): Program<void> {
  const start = world.sim.now;
  yield* take;
  if (world.sim.now > start) {
    world.node.trace.record({
      rank,
      kind: 'lock-wait',
      label: `wait ${lock}`,
      start,
      end: world.sim.now,
      bytes: 0,
      resource: lock,
    });
  }
}

/**
 * get_user_pages on `pages` pages of `space` under its lock: queue for the lock, pin
 * (`kernel.pinPerPageNs` each), release.
 */
export function* pinUnderLock(world: World, rank: number, space: AddressSpace, pages: number): Program<void> {
  yield* queued(world, rank, space.lockName, space.lockForPinning());
  yield* step(
    world,
    rank,
    'pin',
    `pin ${pages} pages of rank ${space.rank}`,
    pages * world.node.spec.kernel.pinPerPageNs,
    space.lockName,
  );
  space.unlockForPinning();
}
