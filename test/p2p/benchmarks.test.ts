// Every point-to-point benchmark delivers the right bytes to every rank over every transport (the
// harness verifies each iteration's data and throws otherwise), stays deterministic, and fails
// with the driver's error on a node that lacks the mechanism.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../algorithms/catalogue.ts';
import { pairwisePeers } from '../../algorithms/p2p/alltoall-pairs.ts';
import { MechanismError } from '../../sim/node/errors.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { propRuns } from '../helpers/prop-runs.ts';
import { p2pBenchmarkOperations, run, time } from './run.ts';

// Two packages of two cores, every mechanism including I/OAT.
const base = tinyMachine();
const everything = { ...base, kernel: { ...base.kernel, mechanisms: { ...base.kernel.mechanisms, ioat: true } } };

const OPERATIONS = p2pBenchmarkOperations();
const SIZES = [0, 1, 4097, 200_000];

describe('point-to-point benchmarks deliver the data', () => {
  for (const op of OPERATIONS) {
    for (const info of catalogue.listAlgorithms(op)) {
      const ranks = op === 'onetoall' || op === 'alltoallpairs' ? [2, 3, 4] : [2, 3];
      it(`${info.name} on ${ranks.join(', ')} ranks`, () => {
        for (const n of ranks) {
          for (const bytes of SIZES) {
            const out = run({ machine: everything, cores: [0, 2, 1, 3].slice(0, n), algorithm: info.name, bytes });
            expect(out.times).toHaveLength(2);
            if (bytes > 0) expect(out.times.every((t) => t > 0)).toBe(true);
          }
        }
      });
    }
  }

  it('KNEM benchmarks take the copy mode as a parameter', () => {
    for (const algorithm of ['pingping:knem', 'onetoall:knem', 'alltoallpairs:knem', 'knemcopy:region-write']) {
      const sync = time({ machine: everything, cores: [0, 2], algorithm, bytes: 1 << 20 });
      const ioat = time({ machine: everything, cores: [0, 2], algorithm, bytes: 1 << 20, params: { mode: 'ioat' } });
      expect(ioat).not.toBe(sync);
    }
  });

  it('the auto transport follows the single-copy choice of its parameters', () => {
    const out = run({
      machine: everything,
      cores: [0, 2],
      algorithm: 'pingpong:auto',
      bytes: 1 << 20,
      params: { single: 'cma', singleThreshold: 16384 },
    });
    expect(out.totals['kernel-copy']).toBeGreaterThan(0);
    const shm = run({ machine: everything, cores: [0, 2], algorithm: 'pingpong:auto', bytes: 1 << 20 });
    expect(shm.totals['kernel-copy'] ?? 0).toBe(0);
  });

  it('is deterministic', () => {
    const a = run({ machine: 'dancer', cores: [0, 4], algorithm: 'pingping:knem', bytes: 300_000 });
    const b = run({ machine: 'dancer', cores: [0, 4], algorithm: 'pingping:knem', bytes: 300_000 });
    expect(a.times).toEqual(b.times);
    expect(a.totals).toEqual(b.totals);
  });

  it("fails with the missing driver's error on a node without the mechanism", () => {
    // Dancer runs a 2.6.32 kernel: KNEM, no CMA, no XPMEM, no LiMIC.
    const cases: Array<[string, string, string]> = [
      ['dancer', 'pingpong:cma', 'ENOSYS'],
      ['dancer', 'pingping:xpmem', 'ENODEV'],
      ['dancer', 'onetoall:limic', 'ENODEV'],
      ['broadwell', 'knemcopy:inline-read', 'ENODEV'],
      ['barcelona', 'pingpong:knem-ioat', 'ENODEV'],
    ];
    for (const [machine, algorithm, errno] of cases) {
      let caught: unknown;
      try {
        run({ machine, cores: [0, 1], algorithm, bytes: 4096 });
      } catch (e) {
        caught = e;
      }
      const cause = (caught as { cause?: unknown } | undefined)?.cause ?? caught;
      expect(cause, `${algorithm} on ${machine}`).toBeInstanceOf(MechanismError);
      expect((cause as MechanismError).errno).toBe(errno);
    }
  });
});

describe('pairwise exchange peers', () => {
  it("every step is a permutation whose sends match the peers' receives", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), (n) => {
        for (let k = 1; k < n; k++) {
          const targets = new Set<number>();
          for (let r = 0; r < n; r++) {
            const { to, from } = pairwisePeers(r, k, n);
            expect(to).not.toBe(r);
            expect(pairwisePeers(to, k, n).from).toBe(r);
            expect(pairwisePeers(from, k, n).to).toBe(r);
            targets.add(to);
          }
          expect(targets.size).toBe(n);
        }
        // Over the N-1 steps every rank sends to every other rank once.
        for (let r = 0; r < n; r++) {
          const peers = new Set(Array.from({ length: n - 1 }, (_, i) => pairwisePeers(r, i + 1, n).to));
          expect(peers.size).toBe(n - 1);
        }
      }),
      { numRuns: propRuns(30) },
    );
  });
});
