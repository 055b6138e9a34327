// Steady state across calls (algorithms/harness/steady-state.ts): a run that stops simulating once a
// call starts in an earlier call's state gives the times and step totals of the run that simulates
// every call, for any algorithm, machine, placement, size, cache mode and warm-up; and it does stop
// where the state repeats.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAlgorithm, type RunOutcome, type RunRequest } from '../../algorithms/harness/simulate.ts';
import { SteadyState } from '../../algorithms/harness/steady-state.ts';
import { paramDefaults } from '../../algorithms/algorithm.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import { collectiveNames } from '../../algorithms/collectives/ops.ts';
import type { ArgsOf, OperationName } from '../../algorithms/operations.ts';
import { loadPreset } from '../../hardware/presets.ts';
import { assignLanes } from '../../scenarios/trace/lanes.ts';
import { propRuns } from '../helpers/prop-runs.ts';
import { machineByRef } from './driver.ts';

/**
 * Relative agreement required. Not exact, because a fully simulated run does not repeat itself to
 * the last bit from one identical call to the next: absolute times round differently as the clock
 * grows, and the flow solver's ties fall differently. Measured on allgather:basic, tiny 4 x 4
 * machine, 7 ranks, 1 MiB, cache on: five calls in the same state took times 0.14 ns apart out of
 * 7.5 ms (1.9e-8), and split their rank-time between copy and poll up to 200 ns apart out of 58 ms
 * (3.4e-6). A replay repeats one of those calls, so it agrees with the full run that closely.
 */
const AGREE_TIMES = 1e-7;
const AGREE_TOTALS = 1e-5;

function expectSameRun(fast: RunOutcome, exact: RunOutcome): void {
  expect(exact.replayed).toBe(0);
  expect(fast.times.length).toBe(exact.times.length);
  fast.times.forEach((t, i) =>
    expect(Math.abs(t - exact.times[i])).toBeLessThanOrEqual(AGREE_TIMES * Math.max(1, exact.times[i])),
  );
  expect(Object.keys(fast.totals)).toEqual(Object.keys(exact.totals));
  for (const [kind, ns] of Object.entries(exact.totals))
    expect(Math.abs(fast.totals[kind] - ns)).toBeLessThanOrEqual(AGREE_TOTALS * Math.max(1, ns));
}

// A replayed call's steps carry the labels of the call it repeats: numbers that only keep things
// apart (a KNEM region's cookie, not part of the state: sim/kernel/knem/driver.ts) repeat too.
const unnumbered = (label: string) => label.replace(/0x[0-9a-f]+/g, '0x');

/** Each rank's steps in order: the same kinds, labels, bytes and resources at the same times. */
function expectSameSteps(fast: RunOutcome, exact: RunOutcome): void {
  const byRank = (o: RunOutcome) => {
    const out = new Map<number, RunOutcome['events']>();
    for (const e of o.events) {
      const steps = out.get(e.rank);
      if (steps) steps.push(e);
      else out.set(e.rank, [e]);
    }
    return out;
  };
  const f = byRank(fast);
  const x = byRank(exact);
  expect([...f.keys()].sort()).toEqual([...x.keys()].sort());
  for (const [rank, steps] of x) {
    const mine = f.get(rank)!;
    expect(mine.length).toBe(steps.length);
    steps.forEach((e, i) => {
      const m = mine[i];
      expect([m.kind, unnumbered(m.label), m.bytes, m.resource]).toEqual([
        e.kind,
        unnumbered(e.label),
        e.bytes,
        e.resource,
      ]);
      expect(Math.abs(m.start - e.start)).toBeLessThanOrEqual(AGREE_TIMES * Math.max(1, e.start));
      expect(Math.abs(m.end - e.end)).toBeLessThanOrEqual(AGREE_TIMES * Math.max(1, e.end));
    });
  }
}

/**
 * The same resources, each carrying the same load through every stretch of the full run's series
 * (sampled at its middle; stretches under a ns are skipped, where rounding can split one change
 * into two) and the same bytes in all.
 */
function expectSameLoads(fast: RunOutcome, exact: RunOutcome): void {
  const f = fast.loads!;
  const x = exact.loads!;
  expect(f.map((s) => s.resource)).toEqual(x.map((s) => s.resource));
  const at = (s: (typeof f)[number], t: number) => {
    let i = 0;
    while (i + 1 < s.times.length && s.times[i + 1] <= t) i++;
    return i;
  };
  const carried = (s: (typeof f)[number]) =>
    s.loads.reduce((sum, l, i) => sum + (i + 1 < s.times.length ? l * (s.times[i + 1] - s.times[i]) : 0), 0);
  x.forEach((s, r) => {
    const mine = f[r];
    for (let i = 0; i + 1 < s.times.length; i++) {
      if (s.times[i + 1] - s.times[i] < 1) continue;
      const j = at(mine, (s.times[i] + s.times[i + 1]) / 2);
      expect(Math.abs(mine.loads[j] - s.loads[i])).toBeLessThanOrEqual(AGREE_TIMES * Math.max(1, s.loads[i]));
      expect((mine.flows?.[j] ?? []).map(unnumbered)).toEqual((s.flows?.[i] ?? []).map(unnumbered));
    }
    expect(Math.abs(carried(mine) - carried(s))).toBeLessThanOrEqual(AGREE_TOTALS * Math.max(1, carried(s)));
  });
}

function both(req: RunRequest): { fast: RunOutcome; exact: RunOutcome } {
  return { fast: runAlgorithm(req), exact: runAlgorithm({ ...req, exact: true }) };
}

/** Both runs, or none where the case cannot run: a mechanism the machine lacks (KNEM on a tiny
 *  machine) fails both alike. */
function bothOrNeither(req: RunRequest): { fast: RunOutcome; exact: RunOutcome } | undefined {
  try {
    return both(req);
  } catch {
    expect(() => runAlgorithm({ ...req, exact: true })).toThrow();
    return undefined;
  }
}

describe('SteadyState', () => {
  // Each call's state is its number: nothing repeats, so every fingerprint taken is kept a while.
  const states = (n: number) => ({ n });

  it('keeps sources only the last eight periods back, fingerprinting or not', () => {
    const steady = new SteadyState(2, 0);
    for (let call = 0; call < 40; call++) {
      expect(steady.check(call, states(call), 0, 1000, 1000)).toBeUndefined();
      expect(steady.earliestSource()).toBe(Math.max(0, call - 16));
    }
    // Too few calls left to be worth a walk: nothing is fingerprinted, and old sources still go.
    for (let call = 40; call < 60; call++) {
      expect(steady.check(call, states(call), 0, 0, 1)).toBeUndefined();
      expect(steady.earliestSource()).toBe(call - 16 > 39 ? Infinity : call - 16);
    }
  });

  it('replays a call in a kept state of the same root, and only a measured one', () => {
    const steady = new SteadyState(2, 2);
    // Calls alternate between two states; call 2 is in call 0's, which was not measured.
    for (let call = 0; call < 4; call++) expect(steady.check(call, states(call % 2), 0, 1000, 1000)).toBeUndefined();
    expect(steady.check(4, states(0), 0, 1000, 1000)).toEqual({ from: 4, source: 2 });
    // Call 5 in call 4's state: one root after it, so not a repeat of it.
    expect(steady.check(5, states(0), 0, 1000, 1000)).toBeUndefined();
  });
});

describe('steady state across calls', () => {
  it('stops simulating once a call starts where an earlier one did, with the same results', () => {
    const { fast, exact } = both({
      machine: loadPreset('dancer'),
      cores: [0, 1, 2, 3, 4, 5, 6, 7],
      algorithm: 'bcast:binomial',
      call: { bytes: 1 << 20, root: 0, params: {} },
      cache: 'off',
      iterations: 10,
      warmup: 0,
      seed: 's',
    });
    // The run starts with the L3s full of lines written before it (Node.fillCachesWithEarlierWrites)
    // and warms up for one call, which also finds cold transport buffers; the
    // next calls' own lines (kept dirty until evicted, CacheState.retire) take the start's place,
    // and once the lines going back to each memory stand as they did at an earlier call's start,
    // calls repeat.
    expect(fast.replayed).toBeGreaterThanOrEqual(5);
    expectSameRun(fast, exact);
  });

  it('replays cold-cache calls while the lines written before the run are still being evicted', () => {
    // 4 KiB calls write far less than the L3s hold, so the start's lines (fillCachesWithEarlierWrites)
    // stay for thousands of calls; each call finds the same amount of written lines going back to
    // each memory, which is all a retired buffer's lines stand for (CacheState's fingerprint).
    const { fast, exact } = both({
      machine: machineByRef('tiny:2x2'),
      cores: [0, 1, 2, 3],
      algorithm: 'bcast:binomial',
      call: { bytes: 4096, root: 0, params: {} },
      cache: 'off',
      iterations: 8,
      warmup: 0,
      seed: 's',
    });
    expect(fast.replayed).toBeGreaterThanOrEqual(6);
    expectSameRun(fast, exact);
  });

  it('replays a cycle of roots only from a call of the same root', () => {
    const { fast, exact } = both({
      machine: loadPreset('dancer'),
      cores: [0, 2, 4, 6, 1, 3],
      algorithm: 'bcast:knem-linear',
      call: { bytes: 256 << 10, root: 0, params: {} },
      cache: 'off',
      iterations: 9,
      warmup: 1,
      roots: [0, 3, 5],
      seed: 's',
    });
    // The three roots' calls take different times (the root's socket differs), so a replay taken from
    // a call of another root would not give the full run's times.
    expect(fast.replayed).toBeGreaterThan(0);
    expect(new Set(exact.times.map((t) => t.toFixed(0))).size).toBeGreaterThan(1);
    expectSameRun(fast, exact);
  });

  it('simulates every call with arrival skew or fresh buffers', () => {
    const base: RunRequest = {
      machine: loadPreset('dancer'),
      cores: [0, 1, 2, 3],
      algorithm: 'bcast:binomial',
      call: { bytes: 1 << 20, root: 0, params: {} },
      cache: 'off',
      iterations: 6,
      warmup: 0,
      seed: 's',
    };
    expect(runAlgorithm(base).replayed).toBeGreaterThan(0);
    expect(runAlgorithm({ ...base, startDelays: Array.from({ length: 6 }, () => [0, 0, 0, 0]) }).replayed).toBe(0);
    expect(runAlgorithm({ ...base, buffers: 'fresh' }).replayed).toBe(0);
  });

  it("replays with the trace and loads kept: the repeated calls' steps and loads, shifted in time", () => {
    const machines = ['tiny:2x2', 'tiny:4x4', 'dancer'];
    const algorithms = ['bcast:binomial', 'bcast:knem-linear', 'alltoall:pairwise', 'allgather:ring', 'gather:basic'];
    let replaying = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...algorithms),
        fc.constantFrom(...machines),
        fc.integer({ min: 2, max: 6 }),
        fc.constantFrom(64, 4096, 65536),
        fc.constantFrom<'on' | 'off'>('on', 'off'),
        (algorithm, machineRef, ranks, bytes, cache) => {
          const machine = machineByRef(machineRef);
          const cores = machine.cores.slice(0, ranks).map((c) => c.id);
          const req: RunRequest = {
            machine,
            cores,
            algorithm,
            call: { bytes, root: 0, params: {} },
            cache,
            iterations: 12,
            warmup: 0,
            seed: 'traced',
            keepTrace: true,
            recordLoads: 'flows',
          };
          const outcome = bothOrNeither(req);
          if (!outcome) return;
          const { fast, exact } = outcome;
          expectSameRun(fast, exact);
          expectSameSteps(fast, exact);
          // Steps that touch in the full run touch in the replayed one: no rank needs another lane.
          expect(assignLanes(fast.events).lanesOf).toEqual(assignLanes(exact.events).lanesOf);
          expectSameLoads(fast, exact);
          if (fast.replayed > 0) replaying++;
        },
      ),
      { numRuns: propRuns(10), seed: Number(process.env.PROPS_SEED ?? 20261127) },
    );
    expect(replaying).toBeGreaterThan(0);
  }, 600_000);

  it('gives the results of simulating every call, for any collective algorithm and case', () => {
    const algorithms = catalogue
      .listAlgorithms()
      .filter((a) => collectiveNames.has(a.operation) && !a.operation.endsWith('v'))
      .map((a) => a.name);
    const machines = ['tiny:2x2', 'tiny:4x4', 'dancer', 'ig'];
    let replaying = 0;
    let cases = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...algorithms),
        fc.constantFrom(...machines),
        fc.integer({ min: 2, max: 8 }),
        fc.constantFrom(0, 1, 4096, 65536, 300_000, 1 << 20),
        fc.constantFrom<'on' | 'off'>('on', 'off'),
        // Enough calls for the lines cold calls write (CacheState.retire) to settle among those the
        // run started with, after which calls can repeat.
        fc.integer({ min: 6, max: 10 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 1000 }),
        (algorithm, machineRef, ranks, bytes, cache, iterations, warmup, pick) => {
          const machine = machineByRef(machineRef);
          const ids = machine.cores.map((c) => c.id);
          const n = Math.min(ranks, ids.length);
          // A spread placement, rotated by the drawn number.
          const cores = Array.from({ length: n }, (_, i) => ids[((pick + (i * ids.length) / n) % ids.length) | 0]);
          if (new Set(cores).size !== n) return;
          const info = catalogue.findAlgorithm(algorithm);
          const rooted = catalogue.findOperation(info!.operation)?.rooted ?? false;
          const req: RunRequest = {
            machine,
            cores,
            algorithm,
            call: { bytes, root: rooted ? pick % n : 0, params: {} },
            cache,
            iterations,
            warmup,
            seed: 'steady',
          };
          const outcome = bothOrNeither(req);
          if (!outcome) return;
          expectSameRun(outcome.fast, outcome.exact);
          // The buffers a replayed run ends with hold what the last call would have left.
          const call = { ...req.call, params: { ...paramDefaults(info!), ...req.call.params } };
          expect(() =>
            catalogue.semanticsOf(info!.operation).verify(outcome.fast.args as ArgsOf<OperationName>[], call),
          ).not.toThrow();
          cases++;
          if (outcome.fast.replayed > 0) replaying++;
        },
      ),
      // A fixed seed unless PROPS_SEED gives one, so that how many cases replay is the same on every
      // run (about half do: small messages run too few events to be worth a fingerprint).
      { numRuns: propRuns(40), seed: Number(process.env.PROPS_SEED ?? 20261123) },
    );
    // The property is about replays: a good share of the drawn cases must have had one to compare.
    expect(replaying).toBeGreaterThan(cases / 3);
  }, 600_000);
});
