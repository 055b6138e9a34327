// The kernel's first access to a page through the caller's own mapping (sim/kernel/user-access.ts):
// charged once per page and copy of the buffers, on the caller's side only, and not at all where the
// machine does not charge it.
import { describe, expect, it } from 'vitest';
import { createCma } from '../../sim/kernel/cma.ts';
import { createKnem } from '../../sim/kernel/knem/index.ts';
import { pagesReached, useBufferCopy } from '../../sim/kernel/user-access.ts';
import { range } from '../../sim/node/buffer.ts';
import { alloc, runAll, setup, total } from './kernel-world.ts';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { loadPreset } from '../../hardware/presets.ts';

const KiB = 1024;
const FIRST = 5000;
const withFirstAccess = () => setup({ params: { firstUserAccessNs: FIRST } });

describe("the kernel's first access to a page through the caller's mapping", () => {
  it('costs process_vm_readv each page of the local buffer it reaches for the first time, once', () => {
    const s = withFirstAccess();
    const theirs = alloc(s, 0, 'src', 64 * KiB, true);
    const mine = alloc(s, 1, 'dst', 64 * KiB);
    const cma = createCma(s.world, 1);
    // Bytes 100 .. 32867 of the local buffer lie on 9 pages; the next read reaches all 16, 7 of them anew.
    runAll(s, [() => cma.readv(0, range(mine, 100, 32 * KiB), range(theirs, 0, 32 * KiB))]);
    expect(total(s, 'page-map')).toBe(9 * FIRST);
    runAll(s, [() => cma.readv(0, range(mine), range(theirs))]);
    expect(total(s, 'page-map')).toBe(16 * FIRST);
    const before = s.sim.now;
    runAll(s, [() => cma.readv(0, range(mine), range(theirs))]);
    expect(total(s, 'page-map')).toBe(16 * FIRST);
    expect(pagesReached(s.world, 0, mine.id)).toBe(16);
    // The remote pages, pinned and copied through the kernel's own mapping, count for nothing.
    expect(pagesReached(s.world, 0, theirs.id)).toBe(0);
    expect(s.sim.now).toBeGreaterThan(before);
  });

  it("costs process_vm_writev the caller's source pages, not the target's", () => {
    const s = withFirstAccess();
    const mine = alloc(s, 1, 'src', 10 * KiB, true);
    const theirs = alloc(s, 0, 'dst', 10 * KiB);
    runAll(s, [() => createCma(s.world, 1).writev(0, range(mine), range(theirs))]);
    expect(total(s, 'page-map')).toBe(3 * FIRST);
    expect(pagesReached(s.world, 0, mine.id)).toBe(3);
    expect(pagesReached(s.world, 0, theirs.id)).toBe(0);
  });

  it('counts pages per copy of the buffers: another copy is reached anew, an earlier one is not', () => {
    const s = withFirstAccess();
    const theirs = alloc(s, 0, 'src', 16 * KiB, true);
    const mine = alloc(s, 1, 'dst', 16 * KiB);
    const read = () => runAll(s, [() => createCma(s.world, 1).readv(0, range(mine), range(theirs))]);
    read();
    useBufferCopy(s.world, 1);
    read();
    expect(total(s, 'page-map')).toBe(8 * FIRST);
    useBufferCopy(s.world, 0);
    read();
    expect(total(s, 'page-map')).toBe(8 * FIRST);
    expect([pagesReached(s.world, 0, mine.id), pagesReached(s.world, 1, mine.id)]).toEqual([4, 4]);
  });

  it("costs a synchronous KNEM read the reader's pages, and a KNEM write nothing (it pins them)", () => {
    const s = withFirstAccess();
    const src = alloc(s, 0, 'src', 16 * KiB, true);
    const dst = alloc(s, 1, 'dst', 16 * KiB);
    const mineToWrite = alloc(s, 1, 'out', 8 * KiB, true);
    const region = alloc(s, 0, 'region', 8 * KiB);
    const [knem0, knem1] = [createKnem(s.world, 0), createKnem(s.world, 1)];
    runAll(s, [
      function* () {
        const c = yield* knem0.createRegion(range(src), { read: true });
        const h = yield* knem1.inlineCopy({ cookie: c, offset: 0, local: range(dst), direction: 'read' });
        yield* h.wait();
        const w = yield* knem0.createRegion(range(region), { write: true });
        const g = yield* knem1.inlineCopy({ cookie: w, offset: 0, local: range(mineToWrite), direction: 'write' });
        yield* g.wait();
      },
    ]);
    expect(total(s, 'page-map')).toBe(4 * FIRST);
    expect(pagesReached(s.world, 0, dst.id)).toBe(4);
    expect(pagesReached(s.world, 0, mineToWrite.id)).toBe(0);
  });

  it('keeps no state and charges nothing on a machine that does not charge it', () => {
    const s = setup();
    const theirs = alloc(s, 0, 'src', 64 * KiB, true);
    const mine = alloc(s, 1, 'dst', 64 * KiB);
    useBufferCopy(s.world, 3);
    runAll(s, [() => createCma(s.world, 1).readv(0, range(mine), range(theirs))]);
    expect(total(s, 'page-map')).toBe(0);
    expect(pagesReached(s.world, 3, mine.id)).toBeUndefined();
  });
});

describe('cold runs that rotate through copies of their buffers', () => {
  const spec = structuredClone(loadPreset('broadwell'));
  const run = (algorithm: string, firstUserAccessNs: number, rotation?: number) => {
    spec.kernel.params.firstUserAccessNs = firstUserAccessNs;
    return runAlgorithm({
      machine: spec,
      cores: [0, 1, 2, 3],
      algorithm,
      call: { bytes: 64 * KiB, root: 0, params: {} },
      cache: 'off',
      iterations: 12,
      warmup: 2,
      seed: 'rotation',
      rotation,
      mpiBinding: false,
    });
  };

  it('pay for new pages in the calls that reach them, and replay once every copy is reached', () => {
    const before = run('onetoall:cma', 0);
    // Every call a copy of its own: each reader reaches 16 new pages every call, and every call
    // starts as the one before did (nothing reached is ever reached again).
    const fresh = run('onetoall:cma', FIRST);
    expect(fresh.times.map((t) => t - before.times[0])).toEqual(fresh.times.map(() => 16 * FIRST));
    expect(fresh.replayed).toBe(before.replayed);
    // Three copies: the warm-up calls take copies 0 and 1, the first measured call copy 2, the rest
    // come back to copies reached before, as cheap as without the cost, and replay.
    const rotated = run('onetoall:cma', FIRST, 3);
    expect(rotated.times[0]).toBeCloseTo(fresh.times[0], 6);
    expect(rotated.times.slice(1)).toEqual(rotated.times.slice(1).map(() => before.times[0]));
    expect(rotated.replayed).toBeGreaterThan(0);
  });

  it('replay as without the cost where nothing reaches a page through its mapping', () => {
    const before = run('pingpong:shm', 0, 3);
    const after = run('pingpong:shm', FIRST, 3);
    expect(after.times).toEqual(before.times);
    expect(after.replayed).toBe(before.replayed);
    expect(before.replayed).toBeGreaterThan(0);
  });

  it('refuse a rotation that is not a whole number of copies of at least one', () => {
    for (const rotation of [0, 1.5, -2, Number.NaN])
      expect(() => run('onetoall:cma', FIRST, rotation)).toThrow(/rotation must be a whole number/);
  });
});
