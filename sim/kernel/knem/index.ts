// KNEM (Goglin & Moreaud, JPDC 2013, §3-4) bound to one rank: declared regions named by cookies,
// inline copies between a region and the caller's own segments, region-to-region copies, copy
// direction, single-use regions, and synchronous, kernel-thread or I/OAT-offloaded copies.
//
// Every cost is a step the driver really takes: entering the kernel, region bookkeeping, cookie
// lookup, pinning pages (region pages once at declaration, the caller's local pages on each inline
// copy), kmap of region pages for region copies, and the copy itself as a flow over the node. Reusing
// a region is cheaper than re-declaring it only because those steps are not repeated.
import type { Program } from '../../engine/program.ts';
import { withinBuffer, type Range } from '../../node/buffer.ts';
import { MechanismError } from '../../node/errors.ts';
import type { CopyDirection, Knem, KnemCookie, KnemCopyHandle, OffloadMode } from '../../node/rank-api.ts';
import type { World } from '../../node/world.ts';
import { addressSpace } from '../address-space.ts';
import { ioatCopy } from '../ioat.ts';
import { pinUnderLock, step, syscall } from '../kernel-steps.ts';
import { describeCookie } from './cookie.ts';
import { knemParam } from './costs.ts';
import { knemDriver } from './driver.ts';
import { AsyncCopy, completedCopy } from './handle.ts';
import { pagesOfAll, pairSegments, sliceSegments, totalBytes, type Piece } from './segments.ts';

export { knemDefaults, knemParam, type KnemParam } from './costs.ts';
export { makeCookie, cookieContext, cookieRegion } from './cookie.ts';
export { KnemDriver, knemDriver, type Region } from './driver.ts';

const MODES: readonly OffloadMode[] = ['sync', 'thread', 'ioat'];

export function createKnem(world: World, me: number): Knem {
  const node = world.node;
  const spec = node.spec;
  const core = world.cores[me];
  const driver = knemDriver(world);

  function requireKnem(call: string): void {
    if (!spec.kernel.mechanisms.knem) throw new MechanismError('knem', 'ENODEV', `${call}: this node's kernel has no KNEM module (/dev/knem missing)`);
    driver.contextOf(me);
  }

  function requireMode(call: string, mode: OffloadMode): void {
    if (!MODES.includes(mode)) throw new MechanismError('knem', 'EINVAL', `${call}: unknown copy mode "${String(mode)}" (expected ${MODES.join(', ')})`);
    if (mode === 'ioat' && !spec.kernel.mechanisms.ioat) {
      throw new MechanismError('knem', 'ENODEV', `${call}: I/OAT offload requested but this node has no I/OAT DMA engine`);
    }
  }

  /** Segments passed from user space must lie in the caller's own address space. */
  function ownSegments(call: string, segments: Range | Range[]): Range[] {
    const list = Array.isArray(segments) ? segments : [segments];
    for (const s of list) {
      if (s.buf.owner !== me && s.buf.owner !== -1) {
        throw new MechanismError('knem', 'EFAULT', `${call}: segment of ${s.buf.name} belongs to rank ${s.buf.owner}, not to rank ${me}`);
      }
      if (!withinBuffer(s)) {
        throw new MechanismError('knem', 'EFAULT', `${call}: segment [${s.offset}, ${s.offset + s.bytes}) lies outside ${s.buf.name} of ${s.buf.size} bytes`);
      }
    }
    return list;
  }

  /** get_user_pages on the caller's own pages, under its address-space lock (shared with CMA and
   *  LiMIC pinners of this rank). */
  function* pin(pages: number): Program<void> {
    if (pages > 0) yield* pinUnderLock(world, me, addressSpace(world, me), pages);
  }

  function efficiency(direction: CopyDirection, mode: OffloadMode): number {
    const base = knemParam(spec, direction === 'read' ? 'knemReadEfficiency' : 'knemWriteEfficiency');
    return mode === 'thread' ? base * knemParam(spec, 'knemThreadEfficiency') : base;
  }

  /** The copy by this rank's core (or the kernel thread sharing it), after mapping `kmapPages`
   *  region pages into the kernel. */
  function* coreCopy(pieces: Piece[], label: string, eff: number, kmapPages: number): Program<void> {
    if (kmapPages > 0) yield* step(world, me, 'syscall', `${label}: kmap ${kmapPages} pages`, kmapPages * knemParam(spec, 'knemKmapPerPageNs'));
    for (const { src, dst } of pieces) yield* node.copy(core, src, dst, { rank: me, label, kind: 'kernel-copy', efficiency: eff });
  }

  /** What reading the status word costs: the kernel thread left it in this core's nearest cache,
   *  the DMA engine wrote it to memory. */
  function statusReadNs(mode: OffloadMode): number {
    if (mode === 'thread') return node.topo.cachesOf(core)[0]?.latencyNs ?? node.topo.numa(node.topo.core(core).numa).latencyNs;
    return node.topo.numa(node.topo.core(core).numa).latencyNs;
  }

  /** Runs the copy now (sync) or hands it to a kernel thread or the DMA engine. */
  function* submit(pieces: Piece[], label: string, mode: OffloadMode, eff: number, kmapPages = 0): Program<KnemCopyHandle> {
    if (mode === 'sync') {
      yield* coreCopy(pieces, label, eff, kmapPages);
      return completedCopy;
    }
    const handle = new AsyncCopy(world, me, `${label} (${mode})`, statusReadNs(mode));
    handle.start(mode === 'thread' ? coreCopy(pieces, `${label} (thread)`, eff, kmapPages) : ioatCopy(world, core, pieces, { rank: me, label: `${label} (ioat)` }));
    return handle;
  }

  return {
    *createRegion(segments, opts): Program<KnemCookie> {
      requireKnem('create region');
      const list = ownSegments('create region', segments);
      yield* syscall(world, me, 'knem create region');
      yield* step(world, me, 'syscall', 'knem create region: declare', knemParam(spec, 'knemCreateNs'));
      yield* pin(pagesOfAll(list, spec.kernel.pageBytes));
      const region = driver.declare(me, list, { read: opts.read ?? false, write: opts.write ?? false, singleUse: opts.singleUse ?? false });
      return region.cookie;
    },

    *destroyRegion(cookie): Program<void> {
      requireKnem('destroy region');
      yield* syscall(world, me, 'knem destroy region');
      driver.destroy(me, cookie);
      yield* step(world, me, 'syscall', `knem destroy region ${describeCookie(cookie)}`, knemParam(spec, 'knemDestroyNs'));
    },

    *inlineCopy({ cookie, offset, local, direction, mode = 'sync' }): Program<KnemCopyHandle> {
      requireKnem('inline copy');
      requireMode('inline copy', mode);
      if (direction !== 'read' && direction !== 'write') {
        throw new MechanismError('knem', 'EINVAL', `inline copy: direction must be "read" or "write", got "${String(direction)}"`);
      }
      const mine = ownSegments('inline copy', local);
      const bytes = totalBytes(mine);
      yield* syscall(world, me, 'knem inline copy');
      yield* step(world, me, 'syscall', 'knem inline copy: cookie lookup', knemParam(spec, 'knemLookupNs'));
      const region = driver.access(cookie, direction, offset, bytes, 'inline copy');
      // The region's pages were pinned at declaration; the caller's own are pinned on every copy.
      yield* pin(pagesOfAll(mine, spec.kernel.pageBytes));
      const remote = sliceSegments(region.segments, offset, bytes);
      const pieces = direction === 'read' ? pairSegments(remote, mine) : pairSegments(mine, remote);
      const label = `knem ${direction} ${describeCookie(cookie)}`;
      return yield* submit(pieces, label, mode, efficiency(direction, mode));
    },

    *regionCopy({ src, srcOffset, dst, dstOffset, bytes, mode = 'sync' }): Program<KnemCopyHandle> {
      requireKnem('region copy');
      requireMode('region copy', mode);
      if (!Number.isInteger(bytes) || bytes < 0) throw new MechanismError('knem', 'EINVAL', `region copy: length must be a non-negative integer, got ${bytes}`);
      yield* syscall(world, me, 'knem region copy');
      yield* step(world, me, 'syscall', 'knem region copy: cookie lookups', 2 * knemParam(spec, 'knemLookupNs'));
      const from = driver.check(src, 'read', srcOffset, bytes, 'region copy source');
      const to = driver.check(dst, 'write', dstOffset, bytes, 'region copy destination');
      driver.consume(from);
      if (to !== from) driver.consume(to);
      const srcSegs = sliceSegments(from.segments, srcOffset, bytes);
      const dstSegs = sliceSegments(to.segments, dstOffset, bytes);
      const pieces = pairSegments(srcSegs, dstSegs);
      const label = `knem region copy ${describeCookie(src)} -> ${describeCookie(dst)}`;
      // Both regions are pinned already: nothing to pin. A core copy maps each region page into the
      // kernel (kmap); the DMA engine works on physical addresses and needs no mapping. The loop is
      // the one the reading direction uses (the kernel's copy between two kernel mappings).
      const kmapPages = mode === 'ioat' ? 0 : pagesOfAll(srcSegs, spec.kernel.pageBytes) + pagesOfAll(dstSegs, spec.kernel.pageBytes);
      return yield* submit(pieces, label, mode, efficiency('read', mode), kmapPages);
    },
  };
}
