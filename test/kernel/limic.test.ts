import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createLimic } from '../../sim/kernel/limic.ts';
import { range } from '../../sim/node/buffer.ts';
import { alloc, deliveredInOrder, mechanismError, runAll, setup, structPageMiss, total } from './kernel-world.ts';

const KiB = 1024;
// A cold copy on the tiny machine: the first miss (80 ns), then memory's 10 B/ns carries the source
// and the destination's read for ownership, 5 B/ns of copy (below the core's 8 B/ns).
const coldCopy = (n: number) => 80 + n / 5;

describe('LiMIC on an idle machine', () => {
  it("txInit pins the sender's pages; rx is a syscall and a kernel copy by the receiver", () => {
    const s = setup();
    const src = alloc(s, 0, 'src', 64 * KiB, true);
    const dst = alloc(s, 1, 'dst', 64 * KiB);
    const marks: number[] = [];
    runAll(s, [
      function* () {
        let t = s.sim.now;
        const desc = yield* createLimic(s.world, 0).txInit(range(src));
        marks.push(s.sim.now - t);
        t = s.sim.now;
        yield* createLimic(s.world, 1).rx(desc, range(dst));
        marks.push(s.sim.now - t);
      },
    ]);
    // txInit: a syscall and 16 first pins of the sender's own pages, each with its struct page miss
    // (80 ns: rank 0's memory, from rank 0's package).
    expect(marks).toEqual([100 + 16 * (100 + structPageMiss(s, 0, 0)), 100 + coldCopy(64 * KiB)]);
    expect(total(s, 'kernel-copy')).toBeCloseTo(coldCopy(64 * KiB), 6);
    expect(s.node.trace.events.find((e) => e.kind === 'kernel-copy')?.rank).toBe(1);
    expect(deliveredInOrder([range(src)], [range(dst)])).toBe(true);
  });

  it('pins again for every message (no reuse)', () => {
    const s = setup();
    const src = alloc(s, 0, 'src', 8 * KiB, true);
    runAll(s, [
      function* () {
        for (let i = 0; i < 3; i++) yield* createLimic(s.world, 0).txInit(range(src));
      },
    ]);
    // Every message pins its 2 pages again: the first finds their struct pages in no cache, the
    // next two find them in the same core's cache, as the first left them.
    const pins = s.node.trace.events.filter((e) => e.kind === 'pin').map((e) => e.end - e.start);
    expect(pins).toEqual([2 * (100 + structPageMiss(s, 0, 0)), 2 * 100, 2 * 100]);
    expect(total(s, 'pin')).toBe(3 * 2 * 100 + 2 * structPageMiss(s, 0, 0));
  });
});

describe('LiMIC errors', () => {
  it('an invalid descriptor is EFAULT, saying the real module would crash the kernel', () => {
    for (const bad of [undefined, 42, { id: 1, owner: 0 }]) {
      const e = mechanismError((s) => createLimic(s.world, 1).rx(bad, range(alloc(s, 1, 'dst', 16))));
      expect(e.errno).toBe('EFAULT');
      expect(e.message).toMatch(/crash the kernel/);
    }
  });

  it('ENODEV without the module', () => {
    const off = { mechanisms: { cma: true, knem: false, xpmem: false, limic: false, ioat: false } };
    expect(mechanismError((s) => createLimic(s.world, 0).txInit(range(alloc(s, 0, 'src', 16))), off).errno).toBe(
      'ENODEV',
    );
  });
});

describe('LiMIC delivers the right bytes', () => {
  it('for random sizes and offsets on both sides', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30_000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 1, max: 7 }),
        (bytes, from, to, receiver) => {
          const s = setup();
          const src = alloc(s, 0, 'src', from + bytes, true);
          const dst = alloc(s, receiver, 'dst', to + bytes);
          runAll(s, [
            function* () {
              const desc = yield* createLimic(s.world, 0).txInit(range(src, from, bytes));
              yield* createLimic(s.world, receiver).rx(desc, range(dst, to, bytes));
            },
          ]);
          return deliveredInOrder([range(src, from, bytes)], [range(dst, to, bytes)]);
        },
      ),
      { numRuns: 100 },
    );
  });
});
