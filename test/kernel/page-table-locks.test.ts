import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCma } from '../../sim/kernel/cma.ts';
import { HandoffLock } from '../../sim/kernel/handoff-lock.ts';
import { lockKinds } from '../../sim/kernel/lock-kinds.ts';
import { pagesPerTable } from '../../sim/kernel/lock-costs.ts';
import { range, type Range } from '../../sim/node/buffer.ts';
import type { Program } from '../../sim/engine/program.ts';
import { Simulation } from '../../sim/engine/simulation.ts';
import { runPrograms } from '../helpers/run-programs.ts';
import { propRuns } from '../helpers/prop-runs.ts';
import { alloc, runAll, setup, total } from './kernel-world.ts';

const PAGE = 4096;

describe('lock kinds by kernel version', () => {
  it('names the address-space lock and the spinlock kind of each kernel', () => {
    expect(lockKinds('2.6.32')).toEqual({ mmLock: 'mmap_sem', spinlock: 'ticket' });
    expect(lockKinds('3.10.0')).toEqual({ mmLock: 'mmap_sem', spinlock: 'ticket' });
    expect(lockKinds('4.2')).toEqual({ mmLock: 'mmap_sem', spinlock: 'queued' });
    expect(lockKinds('5.7.19')).toEqual({ mmLock: 'mmap_sem', spinlock: 'queued' });
    expect(lockKinds('5.8')).toEqual({ mmLock: 'mmap_lock', spinlock: 'queued' });
    expect(lockKinds('6.4.0')).toEqual({ mmLock: 'mmap_lock', spinlock: 'queued' });
    expect(lockKinds('5.14.0-284.el9')).toEqual({ mmLock: 'mmap_lock', spinlock: 'queued' });
    expect(lockKinds('unknown')).toEqual({ mmLock: 'mmap_sem', spinlock: 'ticket' });
  });

  it('one page-table page of 4 KiB pages maps 512 pages', () => {
    expect(pagesPerTable(setup().spec)).toBe(512);
  });
});

describe('a hand-off lock', () => {
  /** Three takers on cores 0, 1, 2 asking at once; line moves cost 10 ns from core a to core b ≠ a. */
  function handoffs(kind: 'ticket' | 'queued'): number[] {
    const sim = new Simulation({ seed: 1 });
    const lock = new HandoffLock('l', kind, (a, b) => (a === b ? 0 : 10), 0.5);
    const costs: number[] = [];
    runPrograms(
      sim,
      [0, 1, 2].map((core) =>
        (function* () {
          costs[core] = yield* lock.acquire(core);
          yield* sim.sleep(100);
          lock.release();
        })(),
      ),
      (i) => `p${i}`,
    );
    return costs;
  }

  it('charges the first taker nothing and each later one the move of the line from the holder', () => {
    expect(handoffs('queued')).toEqual([0, 10, 10]);
  });

  it('with a ticket lock also charges a share of the other spinning waiters', () => {
    // Core 1 takes it from core 0 while core 2 still spins: 10 + 0.5 × 10; core 2 alone: 10.
    expect(handoffs('ticket')).toEqual([0, 15, 10]);
  });

  it('refuses a release it does not hold', () => {
    const lock = new HandoffLock('l', 'queued', () => 0, 0.5);
    expect(() => lock.release()).toThrow(/not held/);
  });
});

/** Ranks on the test machine's cores; every program is a list of CMA reads done in turn. */
function run(
  mode: 'exclusive' | 'shared',
  version: string,
  build: (s: ReturnType<typeof setup>) => Array<() => Program<void>>,
): { lockWait: number; rankTime: number } {
  const s = setup({ cmaLockMode: mode, version });
  const ends = runAll(s, build(s));
  return { lockWait: total(s, 'lock-wait'), rankTime: ends.reduce((a, b) => a + b, 0) };
}

/** k readers (ranks 1..k) of one `bytes` buffer of rank 0, at once. */
function oneToAll(mode: 'exclusive' | 'shared', version: string, k: number, bytes: number) {
  return run(mode, version, (s) => {
    const src = range(alloc(s, 0, 'src', bytes, true));
    return Array.from({ length: k }, (_, i) => {
      const me = i + 1;
      const dst = range(alloc(s, me, 'dst', bytes));
      return () => createCma(s.world, me).readv(0, dst, src);
    });
  });
}

const modes = fc.constantFrom<'exclusive' | 'shared'>('exclusive', 'shared');
const versions = fc.constantFrom('3.10.0', '5.14.0', '6.6.0');

describe('CMA lock contention, properties', () => {
  it('lock wait grows monotonically with the concurrent readers of one process', () => {
    fc.assert(
      fc.property(modes, versions, fc.integer({ min: 1, max: 700 }), (mode, version, pages) => {
        const waits = [1, 2, 3, 4, 5, 6, 7].map((k) => oneToAll(mode, version, k, pages * PAGE).lockWait);
        expect(waits[0]).toBe(0);
        for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThan(waits[i - 1]);
      }),
      { numRuns: propRuns(8) },
    );
  });

  it('lock wait stays under 10 % of the time when each process is read by one peer at a time', () => {
    // Round r: rank i reads rank (i + r) mod n, a different peer each round but never two at once.
    fc.assert(
      fc.property(
        modes,
        versions,
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 700 }),
        (mode, version, n, rounds, pages) => {
          const bytes = pages * PAGE;
          const { lockWait, rankTime } = run(mode, version, (s) => {
            const srcs: Range[] = Array.from({ length: n }, (_, i) => range(alloc(s, i, 'src', bytes, true)));
            return Array.from({ length: n }, (_, me) => {
              const dst = range(alloc(s, me, 'dst', bytes));
              return function* () {
                for (let r = 1; r <= rounds; r++) {
                  const target = (me + r) % n;
                  if (target !== me) yield* createCma(s.world, me).readv(target, dst, srcs[target]);
                }
              };
            });
          });
          expect(lockWait).toBeLessThan(0.1 * rankTime);
        },
      ),
      { numRuns: propRuns(20) },
    );
  });

  it('readers of one buffer take turns page by page on its page-table lock when they share the mm lock', () => {
    // The first reader finds the lock free and pins its 64 pages alone; the two queued behind it
    // then take one page a turn and end together. Under an exclusive mm lock they end a hold apart.
    const ends = (mode: 'exclusive' | 'shared') => {
      const s = setup({ cmaLockMode: mode });
      const src = range(alloc(s, 0, 'src', 64 * PAGE, true));
      const pinned: number[] = [];
      runAll(
        s,
        [1, 2, 3].map(
          (me) =>
            function* () {
              yield* createCma(s.world, me).readv(0, range(alloc(s, me, 'dst', 64 * PAGE)), src);
              const pins = s.node.trace.events.filter((e) => e.rank === me && e.kind === 'pin');
              pinned[me - 1] = Math.max(...pins.map((e) => e.end));
            },
        ),
      );
      return pinned;
    };
    const hold = 64 * 100;
    const [sa, sb, sc] = ends('shared');
    expect(sb - sa).toBeGreaterThan(hold);
    expect(Math.abs(sc - sb)).toBeLessThan(hold / 8);
    const [ea, eb, ec] = ends('exclusive');
    expect(eb - ea).toBeGreaterThan(hold);
    expect(ec - eb).toBeGreaterThan(hold);
  });
});

describe('CMA one-to-all on the seed machine', () => {
  it("lock-wait's share of the time grows with the readers of one process (seed 001's ftrace breakdown)", async () => {
    const { loadPreset } = await import('../../hardware/presets.ts');
    const { runAlgorithm } = await import('../../algorithms/harness/simulate.ts');
    const machine = loadPreset('broadwell');
    const share = (ranks: number) => {
      const out = runAlgorithm({
        machine,
        cores: Array.from({ length: ranks }, (_, i) => i),
        algorithm: 'onetoall:cma',
        call: { bytes: 1 << 20, root: 0, params: {} },
        cache: 'off',
        iterations: 1,
        warmup: 1,
        seed: 's',
      });
      const all = Object.values(out.totals).reduce((a, b) => a + b, 0);
      return (out.totals['lock-wait'] ?? 0) / all;
    };
    const shares = [2, 4, 8, 16, 28].map(share);
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeGreaterThan(shares[i - 1]);
  });
});

describe('struct pages a pin finds in no cache', () => {
  /** 'pin' time of three CMA reads by rank 1 of rank 0's buffer: first, again, and after clearCaches. */
  function pins(pages: number, reader: number): { first: number; again: number; afterClear: number; missNs: number } {
    const s = setup();
    const src = range(alloc(s, 0, 'src', pages * PAGE, true));
    const dst = range(alloc(s, reader, 'dst', pages * PAGE));
    const times: number[] = [];
    const read = () => {
      const before = total(s, 'pin');
      runAll(s, [() => createCma(s.world, reader).readv(0, dst, src)]);
      times.push(total(s, 'pin') - before);
    };
    read();
    read();
    s.node.clearCaches();
    read();
    const topo = s.node.topo;
    const home = topo.numa(topo.core(0).numa);
    const missNs = home.latencyNs + topo.routeLatency(topo.coreVertex(reader), home.attach);
    return { first: times[0], again: times[1], afterClear: times[2], missNs };
  }

  it('costs one miss to the owner memory per page, until the caches are cleared again', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1200 }), fc.constantFrom(1, 5), (pages, reader) => {
        const { first, again, afterClear, missNs } = pins(pages, reader);
        // Same core each time, no contention: a warm pin is the per-page work alone.
        expect(again).toBeCloseTo(pages * 100, 6);
        expect(first - again).toBeCloseTo(pages * missNs, 6);
        expect(afterClear).toBeCloseTo(first, 6);
        expect(missNs).toBeGreaterThan(0);
      }),
      { numRuns: propRuns(20) },
    );
  });

  it('misses farther from another socket', () => {
    // Rank 5 sits on the other package of the test machine: its miss crosses the link.
    expect(pins(8, 5).missNs).toBeGreaterThan(pins(8, 1).missNs);
  });
});
