// KNEM (Goglin & Moreaud, JPDC 2013, §3-4) bound to one rank: declared regions named by cookies,
// inline copies between a region and the caller's own segments, region-to-region copies, copy
// direction, single-use regions, and synchronous, kernel-thread or I/OAT-offloaded copies.
//
// Every cost is a step the driver really takes: entering the kernel, region bookkeeping, cookie
// lookup, pinning pages (region pages once at declaration, the caller's local pages on each inline
// copy that goes between pinned pages: a write, or one a kernel thread or the DMA engine makes),
// kmap of region pages for region copies, and the copy itself as a flow over the node. Reusing
// a region is cheaper than re-declaring it only because those steps are not repeated.
import type { Program } from '../../engine/program.ts';
import { MechanismError } from '../../node/errors.ts';
import type { Knem, KnemCookie, KnemCopyHandle, OffloadMode } from '../../node/rank-api.ts';
import type { World } from '../../node/world.ts';
import { kernelCall, step, syscall } from '../kernel-steps.ts';
import { efficiency, knemCaller, ownSegments, pin, requireKnem, requireMode, submit } from './calls.ts';
import { describeCookie } from './cookie.ts';
import { knemParam } from './costs.ts';
import { pagesOfAll, pairSegments, sliceSegments, totalBytes } from './segments.ts';
import { reachThroughMapping } from '../user-access.ts';

export { knemDefaults, knemParam, type KnemParam } from './costs.ts';
export { makeCookie, cookieContext, cookieRegion } from './cookie.ts';
export { KnemDriver, knemDriver, type Region } from './driver.ts';

/**
 * Whether an inline copy goes between two lists of pinned pages, or through the caller's own user
 * mapping. Source: KNEM 1.1.1, driver/linux/knem_main.c, knem_inline_copy: a synchronous read
 * copies into the caller's mapping (`copy_to_user`, KNEM_WORK_MEMCPY_TO_USER); a write pins the
 * caller's pages first (`pinlocalread`, default 1: "memcpy_from_user seems slow"; KNEM 0.9.3's
 * ChangeLog adds the unpinned write path disabled by default) and copies between pinned pages, as
 * do copies handed to a kernel thread or the DMA engine, which cannot reach the caller's mapping.
 */
export function throughPinnedPages(direction: 'read' | 'write', mode: OffloadMode): boolean {
  return direction === 'write' || mode !== 'sync';
}

export function createKnem(world: World, me: number): Knem {
  const c = knemCaller(world, me);
  const { spec, driver } = c;

  const calls: Knem = {
    *createRegion(segments, opts): Program<KnemCookie> {
      requireKnem(c, 'create region');
      const list = ownSegments(c, 'create region', segments);
      yield* syscall(world, me, 'knem create region');
      yield* step(world, me, 'syscall', 'knem create region: declare', knemParam(spec, 'knemCreateNs'));
      yield* pin(c, list);
      const region = driver.declare(me, list, {
        read: opts.read ?? false,
        write: opts.write ?? false,
        singleUse: opts.singleUse ?? false,
      });
      return region.cookie;
    },

    *destroyRegion(cookie): Program<void> {
      requireKnem(c, 'destroy region');
      yield* syscall(world, me, 'knem destroy region');
      driver.destroy(me, cookie);
      yield* step(
        world,
        me,
        'syscall',
        `knem destroy region ${describeCookie(cookie)}`,
        knemParam(spec, 'knemDestroyNs'),
      );
    },

    *inlineCopy({ cookie, offset, local, direction, mode = 'sync' }): Program<KnemCopyHandle> {
      requireKnem(c, 'inline copy');
      requireMode(c, 'inline copy', mode);
      if (direction !== 'read' && direction !== 'write') {
        throw new MechanismError(
          'knem',
          'EINVAL',
          `inline copy: direction must be "read" or "write", got "${String(direction)}"`,
        );
      }
      const mine = ownSegments(c, 'inline copy', local);
      const bytes = totalBytes(mine);
      yield* syscall(world, me, 'knem inline copy');
      yield* step(world, me, 'syscall', 'knem inline copy: cookie lookup', knemParam(spec, 'knemLookupNs'));
      const region = driver.access(cookie, direction, offset, bytes, 'inline copy');
      // The region's pages were pinned at declaration. The caller's own are pinned on every copy
      // that goes between pinned pages; a synchronous read goes through the caller's mapping and
      // pins nothing, so declaring a region adds its pinning to an inline copy, as seed 004 §5.3
      // reasons from the declaration cost it measured (30-180 ns a page). What that paper supposes
      // the mapping costs instead ("overheads that are hidden inside direct accesses to
      // user-space application memory"), offered for its Fig. 11 finding the strategies alike, is
      // not modelled (claims 004-f11-*).
      if (throughPinnedPages(direction, mode)) yield* pin(c, mine);
      else yield* reachThroughMapping(world, me, mine, 'knem inline copy');
      const remote = sliceSegments(region.segments, offset, bytes);
      const pieces = direction === 'read' ? pairSegments(remote, mine) : pairSegments(mine, remote);
      const label = `knem ${direction} ${describeCookie(cookie)}`;
      // Pages written through a kernel mapping (the region's, or the caller's pinned ones) are
      // marked dirty; a synchronous read writes through the caller's own mapping.
      return yield* submit(c, pieces, label, mode, efficiency(c, direction, mode), {
        kmapPages: 0,
        pinnedDestination: throughPinnedPages(direction, mode),
      });
    },

    *regionCopy({ src, srcOffset, dst, dstOffset, bytes, mode = 'sync' }): Program<KnemCopyHandle> {
      requireKnem(c, 'region copy');
      requireMode(c, 'region copy', mode);
      if (!Number.isInteger(bytes) || bytes < 0)
        throw new MechanismError('knem', 'EINVAL', `region copy: length must be a non-negative integer, got ${bytes}`);
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
      const kmapPages =
        mode === 'ioat' ? 0 : pagesOfAll(srcSegs, spec.kernel.pageBytes) + pagesOfAll(dstSegs, spec.kernel.pageBytes);
      return yield* submit(c, pieces, label, mode, efficiency(c, 'read', mode), { kmapPages, pinnedDestination: true });
    },
  };
  // Each call holds the rank's thread from entry to return (an offloaded copy runs after it).
  return {
    createRegion: (segments, opts) => kernelCall(world, me, calls.createRegion(segments, opts)),
    destroyRegion: (cookie) => kernelCall(world, me, calls.destroyRegion(cookie)),
    inlineCopy: (args) => kernelCall(world, me, calls.inlineCopy(args)),
    regionCopy: (args) => kernelCall(world, me, calls.regionCopy(args)),
  };
}
