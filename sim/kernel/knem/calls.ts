// The steps every KNEM call of one rank shares: checking the module, the mode and the caller's
// segments, pinning the caller's pages, and running a copy now or handing it to a kernel thread or
// the I/OAT engine.
import type { Program } from '../../engine/program.ts';
import { dirtyPages } from '../page-dirty.ts';
import { withinBuffer, type Range } from '../../node/buffer.ts';
import { MechanismError } from '../../node/errors.ts';
import type { Node } from '../../node/node.ts';
import type { CopyDirection, KnemCopyHandle, OffloadMode } from '../../node/rank-api.ts';
import type { World } from '../../node/world.ts';
import type { MachineSpec } from '../../../hardware/spec.ts';
import { addressSpace } from '../address-space.ts';
import { ioatCopy } from '../ioat.ts';
import { pinRangeUnderLock, step } from '../kernel-steps.ts';
import { knemParam } from './costs.ts';
import { knemDriver, type KnemDriver } from './driver.ts';
import { AsyncCopy, completedCopy } from './handle.ts';
import type { Piece } from './segments.ts';

const MODES: readonly OffloadMode[] = ['sync', 'thread', 'ioat'];

/** Rank `me`'s view of KNEM in this run. */
export interface KnemCaller {
  world: World;
  me: number;
  node: Node;
  spec: MachineSpec;
  core: number;
  driver: KnemDriver;
}

export function knemCaller(world: World, me: number): KnemCaller {
  return { world, me, node: world.node, spec: world.node.spec, core: world.cores[me], driver: knemDriver(world) };
}

export function requireKnem(c: KnemCaller, call: string): void {
  const { me, spec, driver } = c;
  if (!spec.kernel.mechanisms.knem)
    throw new MechanismError('knem', 'ENODEV', `${call}: this node's kernel has no KNEM module (/dev/knem missing)`);
  driver.contextOf(me);
}

export function requireMode(c: KnemCaller, call: string, mode: OffloadMode): void {
  const { spec } = c;
  if (!MODES.includes(mode))
    throw new MechanismError(
      'knem',
      'EINVAL',
      `${call}: unknown copy mode "${String(mode)}" (expected ${MODES.join(', ')})`,
    );
  if (mode === 'ioat' && !spec.kernel.mechanisms.ioat) {
    throw new MechanismError(
      'knem',
      'ENODEV',
      `${call}: I/OAT offload requested but this node has no I/OAT DMA engine`,
    );
  }
}

/** Segments passed from user space must lie in the caller's own address space. */
export function ownSegments(c: KnemCaller, call: string, segments: Range | Range[]): Range[] {
  const { me } = c;
  const list = Array.isArray(segments) ? segments : [segments];
  for (const s of list) {
    if (s.buf.owner !== me && s.buf.owner !== -1) {
      throw new MechanismError(
        'knem',
        'EFAULT',
        `${call}: segment of ${s.buf.name} belongs to rank ${s.buf.owner}, not to rank ${me}`,
      );
    }
    if (!withinBuffer(s)) {
      throw new MechanismError(
        'knem',
        'EFAULT',
        `${call}: segment [${s.offset}, ${s.offset + s.bytes}) lies outside ${s.buf.name} of ${s.buf.size} bytes`,
      );
    }
  }
  return list;
}

/** get_user_pages on the caller's own pages of `segments`, under its address-space lock (shared
 *  with CMA and LiMIC pinners of this rank) and its page-table locks. */
export function* pin(c: KnemCaller, segments: Range[]): Program<void> {
  const { world, me } = c;
  const space = addressSpace(world, me);
  for (const s of segments) yield* pinRangeUnderLock(world, me, space, s);
}

export function efficiency(c: KnemCaller, direction: CopyDirection, mode: OffloadMode): number {
  const { spec } = c;
  const base = knemParam(spec, direction === 'read' ? 'knemReadEfficiency' : 'knemWriteEfficiency');
  return mode === 'thread' ? base * knemParam(spec, 'knemThreadEfficiency') : base;
}

/** How the driver reaches a copy's pages: how many region pages it maps into the kernel (kmap)
 *  first, and whether the destination is a list of pinned pages it writes through such a mapping
 *  (then marked dirty when unpinned) rather than the caller's user mapping. */
export interface CopyAccess {
  kmapPages: number;
  pinnedDestination: boolean;
}

/** The copy by this rank's core (or the kernel thread sharing it). */
function* coreCopy(c: KnemCaller, pieces: Piece[], label: string, eff: number, access: CopyAccess): Program<void> {
  const { world, me, node, spec, core } = c;
  const { kmapPages, pinnedDestination } = access;
  if (kmapPages > 0)
    yield* step(
      world,
      me,
      'syscall',
      `${label}: kmap ${kmapPages} pages`,
      kmapPages * knemParam(spec, 'knemKmapPerPageNs'),
    );
  for (const { src, dst } of pieces)
    yield* node.copy(core, src, dst, { rank: me, label, kind: 'kernel-copy', routine: 'kernel', efficiency: eff });
  // Pinned destination pages written through a kernel mapping are marked dirty when unpinned, by
  // the releases that do (`knemMarksDirty`); pages written through the caller's own mapping were
  // dirtied by the stores themselves (knem_main.c: "no need to set local region as dirty, we used
  // the user-space mapping to write into it").
  if (knemParam(spec, 'knemMarksDirty') === 0 || !pinnedDestination) return;
  yield* dirtyPages(
    world,
    me,
    pieces.map((p) => p.dst),
  );
}

/** What reading the status word costs: the kernel thread left it in this core's nearest cache,
 *  the DMA engine wrote it to memory. */
function statusReadNs(c: KnemCaller, mode: OffloadMode): number {
  const { node, core } = c;
  if (mode === 'thread')
    return node.topo.cachesOf(core)[0]?.latencyNs ?? node.topo.numa(node.topo.core(core).numa).latencyNs;
  return node.topo.numa(node.topo.core(core).numa).latencyNs;
}

/** Runs the copy now (sync) or hands it to a kernel thread or the DMA engine. */
export function* submit(
  c: KnemCaller,
  pieces: Piece[],
  label: string,
  mode: OffloadMode,
  eff: number,
  access: CopyAccess,
): Program<KnemCopyHandle> {
  const { world, me, core } = c;
  if (mode === 'sync') {
    yield* coreCopy(c, pieces, label, eff, access);
    return completedCopy;
  }
  const handle = new AsyncCopy(world, me, `${label} (${mode})`, statusReadNs(c, mode));
  handle.start(
    mode === 'thread'
      ? coreCopy(c, pieces, `${label} (thread)`, eff, access)
      : // The DMA work's pages are released, and marked dirty, by KNEM's deferred clean-up of
        // finished DMA work (knem_dmacpy_partial_cleanup), after completion: nothing to charge here.
        ioatCopy(world, core, pieces, { rank: me, label: `${label} (ioat)` }),
  );
  return handle;
}
