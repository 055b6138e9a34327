// Cross Memory Attach: process_vm_readv / process_vm_writev (Linux 3.2+). One system call; then,
// for each remote iovec, batch by batch, the kernel takes the target's mm lock, pins the batch's
// pages with get_user_pages, drops the lock, and copies the batch with the caller's core
// (mm/process_vm_access.c). Nothing is kept between calls, so every call pins again (seed 004 §6:
// "LiMIC and CMA require the very same pinning overhead for each copy request"), and N readers of
// one process queue on its lock (see address-space.ts) while readers of distinct processes do not.
import type { Program } from '../engine/program.ts';
import { dirtyPages } from './page-dirty.ts';
import { describeRange, withinBuffer, type Range } from '../node/buffer.ts';
import { MechanismError } from '../node/errors.ts';
import type { Cma } from '../node/rank-api.ts';
import type { World } from '../node/world.ts';
import { addressSpace, pagesSpanned } from './address-space.ts';
import { kernelCosts } from './kernel-costs.ts';
import { kernelCall, pinUnderLock, syscall } from './kernel-steps.ts';
import { reachThroughMapping } from './user-access.ts';

type Direction = 'read' | 'write';

export function createCma(world: World, me: number): Cma {
  return {
    readv: (target, local, remote) =>
      kernelCall(world, me, processVm(world, me, target, list(local), list(remote), 'read')),
    writev: (target, local, remote) =>
      kernelCall(world, me, processVm(world, me, target, list(local), list(remote), 'write')),
  };
}

function list(r: Range | Range[]): Range[] {
  return Array.isArray(r) ? r : [r];
}

function* processVm(
  world: World,
  me: number,
  target: number,
  local: Range[],
  remote: Range[],
  dir: Direction,
): Program<void> {
  const call = dir === 'read' ? 'process_vm_readv' : 'process_vm_writev';
  const { kernel } = world.node.spec;
  if (!kernel.mechanisms.cma) {
    throw new MechanismError(
      'cma',
      'ENOSYS',
      `${call}: kernel ${kernel.version} has no Cross Memory Attach (Linux 3.2+ with CONFIG_CROSS_MEMORY_ATTACH)`,
    );
  }
  yield* syscall(world, me, call);
  // Linux checks the iovecs as it goes and returns a short count at the first bad one; the model
  // checks them all before copying, so a failed call moves no bytes.
  validate(world, call, me, target, local, remote);

  const costs = kernelCosts(world.node.spec);
  const space = addressSpace(world, target);
  const core = world.cores[me];
  const cursor = new LocalCursor(local);
  for (const r of remote) {
    if (r.bytes === 0) continue;
    const address = space.addressOf(r.buf) + r.offset;
    let startOffset = address % kernel.pageBytes;
    let pagesLeft = pagesSpanned(address, r.bytes, kernel.pageBytes);
    let done = 0;
    while (pagesLeft > 0) {
      const pages = Math.min(pagesLeft, costs.cmaPagesPerBatch);
      yield* pinUnderLock(world, me, space, address + done, pages);
      const bytes = Math.min(pages * kernel.pageBytes - startOffset, r.bytes - done);
      for (const piece of cursor.take(bytes)) {
        // The caller's side goes through its own mapping (copy_to_user, copy_from_user).
        yield* reachThroughMapping(world, me, [piece], call);
        const theirs: Range = { buf: r.buf, offset: r.offset + done, bytes: piece.bytes };
        const [src, dst] = dir === 'read' ? [theirs, piece] : [piece, theirs];
        const label = dir === 'read' ? `cma read <-${target}` : `cma write ->${target}`;
        yield* world.node.copy(core, src, dst, {
          rank: me,
          label,
          kind: 'kernel-copy',
          routine: 'kernel',
          efficiency: costs.kernelCopyEfficiency,
        });
        done += piece.bytes;
      }
      // process_vm_writev marks each target page it wrote dirty (process_vm_rw_pages).
      if (dir === 'write') yield* dirtyPages(world, me, [{ buf: r.buf, offset: r.offset + done - bytes, bytes }]);
      startOffset = 0;
      pagesLeft -= pages;
    }
  }
}

function validate(world: World, call: string, me: number, target: number, local: Range[], remote: Range[]): void {
  if (!Number.isInteger(target) || target < 0 || target >= world.size) {
    // Linux says ESRCH; the simulator's errno set has no ESRCH, and EINVAL reads the same to MPI code.
    throw new MechanismError('cma', 'EINVAL', `${call}: no rank ${target} (ESRCH: no such process)`);
  }
  for (const r of remote) {
    if (!withinBuffer(r))
      throw new MechanismError(
        'cma',
        'EFAULT',
        `${call}: remote ${describeRange(r)} lies outside that buffer of ${r.buf.size} bytes`,
      );
    if (r.buf.owner !== target && r.buf.owner !== -1) {
      throw new MechanismError(
        'cma',
        'EFAULT',
        `${call}: remote ${describeRange(r)} belongs to rank ${r.buf.owner}, not to the target rank ${target}`,
      );
    }
  }
  for (const r of local) {
    if (!withinBuffer(r))
      throw new MechanismError(
        'cma',
        'EFAULT',
        `${call}: local ${describeRange(r)} of rank ${me} lies outside that buffer of ${r.buf.size} bytes`,
      );
  }
  const localBytes = local.reduce((s, r) => s + r.bytes, 0);
  const remoteBytes = remote.reduce((s, r) => s + r.bytes, 0);
  if (localBytes !== remoteBytes) {
    // Linux copies the shorter of the two; a mismatch in an MPI code path is a bug worth stopping on.
    throw new MechanismError(
      'cma',
      'EINVAL',
      `${call}: local iovecs hold ${localBytes} bytes, remote ones ${remoteBytes}`,
    );
  }
}

/** Walks the local iovecs in order, handing out the pieces the next `bytes` bytes fall into. */
class LocalCursor {
  private index = 0;
  private used = 0;

  constructor(private readonly ranges: Range[]) {}

  take(bytes: number): Range[] {
    const out: Range[] = [];
    while (bytes > 0) {
      const r = this.ranges[this.index];
      const n = Math.min(bytes, r.bytes - this.used);
      if (n > 0) out.push({ buf: r.buf, offset: r.offset + this.used, bytes: n });
      this.used += n;
      bytes -= n;
      if (this.used === r.bytes) {
        this.index++;
        this.used = 0;
      }
    }
    return out;
  }
}
