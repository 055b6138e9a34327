import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CacheState, type SavedCache } from '../../sim/node/cache.ts';
import { CacheHolders } from '../../sim/node/cache-holders.ts';
import { sameState, stateFingerprint } from '../../common/state-fingerprint.ts';
import { propRuns } from '../helpers/prop-runs.ts';

// Reference: per-byte LRU. A touch streams through its range in address order, so each byte gets a
// later timestamp than the one before it; eviction drops the oldest bytes until the total fits.
class ByteLru {
  private stamp = 0;
  readonly bytes = new Map<string, number>(); // "buf:byte" -> last use
  constructor(private readonly capacity: number) {}
  touch(buf: number, start: number, length: number): void {
    for (let i = 0; i < length; i++) this.bytes.set(`${buf}:${start + i}`, this.stamp++);
    if (this.bytes.size > this.capacity) {
      const byAge = [...this.bytes.entries()].sort((x, y) => x[1] - y[1]);
      for (const [k] of byAge.slice(0, this.bytes.size - this.capacity)) this.bytes.delete(k);
    }
  }
  invalidate(buf: number): void {
    for (const k of [...this.bytes.keys()]) if (k.startsWith(`${buf}:`)) this.bytes.delete(k);
  }
  /** Resident bytes, oldest first. */
  order(): string[] {
    return [...this.bytes.entries()].sort((x, y) => x[1] - y[1]).map(([k]) => k);
  }
}

function expandRanges(c: CacheState): string[] {
  const out: string[] = [];
  for (const r of c.ranges()) for (let i = 0; i < r.length; i++) out.push(`${r.buf}:${r.start + i}`);
  return out;
}

type Step =
  | { kind: 'touch'; buf: number; start: number; length: number }
  | { kind: 'invalidate'; buf: number }
  | { kind: 'clear' };

const BUF_SIZE = 48;
const arbStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('touch' as const),
      buf: fc.integer({ min: 0, max: 3 }),
      start: fc.integer({ min: 0, max: BUF_SIZE - 1 }),
      length: fc.integer({ min: 0, max: BUF_SIZE }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('invalidate' as const), buf: fc.integer({ min: 0, max: 3 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
);

describe('CacheState', () => {
  it('streams a range bigger than the cache, keeping its tail', () => {
    const c = new CacheState('L2', 100);
    c.touch(7, 0, 50);
    c.touch(1, 0, 1000);
    expect(c.ranges()).toEqual([{ buf: 1, start: 900, length: 100 }]);
    expect(c.residentBytes(1, 0, 1000)).toBe(100);
    expect(c.residentBytes(7, 0, 50)).toBe(0);
  });

  it('evicts the oldest range from its front and re-touching refreshes', () => {
    const c = new CacheState('L1', 100);
    c.touch(0, 0, 40);
    c.touch(1, 0, 40);
    c.touch(0, 0, 40); // buffer 0 becomes newest again
    c.touch(2, 0, 40);
    expect(c.residentBytes(1, 0, 40)).toBe(20);
    expect(c.residentBytes(1, 20, 20)).toBe(20);
    expect(c.residentBytes(0, 0, 40)).toBe(40);
    expect(c.usedBytes).toBe(100);
  });

  it('coalesces adjacent ranges of one buffer touched in sequence', () => {
    const c = new CacheState('LLC', 1 << 20);
    for (let at = 0; at < 64 * 1024; at += 4096) c.touch(3, at, 4096);
    expect(c.ranges()).toEqual([{ buf: 3, start: 0, length: 64 * 1024 }]);
  });

  it('forgets freed buffers and clears', () => {
    const c = new CacheState('L2', 1000);
    c.touch(0, 0, 100);
    c.touch(1, 0, 100);
    c.invalidate(0);
    expect(c.usedBytes).toBe(100);
    expect(c.residentBytes(0, 0, 100)).toBe(0);
    c.clear();
    expect(c.usedBytes).toBe(0);
    expect(c.ranges()).toEqual([]);
  });

  it('rejects a bad capacity or range', () => {
    expect(() => new CacheState('L1', -1)).toThrow(RangeError);
    expect(() => new CacheState('L1', 10).touch(0, -1, 4)).toThrow(RangeError);
  });

  it('matches a per-byte LRU and never exceeds capacity', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.array(arbStep, { maxLength: 40 }), (capacity, steps) => {
        const c = new CacheState('test', capacity);
        let ref = new ByteLru(capacity);
        for (const s of steps) {
          if (s.kind === 'touch') {
            c.touch(s.buf, s.start, s.length);
            ref.touch(s.buf, s.start, s.length);
          } else if (s.kind === 'invalidate') {
            c.invalidate(s.buf);
            ref.invalidate(s.buf);
          } else {
            c.clear();
            ref = new ByteLru(capacity);
          }
          expect(c.usedBytes).toBeLessThanOrEqual(capacity);
          expect(c.usedBytes).toBe(ref.bytes.size);
          // Same bytes resident, in the same age order.
          expect(expandRanges(c)).toEqual(ref.order());
          for (let buf = 0; buf <= 3; buf++) {
            for (let at = 0; at < 2 * BUF_SIZE; at += 7) {
              let want = 0;
              for (let i = at; i < at + 11; i++) if (ref.bytes.has(`${buf}:${i}`)) want++;
              expect(c.residentBytes(buf, at, 11)).toBe(want);
            }
          }
          // Ranges never overlap and none is empty.
          const seen = new Set<string>();
          for (const r of c.ranges()) expect(r.length).toBeGreaterThan(0);
          for (const k of expandRanges(c)) {
            expect(seen.has(k)).toBe(false);
            seen.add(k);
          }
          if (s.kind === 'touch') {
            // The most recent touch stays resident, as much of it as fits.
            const fits = Math.min(s.length, capacity);
            expect(c.residentBytes(s.buf, s.start + s.length - fits, fits)).toBe(fits);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('stays coherent with many resident ranges', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 50 }),
            fc.integer({ min: 0, max: 5000 }),
            fc.integer({ min: 1, max: 300 }),
          ),
          {
            minLength: 200,
            maxLength: 600,
          },
        ),
        (touches) => {
          const c = new CacheState('LLC', 20_000);
          for (const [buf, start, len] of touches) c.touch(buf, start, len);
          const rs = c.ranges();
          expect(rs.reduce((s, r) => s + r.length, 0)).toBe(c.usedBytes);
          expect(c.usedBytes).toBeLessThanOrEqual(20_000);
          const last = touches[touches.length - 1];
          expect(c.residentBytes(last[0], last[1], last[2])).toBe(last[2]);
          for (let buf = 0; buf <= 50; buf++) {
            const own = rs.filter((r) => r.buf === buf).reduce((s, r) => s + r.length, 0);
            expect(c.residentBytes(buf, 0, 6000)).toBe(own);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});

// Reference with dirtiness: per byte its last use, whether it is dirty, and whether it belongs to
// a retired buffer (renamed so no lookup finds it). Eviction counts dirty bytes per buffer.
class DirtyByteLru {
  stamp = 0;
  generation = 0;
  bytes = new Map<string, { stamp: number; dirty: boolean; buf: number }>();
  writebacks = new Map<number, number>();
  constructor(private readonly capacity: number) {}
  private evict(): void {
    if (this.bytes.size <= this.capacity) return;
    const byAge = [...this.bytes.entries()].sort((x, y) => x[1].stamp - y[1].stamp);
    for (const [k, v] of byAge.slice(0, this.bytes.size - this.capacity)) {
      if (v.dirty) this.writebacks.set(v.buf, (this.writebacks.get(v.buf) ?? 0) + 1);
      this.bytes.delete(k);
    }
  }
  touch(buf: number, start: number, length: number, dirty: boolean): void {
    for (let i = 0; i < length; i++) {
      const key = `${buf}:${start + i}`;
      const was = this.bytes.get(key)?.dirty ?? false;
      this.bytes.delete(key);
      this.bytes.set(key, { stamp: this.stamp++, dirty: dirty || was, buf });
    }
    this.evict();
  }
  touchStale(buf: number, start: number, length: number): void {
    const generation = this.generation++;
    for (let i = 0; i < length; i++)
      this.bytes.set(`retired${generation}/${buf}:${start + i}`, { stamp: this.stamp++, dirty: true, buf });
    this.evict();
  }
  retire(buf: number): void {
    const generation = this.generation++;
    for (const [k, v] of [...this.bytes.entries()]) {
      if (!k.startsWith(`${buf}:`)) continue;
      this.bytes.delete(k);
      if (v.dirty) this.bytes.set(`retired${generation}/${k}`, v);
    }
  }
  invalidateRange(buf: number, start: number, length: number): void {
    for (let i = 0; i < length; i++) this.bytes.delete(`${buf}:${start + i}`);
  }
  count(buf: number, start: number, length: number, onlyDirty: boolean): number {
    let n = 0;
    for (let i = start; i < start + length; i++) {
      const v = this.bytes.get(`${buf}:${i}`);
      if (v && (!onlyDirty || v.dirty)) n++;
    }
    return n;
  }
  stale(): number {
    return [...this.bytes.keys()].filter((k) => k.startsWith('retired')).length;
  }
  copy(): DirtyByteLru {
    const c = new DirtyByteLru(this.capacity);
    c.stamp = this.stamp;
    c.generation = this.generation;
    c.bytes = new Map(this.bytes);
    c.writebacks = new Map(this.writebacks);
    return c;
  }
}

describe('CacheState, a retired buffer', () => {
  it('is found no more, and its dirty lines cost their write-back when pushed out, not before', () => {
    const c = new CacheState('LLC', 100);
    c.touch(1, 0, 40, true);
    c.touch(2, 0, 30);
    c.retire(1);
    c.retire(2);
    expect(c.residentBytes(1, 0, 40)).toBe(0);
    expect(c.staleBytes).toBe(40);
    expect(c.usedBytes).toBe(40);
    expect(c.takeWritebacks()).toBeUndefined();
    // Buffer 1 again, clean this time: its stale lines are other lines, and stay.
    c.touch(1, 0, 40);
    expect(c.staleBytes).toBe(40);
    c.touch(3, 0, 50);
    expect(c.takeWritebacks()).toEqual(new Map([[1, 30]]));
    expect(c.staleBytes).toBe(10);
    const saved = c.save();
    c.touch(4, 0, 100);
    expect(c.staleBytes).toBe(0);
    c.restore(saved);
    expect(c.staleBytes).toBe(10);
    expect(c.residentBytes(3, 0, 50)).toBe(50);
    expect(c.residentBytes(1, 0, 40)).toBe(40);
  });

  it('does not merge with what continues it: the newer range stays found', () => {
    const c = new CacheState('LLC', 100);
    c.touch(1, 0, 10, true);
    c.retire(1);
    c.touch(1, 10, 5, true);
    expect(c.residentBytes(1, 0, 20)).toBe(5);
    c.touchStale(1, 15, 5);
    expect(c.residentBytes(1, 0, 20)).toBe(5);
    expect(c.staleBytes).toBe(15);
  });

  it('reaches the cache behind as stale', () => {
    const seen: Array<[number, number, number, boolean, boolean]> = [];
    const c = new CacheState('L2', 50);
    c.touch(1, 0, 30, true);
    c.retire(1);
    c.touch(2, 0, 40, false, (...piece) => seen.push(piece));
    expect(seen).toEqual([[1, 0, 20, true, true]]);
  });

  it('matches a per-byte LRU that renames a retired buffer dirty bytes and counts what it evicts dirty', () => {
    const B = 16;
    const span = { start: fc.integer({ min: 0, max: B }), length: fc.integer({ min: 0, max: B }) };
    const buf = fc.integer({ min: 0, max: 2 });
    const op = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('touch' as const), buf, ...span, dirty: fc.boolean() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('stale' as const), buf, ...span }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('retire' as const), buf }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('invalidate' as const), buf, ...span }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('save' as const) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('restore' as const) }) },
    );
    fc.assert(
      fc.property(fc.integer({ min: B, max: 40 }), fc.array(op, { maxLength: 40 }), (capacity, ops) => {
        const holders = new CacheHolders();
        const c = new CacheState('test', capacity, holders);
        let ref = new DirtyByteLru(capacity);
        let taken = new Map<number, number>();
        let saved: { cache: SavedCache; ref: DirtyByteLru; taken: Map<number, number> } | undefined;
        for (const o of ops) {
          if (o.kind === 'touch') {
            c.touch(o.buf, o.start, o.length, o.dirty);
            ref.touch(o.buf, o.start, o.length, o.dirty);
          } else if (o.kind === 'stale') {
            c.touchStale(o.buf, o.start, o.length);
            ref.touchStale(o.buf, o.start, o.length);
          } else if (o.kind === 'retire') {
            c.retire(o.buf);
            ref.retire(o.buf);
          } else if (o.kind === 'invalidate') {
            c.invalidateRange(o.buf, o.start, o.length);
            ref.invalidateRange(o.buf, o.start, o.length);
          } else if (o.kind === 'save') {
            for (const [b, n] of c.takeWritebacks() ?? []) taken.set(b, (taken.get(b) ?? 0) + n);
            saved = { cache: c.save(), ref: ref.copy(), taken: new Map(taken) };
          } else if (saved !== undefined) {
            c.restore(saved.cache);
            ref = saved.ref.copy();
            taken = new Map(saved.taken);
          }
          for (const [b, n] of c.takeWritebacks() ?? []) taken.set(b, (taken.get(b) ?? 0) + n);
          expect(c.usedBytes).toBe(ref.bytes.size);
          expect(c.staleBytes).toBe(ref.stale());
          expect(taken).toEqual(ref.writebacks);
          // Every byte's residency and dirtiness, and each buffer's holder entry, compared at once
          // (one expectation per step: the suite's time was in tens of thousands of small ones).
          const actual: unknown[] = [];
          const expected: unknown[] = [];
          for (let b = 0; b <= 2; b++) {
            actual.push(holders.of(b)?.has(c) ?? false);
            expected.push(ref.count(b, 0, 2 * B, false) > 0);
            for (let at = 0; at < 2 * B; at++) {
              actual.push([b, at, c.residentBytes(b, at, 1), c.dirtyBytes(b, at, 1)]);
              expected.push([b, at, ref.count(b, at, 1, false), ref.count(b, at, 1, true)]);
            }
          }
          expect(actual).toEqual(expected);
        }
      }),
      { numRuns: propRuns(400) },
    );
  });
});

describe("a cache's fingerprint", () => {
  // Buffers 1 and 2 go back to node 0, buffer 3 to node 1.
  const homes = new Map([
    [1, 0],
    [2, 0],
    [3, 1],
  ]);
  const cache = (fill: (c: CacheState) => void): CacheState => {
    const c = new CacheState('L3', 4096, undefined, true, (buf) => homes.get(buf));
    fill(c);
    return c;
  };
  const same = (a: CacheState, b: CacheState): boolean => sameState(stateFingerprint(a, 0), stateFingerprint(b, 0));
  /** Writes each [buf, start, length] in turn, then retires those buffers. */
  const writeAndRetire = (c: CacheState, ...writes: [number, number, number][]): void => {
    for (const [buf, start, length] of writes) c.touch(buf, start, length, true);
    for (const [buf] of writes) c.retire(buf);
  };

  it('knows retired lines only by the home they go back to, neighbours of one home as one run', () => {
    // 1 KiB of buffer 1 then 1 KiB of buffer 2, both retired: one run of 2 KiB going back to node 0.
    const two = cache((c) => writeAndRetire(c, [1, 0, 1024], [2, 0, 1024]));
    const one = cache((c) => writeAndRetire(c, [2, 512, 2048]));
    expect(same(two, one)).toBe(true);
    // Going back elsewhere, or still found by lookups, they differ.
    const elsewhere = cache((c) => writeAndRetire(c, [3, 0, 2048]));
    expect(same(two, elsewhere)).toBe(false);
    const live = cache((c) => c.touch(2, 512, 2048, true));
    expect(same(one, live)).toBe(false);
    // The same bytes evicted later are taken as the same write-backs per home, whichever buffer held them.
    for (const c of [two, one]) c.touch(3, 0, 4096);
    expect(two.takeWritebacksByHome()).toEqual([[0, 2048]]);
    expect(one.takeWritebacksByHome()).toEqual([[0, 2048]]);
    expect(one.takeWritebacksByHome()).toBeUndefined();
  });

  it('keeps retired lines in their place among the live ones, and counts write-backs waiting per home', () => {
    // 1 KiB retired before 1 KiB of live buffer 3, or after it: the next eviction takes different bytes.
    const before = cache((c) => {
      writeAndRetire(c, [1, 0, 1024]);
      c.touch(3, 0, 1024);
    });
    const after = cache((c) => {
      c.touch(3, 0, 1024);
      writeAndRetire(c, [1, 0, 1024]);
    });
    expect(same(before, after)).toBe(false);
    // Evicted and not yet charged: 1 KiB of buffer 1 and 1 KiB of buffer 2, or 2 KiB of buffer 2,
    // all going back to node 0.
    const evicting = (fill: (c: CacheState) => void) =>
      cache((c) => {
        fill(c);
        c.touch(3, 0, 4096);
      });
    const a = evicting((c) => writeAndRetire(c, [1, 0, 2048], [2, 0, 2048]));
    const b = evicting((c) => writeAndRetire(c, [2, 0, 4096]));
    expect(same(a, b)).toBe(true);
  });

  it('keeps every range as it is without a home lookup', () => {
    const without = (buf: number) => {
      const c = new CacheState('L3', 4096);
      c.touch(buf, 0, 1024, true);
      c.retire(buf);
      return c;
    };
    expect(same(without(1), without(2))).toBe(false);
    expect(same(without(1), without(1))).toBe(true);
  });
});
