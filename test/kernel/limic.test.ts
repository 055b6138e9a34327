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
  it("txInit only records the send buffer; rx pins the sender's pages and copies them, by the receiver", () => {
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
    // txInit: a syscall (limic_get_info). rx: a syscall, 16 first pins of the sender's pages under
    // its mmap_sem, each with its struct page miss from the receiver's core, then the copy.
    expect(marks).toEqual([100, 100 + 16 * (100 + structPageMiss(s, 1, 0)) + coldCopy(64 * KiB)]);
    expect(s.node.trace.events.filter((e) => e.kind === 'pin').every((e) => e.rank === 1)).toBe(true);
    expect(total(s, 'kernel-copy')).toBeCloseTo(coldCopy(64 * KiB), 6);
    expect(s.node.trace.events.find((e) => e.kind === 'kernel-copy')?.rank).toBe(1);
    expect(deliveredInOrder([range(src)], [range(dst)])).toBe(true);
  });

  it('pins again for every message (no reuse)', () => {
    const s = setup();
    const src = alloc(s, 0, 'src', 8 * KiB, true);
    const dst = alloc(s, 1, 'dst', 8 * KiB);
    runAll(s, [
      function* () {
        for (let i = 0; i < 3; i++) {
          const desc = yield* createLimic(s.world, 0).txInit(range(src));
          yield* createLimic(s.world, 1).rx(desc, range(dst));
        }
      },
    ]);
    // Every message pins its 2 pages again: the first finds their struct pages in no cache, the
    // next two find them in the receiver's core's cache, as the first left them.
    const pins = s.node.trace.events.filter((e) => e.kind === 'pin').map((e) => e.end - e.start);
    // (Absolute times grow over the run, so durations agree to rounding.)
    [2 * (100 + structPageMiss(s, 1, 0)), 2 * 100, 2 * 100].forEach((ns, i) => expect(pins[i]).toBeCloseTo(ns, 9));
    expect(pins).toHaveLength(3);
    expect(total(s, 'pin')).toBeCloseTo(3 * 2 * 100 + 2 * structPageMiss(s, 1, 0), 9);
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
