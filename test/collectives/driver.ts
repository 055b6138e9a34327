// The data-correctness property every collective algorithm must pass: on random machines,
// communicator sizes, placements (random core subsets in random order), roots, message sizes,
// v-counts (zeros included), displacements and cache modes, every rank's buffers end exactly as MPI
// requires (checked by the operation's semantics inside runAlgorithm), no rank deadlocks, and a
// second run of the same case gives the same times. Barrier algorithms are also run with staggered
// arrivals to check that no rank leaves before the last one has entered.
//
// Usage, inside a vitest `it`:
//   checkAlgorithmProperty('bcast:binomial', { machines: [loadPreset('zoot')], maxRanks: 16, maxBytes: 8192, numRuns: propRuns(15) });
// A failure throws fast-check's report: the seed, the path, and the shrunk case (replay with
// PROPS_SEED=<seed>).
import fc from 'fast-check';
import { runAlgorithm, type RunOutcome } from '../../algorithms/harness/simulate.ts';
import { findAlgorithm, findOperation, type AlgorithmInfo, type ParamValue } from '../../algorithms/registry.ts';
import type { OperationCall } from '../../algorithms/semantics.ts';
import { REDUCE_OPS } from '../../algorithms/collectives/semantics/checks.ts';
import '../../algorithms/collectives/ops.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { SimRank } from '../../sim/kernel/rank.ts';
import type { Program } from '../../sim/node/rank-api.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { propRuns } from '../helpers/prop-runs.ts';

export interface PropertyOptions {
  /** Machines to draw from; default: two small hand machines (4 and 16 cores). */
  machines?: MachineSpec[];
  /** Largest communicator (capped by each machine's core count); default 16. */
  maxRanks?: number;
  /** Largest `bytes` (and largest v-count) drawn; default 4096. Keep it at most 64 KiB. */
  maxBytes?: number;
  /** Default propRuns(20). */
  numRuns?: number;
  /** fast-check seed; default PROPS_SEED from the environment, else a fresh one (printed on failure). */
  seed?: number;
  /** Sizes to draw often besides 0, 1 and odd ones: e.g. multiples of a segment size and their ±1. */
  sizes?: number[];
  /** Arbitraries for algorithm parameters; the others take their ParamInfo default. */
  params?: Record<string, fc.Arbitrary<ParamValue>>;
}

/** One drawn case: plain data, so fast-check's report of a counterexample is readable. */
export interface AlgorithmCase {
  /** "<index>:<machine name>" into the machines list. */
  machine: string;
  cores: number[];
  cache: 'on' | 'off';
  call: OperationCall;
}

const V_OPS = new Set(['scatterv', 'gatherv', 'allgatherv', 'alltoallv']);
const REDUCTIONS = new Set(['reduce', 'allreduce']);

export function defaultMachines(): MachineSpec[] {
  return [tinyMachine({ packages: 2, coresPerPackage: 2 }), tinyMachine({ packages: 4, coresPerPackage: 4 })];
}

function requireAlgorithm(name: string): AlgorithmInfo {
  const info = findAlgorithm(name);
  if (!info) throw new Error(`checkAlgorithmProperty: unknown algorithm ${name} (is its family's index imported?)`);
  return info;
}

/** The parameters an algorithm runs with: every ParamInfo default, overlaid by `given`. */
export function withDefaults(info: AlgorithmInfo, given: Record<string, ParamValue> = {}): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const p of info.params) out[p.name] = p.default;
  return { ...out, ...given };
}

function sizeArbitrary(maxBytes: number, extra: number[]): fc.Arbitrary<number> {
  const notable = [0, 1, 3, 7, 4095, 4096, 4097, 65535, 65536, ...extra].filter((s) => s <= maxBytes);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...notable), weight: 2 },
    { arbitrary: fc.integer({ min: 0, max: maxBytes }), weight: 2 },
    { arbitrary: fc.integer({ min: 0, max: Math.min(maxBytes, 64) }), weight: 1 },
  );
}

function countArbitrary(maxBytes: number): fc.Arbitrary<number> {
  return fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.integer({ min: 1, max: maxBytes }), weight: 3 });
}

/** Displacements for `counts`: blocks in a random order with random gaps (never overlapping). */
function shuffledLayout(counts: number[]): fc.Arbitrary<number[]> {
  const n = counts.length;
  const idx = counts.map((_, r) => r);
  return fc
    .tuple(fc.shuffledSubarray(idx, { minLength: n, maxLength: n }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }))
    .map(([order, gaps]) => {
      const displs = new Array<number>(n).fill(0);
      let at = 0;
      order.forEach((r, k) => {
        at += gaps[k];
        displs[r] = at;
        at += counts[r];
      });
      return displs;
    });
}

interface Layout {
  counts?: number[];
  params: Record<string, ParamValue>;
}

/** counts (and displacement params) of a v-operation for n ranks; no displacement params = packed. */
function vLayout(operation: string, n: number, maxBytes: number): fc.Arbitrary<Layout> {
  const packedOr = (a: fc.Arbitrary<Record<string, ParamValue>>) => fc.oneof(fc.constant({}), a);
  if (operation !== 'alltoallv') {
    return fc.array(countArbitrary(maxBytes), { minLength: n, maxLength: n }).chain((counts) =>
      packedOr(shuffledLayout(counts).map((d) => ({ displs: d.join(',') }))).map((params) => ({ counts, params })),
    );
  }
  return fc.array(countArbitrary(maxBytes), { minLength: n * n, maxLength: n * n }).chain((flat) => {
    const row = (i: number) => flat.slice(i * n, i * n + n);
    const column = (j: number) => Array.from({ length: n }, (_, i) => flat[i * n + j]);
    const matrix = (countsOf: (owner: number) => number[]) =>
      fc.tuple(...Array.from({ length: n }, (_, o) => shuffledLayout(countsOf(o)))).map((rows) => rows.flat().join(','));
    const params = fc.record({
      sendDispls: fc.option(matrix(row), { nil: undefined }),
      recvDispls: fc.option(matrix(column), { nil: undefined }),
    }).map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as Record<string, ParamValue>);
    return packedOr(params).map((params) => ({ counts: flat, params }));
  });
}

/** Cases for one algorithm: machine, communicator, placement, root, size, layout, parameters. */
export function caseArbitrary(name: string, opts: PropertyOptions = {}): fc.Arbitrary<AlgorithmCase> {
  const info = requireAlgorithm(name);
  const op = info.operation;
  const rooted = findOperation(op)?.rooted ?? false;
  const machines = opts.machines ?? defaultMachines();
  const maxBytes = opts.maxBytes ?? 4096;
  const maxRanks = opts.maxRanks ?? 16;
  const paramArbs = opts.params ?? {};
  return fc.integer({ min: 0, max: machines.length - 1 }).chain((mi) => {
    const spec = machines[mi];
    const coreIds = spec.cores.map((c) => c.id);
    const maxN = Math.max(1, Math.min(maxRanks, coreIds.length));
    return fc.integer({ min: 1, max: maxN }).chain((n) =>
      fc
        .record({
          cores: fc.shuffledSubarray(coreIds, { minLength: n, maxLength: n }),
          cache: fc.constantFrom<'on' | 'off'>('off', 'on'),
          root: rooted ? fc.integer({ min: 0, max: n - 1 }) : fc.constant(0),
          bytes: sizeArbitrary(maxBytes, opts.sizes ?? []),
          layout: V_OPS.has(op) ? vLayout(op, n, maxBytes) : fc.constant<Layout>({ params: {} }),
          reduceOp: REDUCTIONS.has(op) ? fc.constantFrom(...REDUCE_OPS) : fc.constant(undefined),
          algParams: fc.record(paramArbs),
        })
        .map(({ cores, cache, root, bytes, layout, reduceOp, algParams }) => {
          const given: Record<string, ParamValue> = { ...(algParams as Record<string, ParamValue>), ...layout.params };
          if (reduceOp !== undefined) given.op = reduceOp;
          const call: OperationCall = { bytes, root, params: withDefaults(info, given) };
          if (layout.counts) call.counts = layout.counts;
          return { machine: `${mi}:${spec.name}`, cores, cache, call };
        }),
    );
  });
}

function machineOf(c: AlgorithmCase, machines: MachineSpec[]): MachineSpec {
  return machines[Number(c.machine.slice(0, c.machine.indexOf(':')))];
}

/** Runs a case twice (two iterations each, so refilled buffers and warm caches are exercised), checking data and determinism. */
export function runCase(name: string, c: AlgorithmCase, machines: MachineSpec[] = defaultMachines()): RunOutcome {
  const machine = machineOf(c, machines);
  const run = () => runAlgorithm({ machine, cores: c.cores, algorithm: name, call: c.call, cache: c.cache, iterations: 2, warmup: 0, seed: 'property' });
  const first = run();
  const second = run();
  if (first.times.length !== second.times.length || first.times.some((t, i) => !Object.is(t, second.times[i]))) {
    throw new Error(`${name}: not deterministic: times ${first.times.join(', ')} then ${second.times.join(', ')}`);
  }
  if (first.times.some((t) => !(Number.isFinite(t) && t >= 0))) throw new Error(`${name}: bad iteration time ${first.times.join(', ')}`);
  return first;
}

/**
 * Runs a barrier algorithm with rank r arriving `delays[r]` ns late; throws if some rank left
 * before the last one arrived.
 */
export function checkBarrierOrdering(name: string, machine: MachineSpec, cores: number[], delays: number[]): void {
  const info = requireAlgorithm(name);
  const sim = new Simulation({ seed: 'barrier' });
  const node = new Node(sim, machine);
  const world = new World(node, cores);
  const exits: number[] = [];
  const params = withDefaults(info);
  cores.forEach((_, id) => {
    const rank = new SimRank(world, id, params);
    sim.spawn(`rank ${id} ${name}`, (function* (): Program<void> {
      yield* rank.sleep(delays[id]);
      yield* info.program(rank, { params });
      exits[id] = sim.now;
    })());
  });
  sim.run();
  const lastArrival = Math.max(...delays);
  exits.forEach((t, r) => {
    if (t === undefined) throw new Error(`${name}: rank ${r} never left the barrier`);
    if (t < lastArrival) throw new Error(`${name}: rank ${r} left at ${t} ns, before the last rank arrived at ${lastArrival} ns`);
  });
}

/** The property: throws fast-check's report (seed, shrunk case) on the first failure. */
export function checkAlgorithmProperty(name: string, opts: PropertyOptions = {}): void {
  const info = requireAlgorithm(name);
  const machines = opts.machines ?? defaultMachines();
  const envSeed = process.env.PROPS_SEED !== undefined ? Number(process.env.PROPS_SEED) : undefined;
  const settings: fc.Parameters<[AlgorithmCase, number[]]> = { numRuns: opts.numRuns ?? propRuns(20) };
  const seed = opts.seed ?? envSeed;
  if (seed !== undefined) settings.seed = seed;
  const delays = fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 64, maxLength: 64 });
  fc.assert(
    fc.property(caseArbitrary(name, { ...opts, machines }), delays, (c, late) => {
      runCase(name, c, machines);
      if (info.operation === 'barrier') checkBarrierOrdering(name, machineOf(c, machines), c.cores, late.slice(0, c.cores.length));
    }),
    settings,
  );
}
