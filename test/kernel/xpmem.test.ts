import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IntervalAvl } from '../../sim/kernel/xpmem/avl.ts';
import { createXpmem, xpmemCacheStats } from '../../sim/kernel/xpmem/index.ts';
import { range, type Range } from '../../sim/node/buffer.ts';
import { InputError } from '../../common/input-error.ts';
import { alloc, deliveredInOrder, mechanismError, runAll, setup, structPageMiss, total } from './kernel-world.ts';

const KiB = 1024;

// Test machine: syscall 100 ns, 4 KiB pages, pin (and so XPMEM fault) 100 ns a page; XPMEM
// defaults make/get/attach/detach 300 ns each, 5 ns per registration-cache tree level.
// A cold copy on the tiny machine: the first miss (80 ns), then memory's 10 B/ns carries the source
// and the destination's read for ownership, 5 B/ns of copy (below the core's 8 B/ns).
const coldCopy = (n: number) => 80 + n / 5;

/** Rank 0 exposes a filled buffer; returns a setup with the segment id. */
function exposed(bytes: number, kernel = {}) {
  const s = setup(kernel);
  const buf = alloc(s, 0, 'src', bytes, true);
  let segid = 0;
  runAll(s, [
    function* () {
      segid = yield* createXpmem(s.world, 0, { registrationCache: false }).make(buf);
    },
  ]);
  return { s, buf, segid, madeAt: s.sim.now };
}

describe('XPMEM on an idle machine', () => {
  it('make costs an ioctl plus the segment bookkeeping, both counted as the call', () => {
    const { madeAt, s } = exposed(4096);
    expect(madeAt).toBe(100 + 300);
    expect(total(s, 'xpmem-make')).toBe(100 + 300);
    expect(total(s, 'syscall')).toBe(0);
  });

  it('without the cache: get + attach every time, then a plain user-space copy, then detach', () => {
    const { s, buf, segid, madeAt } = exposed(64 * KiB);
    const x = createXpmem(s.world, 1, { registrationCache: false });
    const dst = alloc(s, 1, 'dst', 64 * KiB);
    const marks: number[] = [];
    runAll(s, [
      function* () {
        for (let round = 0; round < 2; round++) {
          const start = s.sim.now;
          const view = yield* x.attach(0, segid, 0, 64 * KiB);
          marks.push(s.sim.now - start);
          expect(view.buf).toBe(buf);
          if (round === 0) {
            const t = s.sim.now;
            yield* s.node.copy(1, view, range(dst), { rank: 1, label: 'memcpy' });
            marks.push(s.sim.now - t);
          }
          const t = s.sim.now;
          yield* x.detach(view);
          marks.push(s.sim.now - t);
        }
      },
    ]);
    // get: syscall + 300 under the owner's lock; attach: syscall + 300 + 16 pages x 100. The first
    // attach's faults pin rank 0's pages cold: a struct page miss each (rank 0's memory, 80 ns from
    // rank 1's package). The second attach's faults, by the same core, find them cached.
    const attach = 100 + 300 + 100 + 300 + 16 * 100;
    const coldAttach = attach + 16 * structPageMiss(s, 1, 0);
    expect(marks).toEqual([coldAttach, coldCopy(64 * KiB), 100 + 300, attach, 100 + 300]);
    expect(s.sim.now).toBeGreaterThan(madeAt);
    expect(x.registrationCacheStats()).toBeUndefined();
    expect(deliveredInOrder([range(buf)], [range(dst)])).toBe(true);
    // The copy is user-space: no syscall, no kernel copy.
    expect(total(s, 'kernel-copy')).toBe(0);
    expect(total(s, 'copy')).toBeCloseTo(coldCopy(64 * KiB), 6);
  });

  it('with the cache: the first attach misses and pays get + attach, the second hits for one lookup', () => {
    const { s, segid } = exposed(64 * KiB);
    const x = createXpmem(s.world, 1, { registrationCache: true });
    const marks: number[] = [];
    runAll(s, [
      function* () {
        for (let round = 0; round < 3; round++) {
          const start = s.sim.now;
          const view = yield* x.attach(0, segid, round === 2 ? 4096 : 0, round === 2 ? 8192 : 64 * KiB);
          marks.push(s.sim.now - start);
          const t = s.sim.now;
          yield* x.detach(view);
          marks.push(s.sim.now - t);
        }
      },
    ]);
    // get + attach, whose faults pin 16 of rank 0's pages cold (a struct page miss each).
    const attach = 100 + 300 + 100 + 300 + 16 * (100 + structPageMiss(s, 1, 0));
    // Empty tree: no lookup cost. One entry: ceil(log2 2) = 1 level = 5 ns. Detach is lazy: free.
    expect(marks).toEqual([attach, 0, 5, 0, 5, 0]);
    expect(x.registrationCacheStats()).toEqual({ hits: 2, misses: 1, evictions: 0, entries: 1 });
    expect(xpmemCacheStats(s.world, 1)).toEqual({ hits: 2, misses: 1, evictions: 0, entries: 1 });
  });

  it("lookup cost grows with the logarithm of the peer's entries", () => {
    const { s, segid } = exposed(64 * 4096);
    const x = createXpmem(s.world, 1, { registrationCache: true });
    runAll(s, [
      function* () {
        for (let page = 0; page < 7; page++) yield* x.attach(0, segid, page * 4096, 4096);
      },
    ]);
    // Lookups before inserting entry n walk ceil(log2(n + 1)) levels: 0, 1, 2, 2, 3, 3, 3.
    expect(total(s, 'regcache-lookup')).toBe(5 * (0 + 1 + 2 + 2 + 3 + 3 + 3));
  });
});

describe('xpmem_get contention', () => {
  function getWait(k: number, distinctOwners: boolean): number {
    const s = setup();
    const segs: number[] = [];
    const owners = Array.from({ length: k }, (_, i) => (distinctOwners ? i : 0));
    runAll(
      s,
      [...new Set(owners)].map(
        (o) =>
          function* () {
            segs[o] = yield* createXpmem(s.world, o, { registrationCache: false }).make(alloc(s, o, 'src', 4096, true));
          },
      ),
    );
    s.node.trace.reset();
    runAll(
      s,
      owners.map(
        (o, i) => () =>
          (function* () {
            yield* createXpmem(s.world, i + 4, { registrationCache: false }).attach(o, segs[o], 0, 4096);
          })(),
      ),
    );
    // The segment lock's queue alone (part of xpmem_get's time, its label naming the wait): the
    // attach's faults then queue on the owner's page tables.
    return s.node.trace.events
      .filter(
        (e) => e.kind === 'xpmem-get' && e.label.startsWith('wait ') && e.resource === `xpmem segment lock of rank 0`,
      )
      .reduce((sum, e) => sum + e.end - e.start, 0);
  }

  it('concurrent getters of one owner queue on its segment lock; getters of distinct owners do not', () => {
    expect([1, 2, 3, 4].map((k) => getWait(k, false))).toEqual([0, 300, 900, 1800]);
    expect([1, 2, 3, 4].map((k) => getWait(k, true))).toEqual([0, 0, 0, 0]);
  });
});

describe('registration cache eviction', () => {
  function attachPages(capacity: number, pages: number[]) {
    const { s, segid } = exposed(8 * 4096);
    const x = createXpmem(s.world, 1, { registrationCache: true, cacheCapacity: capacity });
    const misses: boolean[] = [];
    runAll(s, [
      function* () {
        for (const p of pages) {
          const before = x.registrationCacheStats()!.misses;
          yield* x.attach(0, segid, p * 4096, 4096);
          misses.push(x.registrationCacheStats()!.misses > before);
        }
      },
    ]);
    return { misses, stats: x.registrationCacheStats()!, s };
  }

  it('evicts in FIFO order, not LRU: a hit does not refresh an entry', () => {
    // Capacity 2: A B, hit A, then C evicts A (oldest inserted; LRU would evict B).
    const { misses, stats, s } = attachPages(2, [0, 1, 0, 2, 1, 0]);
    expect(misses).toEqual([true, true, false, true, false, true]);
    expect(stats).toEqual({ hits: 2, misses: 4, evictions: 2, entries: 2 });
    // Each eviction detaches the victim: an ioctl and the detach's work.
    expect(total(s, 'xpmem-detach')).toBe(2 * (100 + 300));
  });

  it('holds 4096 entries by default (seed 001: "4K as optimal cache size")', () => {
    const { s, segid } = exposed(4097 * 4096);
    const x = createXpmem(s.world, 1, { registrationCache: true });
    runAll(s, [
      function* () {
        for (let p = 0; p < 4097; p++) yield* x.attach(0, segid, p * 4096, 4096);
      },
    ]);
    expect(x.registrationCacheStats()).toEqual({ hits: 0, misses: 4097, evictions: 1, entries: 4096 });
  });

  it('a miss overlapping cached ranges replaces them with one covering range', () => {
    const { s, segid } = exposed(8 * 4096);
    const x = createXpmem(s.world, 1, { registrationCache: true });
    runAll(s, [
      function* () {
        yield* x.attach(0, segid, 0, 4096);
        yield* x.attach(0, segid, 2 * 4096, 4096);
        yield* x.attach(0, segid, 100, 3 * 4096); // pages 0..3: overlaps both
        yield* x.attach(0, segid, 4096, 4096); // inside the merged range
      },
    ]);
    expect(x.registrationCacheStats()).toEqual({ hits: 1, misses: 3, evictions: 0, entries: 1 });
  });

  it('a capacity that is not a positive whole number is an InputError', () => {
    const s = setup();
    expect(() => createXpmem(s.world, 1, { registrationCache: true, cacheCapacity: 0 })).toThrow(InputError);
  });
});

describe('XPMEM errors', () => {
  it('ENODEV without the module', () => {
    const off = { mechanisms: { cma: true, knem: false, xpmem: false, limic: false, ioat: false } };
    expect(
      mechanismError((s) => createXpmem(s.world, 0, { registrationCache: false }).make(alloc(s, 0, 'b', 4096)), off)
        .errno,
    ).toBe('ENODEV');
  });

  it('ENOENT for an unknown segment, EINVAL for a range outside it or a detach of nothing', () => {
    expect(
      mechanismError((s) => createXpmem(s.world, 1, { registrationCache: false }).attach(0, 42, 0, 4096)).errno,
    ).toBe('ENOENT');
    expect(
      mechanismError(function* (s) {
        const segid = yield* createXpmem(s.world, 0, { registrationCache: false }).make(alloc(s, 0, 'b', 4096));
        yield* createXpmem(s.world, 1, { registrationCache: false }).attach(0, segid, 4000, 200);
      }).errno,
    ).toBe('EINVAL');
    expect(
      mechanismError((s) => createXpmem(s.world, 1, { registrationCache: false }).detach(range(alloc(s, 0, 'b', 4096))))
        .errno,
    ).toBe('EINVAL');
  });
});

describe('XPMEM delivers the right bytes', () => {
  it('for random attach windows and copies, with and without the cache', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 1, max: 30_000 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        (cached, size, windows, capacity) => {
          const s = setup();
          const src = alloc(s, 0, 'src', size, true);
          const ok: boolean[] = [];
          runAll(s, [
            function* () {
              const segid = yield* createXpmem(s.world, 0, { registrationCache: false }).make(src);
              const x = createXpmem(s.world, 1, { registrationCache: cached, cacheCapacity: capacity });
              for (const [a, b] of windows) {
                const offset = a % size;
                const bytes = 1 + (b % (size - offset));
                const view: Range = yield* x.attach(0, segid, offset, bytes);
                const dst = alloc(s, 1, `dst${ok.length}`, bytes + 7);
                yield* s.node.copy(1, view, range(dst, 7, bytes), { rank: 1, label: 'memcpy' });
                ok.push(
                  view.buf === src &&
                    view.offset === offset &&
                    deliveredInOrder([range(src, offset, bytes)], [range(dst, 7, bytes)]),
                );
                yield* x.detach(view);
              }
            },
          ]);
          return ok.length === windows.length && ok.every(Boolean);
        },
      ),
      { numRuns: 100 },
    );
  });
});

/** Sorted-array model of a set of disjoint intervals. */
class IntervalModel {
  items: Array<{ start: number; end: number }> = [];
  overlaps(start: number, end: number) {
    return this.items.filter((i) => i.start < end && i.end > start);
  }
  insert(start: number, end: number) {
    this.items.push({ start, end });
    this.items.sort((a, b) => a.start - b.start);
  }
  delete(start: number): boolean {
    const i = this.items.findIndex((x) => x.start === start);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }
  containing(start: number, end: number) {
    return this.items.find((i) => i.start <= start && i.end >= end);
  }
}

type Op =
  | { op: 'insert'; start: number; len: number }
  | { op: 'delete'; start: number }
  | { op: 'find'; start: number; len: number };

describe('IntervalAvl against a sorted-array model', () => {
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constant('insert' as const),
        start: fc.integer({ min: 0, max: 2000 }),
        len: fc.integer({ min: 1, max: 40 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constant('delete' as const), start: fc.integer({ min: 0, max: 2000 }) }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant('find' as const),
        start: fc.integer({ min: 0, max: 2000 }),
        len: fc.integer({ min: 1, max: 20 }),
      }),
    },
  );

  it('inserts, deletes and finds the interval containing a range like the model, staying balanced', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400, size: 'max' }), (ops) => {
        const tree = new IntervalAvl<number>();
        const model = new IntervalModel();
        for (const o of ops) {
          if (o.op === 'insert') {
            const end = o.start + o.len;
            if (model.overlaps(o.start, end).length > 0) {
              expect(() => tree.insert(o.start, end, o.start)).toThrow(RangeError);
            } else {
              tree.insert(o.start, end, o.start);
              model.insert(o.start, end);
            }
          } else if (o.op === 'delete') {
            // Delete what exists half of the time, so deletions are not all misses.
            const target =
              model.items.length > 0 && o.start % 2 === 0 ? model.items[o.start % model.items.length].start : o.start;
            expect(tree.delete(target) !== undefined).toBe(model.delete(target));
          } else {
            const end = o.start + o.len;
            const want = model.containing(o.start, end);
            const got = tree.containing(o.start, end);
            expect(got && { start: got.start, end: got.end }).toEqual(want);
            expect(tree.overlapping(o.start, end).map((i) => [i.start, i.end])).toEqual(
              model.overlaps(o.start, end).map((i) => [i.start, i.end]),
            );
          }
          tree.checkInvariants();
          expect(tree.size).toBe(model.items.length);
          expect(tree.height).toBeLessThanOrEqual(1.44 * Math.log2(tree.size + 2));
        }
        expect(tree.entries().map((i) => [i.start, i.end])).toEqual(model.items.map((i) => [i.start, i.end]));
      }),
      { numRuns: 200 },
    );
  });

  it('stays balanced under sorted insertion, the worst case for an unbalanced tree', () => {
    const tree = new IntervalAvl<null>();
    for (let i = 0; i < 4096; i++) tree.insert(i * 10, i * 10 + 5, null);
    tree.checkInvariants();
    expect(tree.height).toBeLessThanOrEqual(1.44 * Math.log2(4096 + 2));
    for (let i = 0; i < 4096; i += 2) tree.delete(i * 10);
    tree.checkInvariants();
    expect(tree.size).toBe(2048);
    expect(tree.containing(11, 15)?.start).toBe(10);
    expect(tree.containing(21, 24)).toBeUndefined();
  });
});
