// The shapes of the seeds' collective figures that the model produces on the preset machines
// (docs/shapes.md, "Collectives", explains why each shape appears or not, with the mechanism that
// is missing; docs/reproduction/README.md has the numbers). Each compares simulated runs against each other,
// never against a typed-in number of the papers. Table I's O(T) against O(NT) and the growth of
// CMA's lock wait with the readers are asserted in knem.test.ts and cma.test.ts.
import { describe, expect, it } from 'vitest';
import { run, share, time, type Run } from '../p2p/run.ts';
import { loadPreset } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The first `n` cores of a preset (every core when n is its core count: ranks "all", compact). */
const first = (n: number) => Array.from({ length: n }, (_, i) => i);

const ratio = (r: Omit<Run, 'algorithm'>, algorithm: string, baseline: string) =>
  time({ ...r, algorithm }) / time({ ...r, algorithm: baseline });

describe('broadcast (Ma et al. 2010, Figure 6)', () => {
  it('linear KNEM beats basic, sm and tuned on the SMP and the small NUMA machines', () => {
    for (const [machine, n] of [
      ['zoot', 16],
      ['dancer', 8],
      ['saturn', 16],
    ] as const) {
      const r = { machine, cores: first(n), bytes: 64 * KiB, iterations: 1 };
      const knem = time({ ...r, algorithm: 'bcast:knem-linear' });
      for (const other of ['bcast:basic', 'bcast:sm', 'bcast:tuned'])
        expect(knem).toBeLessThan(time({ ...r, algorithm: other }));
    }
  });

  it('on IG linear KNEM gains little over basic and the hierarchical pipelined broadcast beats it; not on two-socket Dancer', () => {
    // IG's L3 is a victim cache: concurrent readers on a socket do not share what they load, so
    // every linear reader pulls the root's buffer across the links; the hierarchical broadcast
    // sends one copy per NUMA node.
    const ig = { machine: 'ig', cores: first(48), bytes: 64 * KiB, iterations: 1 };
    const linear = ratio(ig, 'bcast:knem-linear', 'bcast:basic');
    expect(linear).toBeLessThan(1);
    expect(linear).toBeGreaterThan(0.3);
    expect(ratio(ig, 'bcast:knem-hierarchical', 'bcast:knem-linear')).toBeLessThan(0.5);
    expect(
      ratio(
        { machine: 'dancer', cores: first(8), bytes: 4 * MiB, iterations: 1 },
        'bcast:knem-hierarchical',
        'bcast:knem-linear',
      ),
    ).toBeGreaterThan(1);
  });
});

// A known discrepancy, kept as a failing expectation (it.fails passes while it fails, and fails the
// day the model meets it); claim 000-f5-never-catastrophic, which bounds the worst segment size
// against the best, passes. Since a cache-off run starts with the caches full of the benchmark's
// earlier writes (docs/model.md), each of IG's receivers writes back what it writes, and 512 KiB
// segments lose more to it than smaller ones, for a reason not yet traced: at 1 MiB, 3.60 ms with 512 KiB
// segments against 2.94 ms with 64 KiB (2.85 and 2.33 ms from empty caches), more than a tenth of
// the gap to basic's 8.75 ms. What the paper's IG did with those write-backs no seed measures.
describe('pipeline segment size of the hierarchical KNEM broadcast on IG (Figure 5), a known discrepancy', () => {
  // Measured in a test of its own, so that a run that throws fails there instead of passing as the
  // expected failure below.
  let spread = NaN;
  let allowed = NaN;
  it('runs every segment size and the basic broadcast', () => {
    const times = [64, 128, 256, 512].map((k) =>
      time({
        machine: 'ig',
        cores: first(48),
        bytes: 1 * MiB,
        iterations: 1,
        algorithm: 'bcast:knem-hierarchical',
        params: { segment: k * KiB },
      }),
    );
    const basic = time({ machine: 'ig', cores: first(48), bytes: 1 * MiB, iterations: 1, algorithm: 'bcast:basic' });
    spread = Math.max(...times) - Math.min(...times);
    // The spread between segment sizes, against the gap to the basic broadcast.
    allowed = (basic - Math.max(...times)) / 10;
    expect(Number.isFinite(spread) && Number.isFinite(allowed)).toBe(true);
  });

  it.fails('changes its time little with the segment size: no size from 64 KiB to 512 KiB is catastrophic', () => {
    expect(spread).toBeLessThan(allowed);
  });
});

describe('gather (Figure 7)', () => {
  it('linear KNEM takes well under the time of the basic gather on every machine', () => {
    // Figure 7's best ratios run from 0.31 (Zoot) to 0.55 (Saturn); the claims check each value.
    // Here only the shape: on every machine the best ratio over the figure's sizes is under the
    // paper's largest plus the 0.10 the claims allow a ratio read off a figure
    // (scenarios/papers/000/claims.yaml), 0.65.
    for (const [machine, n] of [
      ['zoot', 16],
      ['dancer', 8],
      ['saturn', 16],
    ] as const) {
      const ratios = [16 * KiB, 64 * KiB, 256 * KiB, 1 * MiB, 4 * MiB].map((bytes) =>
        ratio({ machine, cores: first(n), bytes, iterations: 1 }, 'gather:knem-linear', 'gather:basic'),
      );
      expect(Math.min(...ratios)).toBeLessThan(0.65);
    }
  });
});

describe('alltoall (Figure 8)', () => {
  it('linear KNEM beats the basic alltoall on the NUMA machines, by less than the rooted operations gain', () => {
    for (const [machine, n] of [
      ['dancer', 8],
      ['saturn', 16],
    ] as const) {
      const r = { machine, cores: first(n), bytes: 64 * KiB, iterations: 1 };
      const alltoall = ratio(r, 'alltoall:knem-linear', 'alltoall:basic');
      expect(alltoall).toBeLessThan(1);
      expect(alltoall).toBeGreaterThan(ratio(r, 'bcast:knem-linear', 'bcast:basic'));
    }
  });
});

// docs/model.md, "Memory controllers under many streams": Zoot's FB-DIMM lanes apart (read lanes
// at 0.49 of the chipset's 21.3 GB/s peak, write lanes at 0.49 of its 10.7 GB/s) against the
// preset's one bus. Basic's ownership reads then cost little, so the KNEM alltoall moves toward
// basic, as the paper measured, but stays ahead; the KNEM broadcast's and allgather's readers, who
// mostly write, are held by the write lanes and lose much of their gain. Why the preset keeps one bus.
describe('Zoot with its FB-DIMM read and write lanes apart', () => {
  const preset = loadPreset('zoot');
  const lanes: MachineSpec = {
    ...preset,
    numaNodes: preset.numaNodes.map((n) => ({ ...n, bandwidth: 21.3 * 0.49, writeBandwidth: 10.7 * 0.49 })),
  };
  const on = (machine: MachineSpec | string, op: string, bytes: number) =>
    ratio({ machine, cores: first(16), bytes, iterations: 1 }, `${op}:knem-linear`, `${op}:basic`);

  it('the KNEM alltoall moves toward basic and stays ahead; the KNEM broadcast and allgather lose much of their gain', () => {
    const alltoall = { bus: on('zoot', 'alltoall', 256 * KiB), lanes: on(lanes, 'alltoall', 256 * KiB) };
    expect(alltoall.lanes).toBeGreaterThan(alltoall.bus * 1.1);
    expect(alltoall.lanes).toBeLessThan(0.9);
    const bcast = { bus: on('zoot', 'bcast', 1 * MiB), lanes: on(lanes, 'bcast', 1 * MiB) };
    expect(bcast.lanes).toBeGreaterThan(bcast.bus * 1.2);
    const allgather = { bus: on('zoot', 'allgather', 256 * KiB), lanes: on(lanes, 'allgather', 256 * KiB) };
    expect(allgather.lanes).toBeGreaterThan(allgather.bus * 1.2);
  });
});

describe('allgather (Figure 9)', () => {
  const r = { machine: 'ig', cores: first(48), bytes: 64 * KiB, iterations: 1 };

  it('on IG linear KNEM is worse than tuned, and the hierarchical broadcast phase helps', () => {
    const linear = time({ ...r, algorithm: 'allgather:knem-linear' });
    expect(linear).toBeGreaterThan(time({ ...r, algorithm: 'allgather:tuned' }));
    expect(time({ ...r, algorithm: 'allgather:knem-hierarchical' })).toBeLessThan(linear);
  });
});

describe('XPMEM allreduce (Hashmi et al., seed 001)', () => {
  it("beats tuned's point-to-point algorithms, by more as the message grows", () => {
    const r = { machine: 'broadwell', cores: first(8), iterations: 1 };
    const small = ratio({ ...r, bytes: 16 * KiB }, 'allreduce:xpmem', 'allreduce:tuned');
    const large = ratio({ ...r, bytes: 1 * MiB }, 'allreduce:xpmem', 'allreduce:tuned');
    expect(small).toBeLessThan(1);
    expect(large).toBeLessThan(small);
  });
});

describe('CMA broadcast (seed 001: one-to-all lock contention)', () => {
  it("the linear CMA broadcast waits on the root's lock, the XPMEM one never, and falls behind it", () => {
    const r = { machine: 'broadwell', cores: first(16), bytes: 64 * KiB, iterations: 1 };
    const cma = run({ ...r, algorithm: 'bcast:cma-linear' });
    const xpmem = run({ ...r, algorithm: 'bcast:xpmem' });
    expect(share(cma.totals, ['lock-wait'])).toBeGreaterThan(0.1);
    expect(xpmem.totals['lock-wait'] ?? 0).toBe(0);
    expect(xpmem.times[0]).toBeLessThan(cma.times[0]);
  });
});
