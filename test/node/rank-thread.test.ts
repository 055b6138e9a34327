// A rank is one thread (docs/model.md, "One thread per rank"): however many of its sends and
// receives are in flight, the copies it makes and its library's steps never overlap in time, and a
// rank that sends and receives at once takes at least as long as one that only does one of them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';
import { propRuns } from '../helpers/prop-runs.ts';

const KiB = 1024;
const specs = new Map(presetNames().map((name) => [name, loadPreset(name)]));

const arb = fc.record({
  machine: fc.constantFrom(...specs.keys()),
  first: fc.nat(),
  second: fc.nat(),
  bytes: fc.integer({ min: 1, max: 512 * KiB }),
  shm: fc.constantFrom('nemesis', 'sm'),
  cache: fc.constantFrom<'on' | 'off'>('on', 'off'),
});

type Case = typeof arb extends fc.Arbitrary<infer T> ? T : never;

function run(c: Case, algorithm: string, ranks = 2, keepTrace = false) {
  const spec = specs.get(c.machine)!;
  const n = spec.cores.length;
  const a = spec.cores[c.first % n].id;
  const others = spec.cores.filter((core) => core.id !== a).map((core) => core.id);
  const cores = [a, ...others.slice(c.second % others.length), ...others].slice(0, ranks);
  return runAlgorithm({
    machine: spec,
    cores: [...new Set(cores)],
    algorithm,
    call: { bytes: c.bytes, root: 0, params: { shm: c.shm, single: 'none' } },
    cache: c.cache,
    iterations: 1,
    warmup: 0,
    seed: 'one copy',
    keepTrace,
  });
}

describe('one thread per rank', () => {
  it('no two copies or library steps of one rank overlap, in ping-ping and in all-to-all', () => {
    fc.assert(
      fc.property(arb, fc.constantFrom('pingping:shm', 'alltoall:basic'), (c, algorithm) => {
        const out = run(c, algorithm, algorithm === 'alltoall:basic' ? 4 : 2, true);
        const byRank = new Map<number, { start: number; end: number }[]>();
        // Everything but waiting: the copies and the transport's steps (posting, matching, queue lines).
        const busy = out.events.filter((e) => e.kind !== 'poll' && e.kind !== 'wait' && e.end > e.start);
        expect(busy.some((e) => e.kind === 'copy')).toBe(true);
        expect(busy.some((e) => e.kind !== 'copy')).toBe(true);
        for (const e of busy) byRank.set(e.rank, [...(byRank.get(e.rank) ?? []), { start: e.start, end: e.end }]);
        for (const steps of byRank.values()) {
          steps.sort((x, y) => x.start - y.start);
          for (let i = 1; i < steps.length; i++) expect(steps[i].start).toBeGreaterThanOrEqual(steps[i - 1].end - 1e-6);
        }
      }),
      { numRuns: propRuns(25) },
    );
  });

  it("a system call holds its rank's thread: over CMA, no two of a rank's calls, kernel copies and library steps overlap", () => {
    const withCma = [...specs.keys()].filter((name) => specs.get(name)!.kernel.mechanisms.cma);
    fc.assert(
      fc.property(
        arb,
        fc.constantFrom(...withCma),
        fc.constantFrom('alltoallpairs:cma', 'alltoall:cma-linear', 'gather:cma-linear'),
        // Above every double copy's eager limit (Nemesis's 64 KiB), so that every message takes CMA.
        fc.integer({ min: 64 * KiB + 1, max: 512 * KiB }),
        (c, machine, algorithm, bytes) => {
          const spec = specs.get(machine)!;
          // Four cores picked across the machine: pairs on different sockets take different times,
          // so one rank's calls meet its other requests' steps.
          const n = spec.cores.length;
          const step = 1 + (c.second % n);
          const spread = Array.from({ length: n }, (_, i) => (c.first + i * step) % n);
          // Four distinct cores: the spread first, then the rest in order where the spread repeats.
          const cores = [...new Set([...spread, ...spread.keys()])].slice(0, 4).map((i) => spec.cores[i].id);
          expect(cores).toHaveLength(4);
          const out = runAlgorithm({
            machine: spec,
            cores,
            algorithm,
            call: { bytes, root: 0, params: { shm: c.shm } },
            cache: c.cache,
            iterations: 1,
            warmup: 0,
            seed: 'one thread',
            keepTrace: true,
          });
          // Everything but waiting for another rank: system calls, pinning (and queueing for the
          // kernel's locks inside a call), kernel copies, dirty marking, library steps.
          const busy = out.events.filter((e) => e.kind !== 'poll' && e.kind !== 'wait' && e.end > e.start);
          expect(busy.some((e) => e.kind === 'kernel-copy')).toBe(true);
          expect(busy.some((e) => e.kind === 'syscall')).toBe(true);
          const byRank = new Map<number, { start: number; end: number }[]>();
          for (const e of busy) byRank.set(e.rank, [...(byRank.get(e.rank) ?? []), { start: e.start, end: e.end }]);
          for (const steps of byRank.values()) {
            steps.sort((x, y) => x.start - y.start);
            for (let i = 1; i < steps.length; i++)
              expect(steps[i].start).toBeGreaterThanOrEqual(steps[i - 1].end - 1e-6);
          }
        },
      ),
      { numRuns: propRuns(20) },
    );
  });

  it('sending and receiving at once never takes less than sending alone', () => {
    fc.assert(
      fc.property(arb, (drawn) => {
        // Both runs' one call from empty caches, so that they start alike: a cold-cache run warms
        // up first, and the two benchmarks' warm-up calls leave different lines to write back.
        const c = { ...drawn, cache: 'on' as const };
        const pingping = run(c, 'pingping:shm').times[0];
        // Ping-pong reports half its round trip: one message one way.
        const pingpong = run(c, 'pingpong:shm').times[0];
        expect(pingping).toBeGreaterThanOrEqual(pingpong * (1 - 1e-9));
      }),
      { numRuns: propRuns(25) },
    );
  });
});
