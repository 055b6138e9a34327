import { PAGE_DIRTY_ATOMICS_NS } from '../../sim/kernel/page-dirty.ts';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCma } from '../../sim/kernel/cma.ts';
import { addressSpace } from '../../sim/kernel/address-space.ts';
import { kernelCosts } from '../../sim/kernel/kernel-costs.ts';
import { range, type Range } from '../../sim/node/buffer.ts';
import { InputError } from '../../common/input-error.ts';
import { alloc, deliveredInOrder, mechanismError, runAll, setup, structPageMiss, total } from './kernel-world.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

// The test machine: syscall 100 ns, pin 100 ns a page, 4 KiB pages. A cold copy of n <= 4 MiB
// between buffers of one package reads memory (80 ns first miss, 10 B/ns) and writes into the L3
// (40 B/ns), so the core's 8 B/ns bounds it: 80 + n / 8 ns.
// A cold copy on the tiny machine: the first miss (80 ns), then memory's 10 B/ns carries the source
// and the destination's read for ownership, 5 B/ns of copy (below the core's 8 B/ns).
const coldCopy = (n: number) => 80 + n / 5;

describe('CMA on an idle machine', () => {
  it('one read: syscall, then lock + pin of the one batch, then the copy by the caller', () => {
    const s = setup();
    const theirs = alloc(s, 0, 'src', 64 * KiB, true);
    const mine = alloc(s, 1, 'dst', 64 * KiB);
    const cma = createCma(s.world, 1);
    const [end] = runAll(s, [() => cma.readv(0, range(mine), range(theirs))]);
    // 16 pages < 1024 pages a batch: one lock hold. No page of rank 0 was pinned before, so each
    // pin also misses to rank 0's memory for the page's struct page: 80 ns, on the reader's package.
    const miss = structPageMiss(s, 1, 0);
    expect(miss).toBe(80);
    expect(end).toBeCloseTo(100 + 16 * (100 + miss) + coldCopy(64 * KiB), 6);
    expect(total(s, 'syscall')).toBe(100);
    expect(total(s, 'pin')).toBe(16 * (100 + miss));
    expect(total(s, 'lock-wait')).toBe(0);
    expect(total(s, 'kernel-copy')).toBeCloseTo(coldCopy(64 * KiB), 6);
    expect(deliveredInOrder([range(theirs)], [range(mine)])).toBe(true);
  });

  it('pins batch by batch, an unaligned start adding a page', () => {
    const s = setup({ params: { cmaPagesPerBatch: 4 } });
    const theirs = alloc(s, 0, 'src', 80 * KiB, true);
    const mine = alloc(s, 1, 'dst', 64 * KiB);
    const cma = createCma(s.world, 1);
    const [end] = runAll(s, [() => cma.readv(0, range(mine), range(theirs, 100, 64 * KiB))]);
    // Bytes 100 .. 65636 touch 17 pages: batches of 4, 4, 4, 4, 1 pages, each pinned then copied;
    // every page is pinned for the first time, so each pays its struct page miss too.
    const page = 100 + structPageMiss(s, 1, 0);
    expect(s.node.trace.events.filter((e) => e.kind === 'pin').map((e) => e.end - e.start)).toEqual([
      4 * page,
      4 * page,
      4 * page,
      4 * page,
      page,
    ]);
    const copies = s.node.trace.events.filter((e) => e.kind === 'kernel-copy').map((e) => e.bytes);
    expect(copies).toEqual([16384 - 100, 16384, 16384, 16384, 100]);
    // Each of the 5 copies starts with a first miss (80 ns), then memory's 10 B/ns carries the
    // source and the destination's read for ownership, but for one line: each batch after the first
    // starts writing 36 B into the line the batch before it ended in (16284 = 254 lines + 28 B), so
    // those bytes are claimed already (cache-lines.ts).
    const claimedBefore = 4 * (64 - (16284 % 64));
    expect(claimedBefore).toBe(144);
    expect(end).toBeCloseTo(100 + 17 * page + 5 * 80 + (2 * 64 * KiB - claimedBefore) / 10, 6);
    expect(deliveredInOrder([range(theirs, 100, 64 * KiB)], [range(mine)])).toBe(true);
  });

  it('the default batch is 1024 pages of 4 KiB (Linux PVM_MAX_USER_PAGES on 64-bit)', () => {
    expect(kernelCosts(setup().spec).cmaPagesPerBatch).toBe(1024);
    const s = setup();
    const theirs = alloc(s, 0, 'src', 5 * MiB, true);
    const mine = alloc(s, 1, 'dst', 5 * MiB);
    runAll(s, [() => createCma(s.world, 1).readv(0, range(mine), range(theirs))]);
    // 5 MiB = 1280 pages: a batch of 1024, then 256; each page pinned cold (work + struct page miss).
    const page = 100 + structPageMiss(s, 1, 0);
    expect(s.node.trace.events.filter((e) => e.kind === 'pin').map((e) => e.end - e.start)).toEqual([
      1024 * page,
      256 * page,
    ]);
  });

  it("writev pushes the caller's bytes into the target", () => {
    const s = setup();
    const mine = alloc(s, 1, 'src', 10 * KiB, true);
    const theirs = alloc(s, 0, 'dst', 10 * KiB);
    runAll(s, [() => createCma(s.world, 1).writev(0, range(mine), range(theirs))]);
    expect(deliveredInOrder([range(mine)], [range(theirs)])).toBe(true);
    // The 3 target pages are pinned for the first time: the work and a miss to each struct page.
    expect(total(s, 'pin')).toBe(3 * (100 + structPageMiss(s, 1, 0)));
    // Each of the 3 target pages written is marked dirty: its struct page line is in this core's
    // cache since the pin just before took it there, so two atomics alone.
    expect(total(s, 'dirty')).toBe(3 * PAGE_DIRTY_ATOMICS_NS);
  });
});

/** k readers, reader i reading 1 MiB (256 pages, one batch) from `targetOf(i)`; returns the lock-wait total. */
function readers(
  mode: 'exclusive' | 'shared',
  k: number,
  targetOf: (i: number) => number,
  readerOf: (i: number) => number,
): number {
  const s = setup({ cmaLockMode: mode });
  const sources = new Map<number, Range>();
  const programs = Array.from({ length: k }, (_, i) => {
    const target = targetOf(i);
    if (!sources.has(target)) sources.set(target, range(alloc(s, target, `src${target}`, MiB, true)));
    const me = readerOf(i);
    const dst = alloc(s, me, `dst${i}`, MiB);
    return () => createCma(s.world, me).readv(target, range(dst), sources.get(target)!);
  });
  runAll(s, programs);
  return total(s, 'lock-wait');
}

const hold = 256 * 100; // ns one reader holds the target's lock to pin 1 MiB, its work alone

/** ns the first reader (rank 1) adds to its hold: no cache holds rank 0's 256 struct pages yet. */
const coldPages = (s: ReturnType<typeof setup>) => 256 * structPageMiss(s, 1, 0);

/**
 * Lock-wait of k readers (ranks 1..k) of one process under an exclusive lock: reader j queues for
 * the holds before it. The first holder misses to rank 0's memory for each page's struct page;
 * every holder after it pays, inside its hold, one line transfer from the previous holder's core
 * for the mm lock, one for the page-table lock and one per page's struct page; the first two are
 * recorded as lock-wait too.
 */
function exclusiveWait(k: number): number {
  const s = setup();
  const topo = s.node.topo;
  const holds: number[] = [];
  let wait = 0;
  for (let j = 0; j < k; j++) {
    const line = j === 0 ? 0 : topo.lineLatency(j, j + 1);
    wait += holds.reduce((a, b) => a + b, 0) + 2 * line;
    holds.push(j === 0 ? hold + coldPages(s) : hold + (2 + 256) * line);
  }
  return wait;
}

describe('CMA lock contention', () => {
  it('readers of one process queue on its lock: reader i waits for the i holds before it', () => {
    const waits = [1, 2, 3, 5, 7].map((k) =>
      readers(
        'exclusive',
        k,
        () => 0,
        (i) => i + 1,
      ),
    );
    expect(waits).toEqual([1, 2, 3, 5, 7].map((k) => exclusiveWait(k)));
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThan(waits[i - 1]);
  });

  it('a contended hold costs more than the pinning: each new holder moves the lock and page lines', () => {
    // Reader 1 waits for reader 0's hold, in which each of the 256 struct pages was a miss to rank
    // 0's memory, then finds the lines where reader 0 left them: the mm lock's and the page-table
    // lock's lines (recorded as lock-wait), and each page's struct page line, one transfer each.
    const s = setup();
    const line = s.node.topo.lineLatency(1, 2);
    expect(line).toBeGreaterThan(0);
    expect(
      readers(
        'exclusive',
        2,
        () => 0,
        (i) => i + 1,
      ),
    ).toBe(hold + coldPages(s) + 2 * line);
    expect(exclusiveWait(3) - exclusiveWait(2)).toBeGreaterThan(2 * hold);
  });

  it('readers of distinct processes never wait', () => {
    for (const k of [1, 2, 4])
      expect(
        readers(
          'exclusive',
          k,
          (i) => i,
          (i) => i + 4,
        ),
      ).toBe(0);
  });

  it('with a shared (rw_semaphore read-side) lock, readers of one process share it but queue on its page-table locks', () => {
    const s = setup({ cmaLockMode: 'shared' });
    const src = range(alloc(s, 0, 'src', MiB, true));
    runAll(
      s,
      [1, 2, 3].map((me) => () => createCma(s.world, me).readv(0, range(alloc(s, me, 'dst', MiB)), src)),
    );
    expect(addressSpace(s.world, 0).lockWaitNs).toBe(0);
    const waits = s.node.trace.events.filter((e) => e.kind === 'lock-wait');
    expect(waits.length).toBeGreaterThan(0);
    expect(
      waits.every((e) => e.resource === 'page-table lock 128 of rank 0' || e.resource === 'mmap_sem of rank 0'),
    ).toBe(true);
    // The first reader pins its 256 pages alone; the two behind it then take turns page by page.
    expect(total(s, 'lock-wait')).toBeGreaterThan(2 * hold);
  });

  it('the address space records the time spent queued on it', () => {
    const s = setup();
    const src = alloc(s, 0, 'src', MiB, true);
    runAll(
      s,
      [1, 2, 3].map((me) => () => createCma(s.world, me).readv(0, range(alloc(s, me, 'dst', MiB)), range(src))),
    );
    // Reader 2 waits reader 1's hold, reader 3 both holds. Reader 1's hold also missed to memory
    // for every struct page (waited by both); reader 2's moved the lines from reader 1's core.
    const line = s.node.topo.lineLatency(1, 2);
    const queued = 3 * hold + 2 * coldPages(s) + 258 * line;
    expect(addressSpace(s.world, 0).lockWaitNs).toBe(queued);
    expect(total(s, 'lock-wait')).toBe(queued + 4 * line);
  });

  it('is deterministic: the same one-to-all run gives the same trace', () => {
    const trace = () => {
      const s = setup();
      const src = alloc(s, 0, 'src', 256 * KiB, true);
      runAll(
        s,
        [1, 2, 3, 4, 5].map(
          (me) => () => createCma(s.world, me).readv(0, range(alloc(s, me, 'dst', 256 * KiB)), range(src)),
        ),
      );
      return s.node.trace.events;
    };
    expect(trace()).toEqual(trace());
  });

  it('in shared mode a mapping change (writer) still excludes pinners', () => {
    const s = setup({ cmaLockMode: 'shared' });
    const src = alloc(s, 0, 'src', 4096, true);
    const dst = alloc(s, 1, 'dst', 4096);
    const space = addressSpace(s.world, 0);
    runAll(s, [
      function* () {
        yield* space.lockForMapping();
        yield* s.sim.sleep(1000);
        space.unlockForMapping();
      },
      () => createCma(s.world, 1).readv(0, range(dst), range(src)),
    ]);
    // The reader arrives at 100 ns (after its syscall) and gets in at 1000 ns.
    expect(total(s, 'lock-wait')).toBe(900);
  });
});

describe('CMA errors', () => {
  it('EFAULT for a remote range outside the target buffer', () => {
    const e = mechanismError((s) =>
      createCma(s.world, 1).readv(0, range(alloc(s, 1, 'dst', 8192)), {
        buf: alloc(s, 0, 'src', 4096, true),
        offset: 0,
        bytes: 8192,
      }),
    );
    expect(e.errno).toBe('EFAULT');
  });

  it("EFAULT for a remote range in another rank's buffer", () => {
    const e = mechanismError((s) =>
      createCma(s.world, 1).readv(0, range(alloc(s, 1, 'dst', 4096)), range(alloc(s, 2, 'src', 4096, true))),
    );
    expect(e.errno).toBe('EFAULT');
  });

  it('ENOSYS when the kernel has no CMA, before any time passes', () => {
    const e = mechanismError(
      (s) => createCma(s.world, 1).readv(0, range(alloc(s, 1, 'dst', 4096)), range(alloc(s, 0, 'src', 4096, true))),
      {
        mechanisms: { cma: false, knem: false, xpmem: false, limic: false, ioat: false },
      },
    );
    expect(e.errno).toBe('ENOSYS');
  });

  it('EINVAL when local and remote sizes differ', () => {
    const e = mechanismError((s) =>
      createCma(s.world, 1).readv(0, range(alloc(s, 1, 'dst', 100)), range(alloc(s, 0, 'src', 4096, true))),
    );
    expect(e.errno).toBe('EINVAL');
  });

  it('a bad calibration parameter is an InputError naming its field', () => {
    const s = setup({ params: { cmaPagesPerBatch: 2.5 } });
    expect(() => kernelCosts(s.spec)).toThrow(InputError);
    expect(() => kernelCosts(s.spec)).toThrow(/kernel\.params\.cmaPagesPerBatch/);
  });
});

/** Cuts `total` bytes into consecutive pieces of the given relative sizes (0 allowed). */
function cut(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  const sizes = weights.map((w) => Math.floor((total * w) / sum));
  sizes[sizes.length - 1] += total - sizes.reduce((a, b) => a + b, 0);
  return sizes;
}

/** Segments of `sizes` bytes inside `buf`, in order, separated by the given gaps. */
function segments(buf: ReturnType<typeof alloc>, start: number, sizes: number[], gaps: number[]): Range[] {
  let at = start;
  return sizes.map((n, i) => {
    const r = range(buf, at, n);
    at += n + gaps[i];
    return r;
  });
}

describe('CMA delivers the right bytes', () => {
  const arb = fc.record({
    total: fc.integer({ min: 0, max: 40_000 }),
    remote: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 4 }),
    local: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 4 }),
    remoteStart: fc.integer({ min: 0, max: 5000 }),
    localStart: fc.integer({ min: 0, max: 5000 }),
    gap: fc.integer({ min: 0, max: 3000 }),
    batch: fc.integer({ min: 1, max: 3 }),
    write: fc.boolean(),
  });

  it('for random sizes, offsets and iovec lists, batches and directions', () => {
    fc.assert(
      fc.property(arb, (a) => {
        const s = setup({ params: { cmaPagesPerBatch: a.batch } });
        const remoteSizes = cut(a.total, a.remote);
        const localSizes = cut(a.total, a.local);
        const span = (sizes: number[], start: number) =>
          start + sizes.reduce((x, y) => x + y, 0) + sizes.length * a.gap;
        const theirs = alloc(s, 0, 'theirs', span(remoteSizes, a.remoteStart), true);
        const mine = alloc(s, 1, 'mine', span(localSizes, a.localStart), true);
        const remote = segments(
          theirs,
          a.remoteStart,
          remoteSizes,
          remoteSizes.map(() => a.gap),
        );
        const local = segments(
          mine,
          a.localStart,
          localSizes,
          localSizes.map(() => a.gap),
        );
        const cma = createCma(s.world, 1);
        runAll(s, [() => (a.write ? cma.writev(0, local, remote) : cma.readv(0, local, remote))]);
        return a.write ? deliveredInOrder(local, remote) : deliveredInOrder(remote, local);
      }),
      { numRuns: 150 },
    );
  });
});
