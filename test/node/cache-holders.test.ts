// The index of which caches hold each buffer must follow every way a cache gains or loses a
// buffer (touch, eviction, coherence cut, free, clear), or a write would leave a stale copy behind.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propRuns } from '../helpers/prop-runs.ts';
import { CacheState } from '../../sim/node/cache.ts';
import { CacheHolders } from '../../sim/node/cache-holders.ts';
import { sameState, stateFingerprint } from '../../common/state-fingerprint.ts';

const BUFFERS = 4;
const SPAN = 400;

const op = fc.oneof(
  fc.record({
    kind: fc.constantFrom('touch' as const, 'touch' as const, 'cut' as const),
    cache: fc.nat(2),
    buf: fc.nat(BUFFERS - 1),
    start: fc.nat(SPAN),
    length: fc.integer({ min: 0, max: 250 }),
  }),
  fc.record({
    kind: fc.constantFrom('free' as const, 'clear' as const),
    cache: fc.nat(2),
    buf: fc.nat(BUFFERS - 1),
    start: fc.constant(0),
    length: fc.constant(0),
  }),
);

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

describe('CacheHolders', () => {
  it('names exactly the caches that hold some byte of each buffer, after any sequence of operations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60, size: 'max' }), (ops) => {
        const holders = new CacheHolders();
        // Small capacities so that touches evict other buffers' ranges.
        const caches = [
          new CacheState('a', 100, holders),
          new CacheState('b', 300, holders),
          new CacheState('c', 1000, holders),
        ];
        for (const o of ops) {
          const c = caches[o.cache];
          if (o.kind === 'touch') c.touch(o.buf, o.start, o.length);
          else if (o.kind === 'cut') c.invalidateRange(o.buf, o.start, o.length);
          else if (o.kind === 'free') c.invalidate(o.buf);
          else c.clear();
          for (let buf = 0; buf < BUFFERS; buf++) {
            const holding = caches.filter((k) => k.residentBytes(buf, 0, 2 * SPAN) > 0).map((k) => k.name);
            const indexed = [...(holders.of(buf) ?? [])].map((k) => k.name).sort();
            expect(indexed, `buffer ${buf} after ${o.kind} on ${c.name}`).toEqual(holding);
          }
        }
      }),
      { numRuns: propRuns(400) },
    );
  });

  it('tells two states apart exactly when an index that drops a buffer with its last holder does', () => {
    // That index, as the walk reads any map of sets: buffers in the order they came to be held.
    class Dropping extends CacheHolders {
      readonly sets = new Map<number, Set<string>>();
      override add(buf: number, cache: CacheState): void {
        super.add(buf, cache);
        if (!this.sets.has(buf)) this.sets.set(buf, new Set());
        this.sets.get(buf)!.add(cache.name);
      }
      override delete(buf: number, cache: CacheState): void {
        super.delete(buf, cache);
        this.sets.get(buf)?.delete(cache.name);
        if (this.sets.get(buf)?.size === 0) this.sets.delete(buf);
      }
    }
    const play = (ops: Op[]) => {
      const holders = new Dropping();
      const caches = [new CacheState('a', 100, holders), new CacheState('b', 300, holders)];
      for (const o of ops) {
        const c = caches[o.cache % caches.length];
        if (o.kind === 'touch') c.touch(o.buf, o.start, o.length);
        else if (o.kind === 'cut') c.invalidateRange(o.buf, o.start, o.length);
        else if (o.kind === 'free') c.invalidate(o.buf);
        else c.clear();
      }
      return holders;
    };
    // The case that tells the orders apart, every run: buffer 0 dropped and taken up again comes after 1.
    const touch = (buf: number): Op => ({ kind: 'touch', cache: 0, buf, start: 0, length: 10 });
    const again: Op[] = [touch(0), touch(1), { kind: 'cut', cache: 0, buf: 0, start: 0, length: 10 }, touch(0)];
    const [first, second] = [play(again.slice(0, 2)), play(again)];
    expect(sameState(stateFingerprint(first, 0), stateFingerprint(second, 0))).toBe(false);
    expect(sameState(stateFingerprint(first.sets, 0), stateFingerprint(second.sets, 0))).toBe(false);
    const ops = fc.array(op, { maxLength: 30, size: 'max' });
    fc.assert(
      fc.property(ops, ops, (x, y) => {
        const [a, b] = [play(x), play(y)];
        const index = sameState(stateFingerprint(a, 0), stateFingerprint(b, 0));
        const reference = sameState(stateFingerprint(a.sets, 0), stateFingerprint(b.sets, 0));
        expect(index).toBe(reference);
      }),
      // Short histories over two buffers' worth of drops, so that equal end states come up often.
      { numRuns: propRuns(600) },
    );
  });
});
