// The index of which caches hold each buffer must follow every way a cache gains or loses a
// buffer (touch, eviction, coherence cut, free, clear), or a write would leave a stale copy behind.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propRuns } from '../helpers/prop-runs.ts';
import { CacheState } from '../../sim/node/cache.ts';
import { CacheHolders } from '../../sim/node/cache-holders.ts';

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
});
