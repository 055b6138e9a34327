// XPMEM (Cross-Partition Memory): the owner exposes a buffer (xpmem_make); a peer gets a permit
// for it (xpmem_get) and maps part of it into its own address space (xpmem_attach); from then on
// the peer reads and writes it with plain loads and stores, no system call (seed 001). The view
// `attach` returns is therefore a range of the owner's own buffer, which `rank.copy` and
// `rank.reduce` move through the caches and memory like any user-space copy.
//
// Without the registration cache every attach pays xpmem_get (serialised per owner: concurrent
// getters queue on the owner's segment lock, the contention seed 001 measures growing with
// processes per node) and xpmem_attach (a fixed part and a fault per page), and every detach pays
// xpmem_detach. With it, attachments are cached per peer and reused (registration-cache.ts).
import { Mutex } from '../../engine/mutex.ts';
import type { Program } from '../../engine/program.ts';
import { InputError } from '../../../common/input-error.ts';
import { describeRange, withinBuffer, type Buffer, type Range } from '../../node/buffer.ts';
import { MechanismError } from '../../node/errors.ts';
import type { Xpmem, XpmemSegid } from '../../node/rank-api.ts';
import type { World } from '../../node/world.ts';
import { lazily, RunState } from '../../node/run-state.ts';
import { addressSpace, pagesSpanned } from '../address-space.ts';
import { kernelCosts } from '../kernel-costs.ts';
import { kernelCall, pinUnderLock, queued, step, syscall } from '../kernel-steps.ts';
import { RegistrationCache, type RegistrationCacheStats } from './registration-cache.ts';

export interface XpmemOptions {
  registrationCache: boolean;
  /** Entries before FIFO eviction; default `kernel.params.regcacheCapacity` (4096, seed 001). */
  cacheCapacity?: number;
}

/** The Xpmem a rank sees, plus its registration-cache counters (undefined with the cache off). */
export interface XpmemWithStats extends Xpmem {
  registrationCacheStats(): RegistrationCacheStats | undefined;
}

interface Segment {
  segid: XpmemSegid;
  owner: number;
  buf: Buffer;
}

interface SegmentTable {
  next: XpmemSegid;
  byId: Map<XpmemSegid, Segment>;
}

/** Every segment made in the run, by id. */
const SEGMENTS = new RunState<SegmentTable>('xpmem segments', () => ({ next: 1, byId: new Map() }));

export function createXpmem(world: World, me: number, opts: XpmemOptions): XpmemWithStats {
  const spec = world.node.spec;
  const costs = kernelCosts(spec);
  const capacity = opts.cacheCapacity ?? costs.regcacheCapacity;
  if (opts.registrationCache && !(Number.isInteger(capacity) && capacity >= 1)) {
    throw new InputError(`the XPMEM registration cache needs a whole number of entries >= 1, got ${capacity}`, {
      field: 'params.regcacheCapacity',
    });
  }
  const cache = opts.registrationCache ? registrationCache(world, me, capacity) : undefined;
  const segments = world.stateOf(SEGMENTS);
  /** Attachments made without the cache and not yet detached, by view. */
  const attached = new Map<string, number>();
  const pageBytes = spec.kernel.pageBytes;

  const present = (call: string): void => {
    if (!spec.kernel.mechanisms.xpmem)
      throw new MechanismError('xpmem', 'ENODEV', `${call}: this node has no XPMEM module (/dev/xpmem)`);
  };

  function detachOne(owner: number): Program<void> {
    return kernelCall(
      world,
      me,
      (function* () {
        yield* syscall(world, me, 'xpmem_detach', 'xpmem-detach');
        yield* step(world, me, 'xpmem-detach', `xpmem_detach from rank ${owner}`, costs.xpmemDetachNs);
      })(),
    );
  }

  return {
    *make(buffer: Buffer): Program<XpmemSegid> {
      present('xpmem_make');
      if (buffer.owner !== me) {
        throw new MechanismError(
          'xpmem',
          'EINVAL',
          `xpmem_make: buffer ${buffer.name} belongs to rank ${buffer.owner}, not to the caller (rank ${me})`,
        );
      }
      yield* kernelCall(
        world,
        me,
        (function* () {
          yield* syscall(world, me, 'xpmem_make', 'xpmem-make');
          yield* step(world, me, 'xpmem-make', `xpmem_make ${buffer.name}`, costs.xpmemMakeNs);
        })(),
      );
      const segid = segments.next++;
      segments.byId.set(segid, { segid, owner: me, buf: buffer });
      return segid;
    },

    *attach(owner: number, segid: XpmemSegid, offset: number, bytes: number): Program<Range> {
      present('xpmem_attach');
      const seg = segments.byId.get(segid);
      if (!seg || seg.owner !== owner) {
        throw new MechanismError('xpmem', 'ENOENT', `xpmem_get: rank ${owner} exposes no segment ${segid}`);
      }
      const view: Range = { buf: seg.buf, offset, bytes };
      if (!withinBuffer(view)) {
        throw new MechanismError(
          'xpmem',
          'EINVAL',
          `xpmem_attach: [${offset}, ${offset + bytes}) lies outside segment ${segid} (${seg.buf.name}, ${seg.buf.size} bytes)`,
        );
      }
      if (bytes === 0) return view;
      const address = addressSpace(world, owner).addressOf(seg.buf) + offset;
      const start = Math.floor(address / pageBytes) * pageBytes;
      const end = Math.ceil((address + bytes) / pageBytes) * pageBytes;

      if (!cache) {
        yield* kernelCall(
          world,
          me,
          getAndAttach(world, me, owner, segid, start, pagesSpanned(start, end - start, pageBytes)),
        );
        const key = viewKey(view);
        attached.set(key, (attached.get(key) ?? 0) + 1);
        return view;
      }

      // The lookup and whatever it sets off, on the rank's thread as one piece of its work: no other
      // request of this rank runs between the lookup and the attach it decides on.
      yield* world.node.onRankThread(me, attachThroughCache(world, me, cache, { owner, segid, start, end }, detachOne));
      return view;
    },

    *detach(view: Range): Program<void> {
      present('xpmem_detach');
      // Lazy deregistration: with the cache on, the attachment stays until evicted.
      if (cache || view.bytes === 0) return;
      const key = viewKey(view);
      const count = attached.get(key);
      if (count === undefined)
        throw new MechanismError(
          'xpmem',
          'EINVAL',
          `xpmem_detach: rank ${me} has no attachment ${describeRange(view)}`,
        );
      if (count === 1) attached.delete(key);
      else attached.set(key, count - 1);
      yield* detachOne(view.buf.owner);
    },

    registrationCacheStats: () => cache?.stats(),
  };
}

/**
 * An attach with the registration cache on: a hit costs the lookup alone; a miss that overlaps
 * cached attachments replaces them with one covering them all, so the tree keeps disjoint ranges
 * and the wider range serves later requests. The caller runs it on the rank's thread, so no other
 * request of this rank sees the cache between the lookup and the attach.
 */
function* attachThroughCache(
  world: World,
  me: number,
  cache: RegistrationCache,
  want: { owner: number; segid: XpmemSegid; start: number; end: number },
  detachOne: (peer: number) => Program<void>,
): Program<void> {
  const costs = kernelCosts(world.node.spec);
  const { owner, segid } = want;
  let { start, end } = want;
  const levels = cache.lookupLevels(owner);
  if (levels > 0)
    yield* step(
      world,
      me,
      'regcache-lookup',
      `registration cache lookup, rank ${owner}`,
      levels * costs.regcacheLookupNs,
    );
  if (cache.lookup(owner, start, end)) return;
  const dropped: number[] = [];
  for (const old of cache.overlapping(owner, start, end)) {
    start = Math.min(start, old.start);
    end = Math.max(end, old.end);
    cache.remove(old, false);
    dropped.push(owner);
  }
  for (let victim = cache.victim(); victim; victim = cache.victim()) {
    cache.remove(victim, true);
    dropped.push(victim.peer);
  }
  cache.insert({ peer: owner, segid, start, end });
  for (const peer of dropped) yield* detachOne(peer);
  const pages = pagesSpanned(start, end - start, world.node.spec.kernel.pageBytes);
  yield* kernelCall(world, me, getAndAttach(world, me, owner, segid, start, pages));
}

/**
 * xpmem_get under the owner's segment lock, then xpmem_attach faulting in `pages` pages from
 * `address`. The fault handler resolves each page by get_user_pages on the owner's mm under its
 * mmap lock (xpmem_fault.c), so the faults take the owner's page-table locks as CMA's pinning does.
 * The two calls run back to back on the rank's thread (the callers run them as one `kernelCall`).
 */
function* getAndAttach(
  world: World,
  me: number,
  owner: number,
  segid: XpmemSegid,
  address: number,
  pages: number,
): Program<void> {
  const costs = kernelCosts(world.node.spec);
  // Each call's whole time is its kind, as a timer around the call counts it (seed 001's breakdown of
  // registration into xpmem_get, attach and detach): the ioctl's entry and, for xpmem_get, the queue
  // on the owner's segment lock, whose label still names the lock.
  yield* syscall(world, me, 'xpmem_get', 'xpmem-get');
  const lock = segmentLock(world, owner);
  yield* queued(world, me, lock.name, lock.lock(), 'xpmem-get');
  yield* step(world, me, 'xpmem-get', `xpmem_get segment ${segid} of rank ${owner}`, costs.xpmemGetNs, lock.name);
  lock.unlock();
  yield* syscall(world, me, 'xpmem_attach', 'xpmem-attach');
  yield* step(world, me, 'xpmem-attach', `xpmem_attach ${pages} pages of rank ${owner}`, costs.xpmemAttachNs);
  if (pages > 0)
    yield* pinUnderLock(
      world,
      me,
      addressSpace(world, owner),
      address,
      pages,
      costs.xpmemFaultPerPageNs,
      'xpmem-fault',
    );
}

/** The registration cache of rank `me` for this run, if that rank has one. */
export function xpmemCacheStats(world: World, me: number): RegistrationCacheStats | undefined {
  return world.hasState(XPMEM) ? world.stateOf(XPMEM).caches.get(me)?.stats() : undefined;
}

/** Each rank's registration cache and each owner's segment lock, for the run. */
const XPMEM = new RunState('xpmem', () => ({
  caches: new Map<number, RegistrationCache>(),
  segmentLocks: new Map<number, Mutex>(),
}));

function registrationCache(world: World, me: number, capacity: number): RegistrationCache {
  const cache = lazily(world.stateOf(XPMEM).caches, me, () => new RegistrationCache(capacity));
  if (cache.capacity !== capacity)
    throw new Error(
      `rank ${me}: XPMEM registration cache already made with ${cache.capacity} entries, now asked for ${capacity}`,
    );
  return cache;
}

/** The owner's segment lock that xpmem_get takes (the thread group's segment list). */
function segmentLock(world: World, owner: number): Mutex {
  return lazily(
    world.stateOf(XPMEM).segmentLocks,
    owner,
    () => new Mutex(world.sim, `xpmem segment lock of rank ${owner}`),
  );
}

function viewKey(view: Range): string {
  return `${view.buf.id}:${view.offset}:${view.bytes}`;
}
