// The data-correctness property every collective algorithm must pass: on random machines,
// communicator sizes, placements (random core subsets in random order), roots, message sizes,
// v-counts (zeros included), displacements and cache modes, every rank's buffers end exactly as MPI
// requires (checked by the operation's semantics inside runAlgorithm), no rank deadlocks, and a
// second run of the same case gives the same times. Barrier algorithms are also run with staggered
// arrivals to check that no rank leaves before the last one has entered.
//
// Every catalogued collective algorithm gets the property automatically (propertyPlans, run by
// properties.*.test.ts), drawn as its definition's `test` hints say (algorithms/property-hints.ts).
// Direct use, inside a vitest `it`:
//   checkAlgorithmProperty('bcast:binomial', { machines: [loadPreset('zoot')], maxRanks: 16, maxBytes: 8192, numRuns: propRuns(15) });
// A failure throws fast-check's report: the seed, the path, and the shrunk case (replay with
// PROPS_SEED=<seed>).
import fc from 'fast-check';
import { runAlgorithm, type RunOutcome } from '../../algorithms/harness/simulate.ts';
import { paramDefaults, type Algorithm, type ParamInfo, type ParamValue } from '../../algorithms/algorithm.ts';
import type { Catalogue } from '../../algorithms/build-catalogue.ts';
import { catalogue as everything } from '../../algorithms/catalogue.ts';
import { collectiveNames } from '../../algorithms/collectives/ops.ts';
import type { OperationCall } from '../../algorithms/semantics.ts';
import type { ParamDraw, PropertyRun } from '../../algorithms/property-hints.ts';
import { REDUCE_OPS } from '../../algorithms/collectives/semantics/checks.ts';
import { loadPreset } from '../../hardware/presets.ts';
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
  /** Where the algorithm is looked up; default: every catalogued algorithm. */
  catalogue?: Catalogue;
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

function requireAlgorithm(name: string, catalogue: Catalogue = everything): Algorithm {
  const info = catalogue.findAlgorithm(name);
  if (!info) throw new Error(`checkAlgorithmProperty: unknown algorithm ${name} (is it in its family's list?)`);
  return info;
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
  return fc.oneof(
    { arbitrary: fc.constant(0), weight: 1 },
    { arbitrary: fc.integer({ min: 1, max: maxBytes }), weight: 3 },
  );
}

/** Displacements for `counts`: blocks in a random order with random gaps (never overlapping). */
function shuffledLayout(counts: number[]): fc.Arbitrary<number[]> {
  const n = counts.length;
  const idx = counts.map((_, r) => r);
  return fc
    .tuple(
      fc.shuffledSubarray(idx, { minLength: n, maxLength: n }),
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }),
    )
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
    return fc
      .array(countArbitrary(maxBytes), { minLength: n, maxLength: n })
      .chain((counts) =>
        packedOr(shuffledLayout(counts).map((d) => ({ displs: d.join(',') }))).map((params) => ({ counts, params })),
      );
  }
  return fc.array(countArbitrary(maxBytes), { minLength: n * n, maxLength: n * n }).chain((flat) => {
    const row = (i: number) => flat.slice(i * n, i * n + n);
    const column = (j: number) => Array.from({ length: n }, (_, i) => flat[i * n + j]);
    const matrix = (countsOf: (owner: number) => number[]) =>
      fc
        .tuple(...Array.from({ length: n }, (_, o) => shuffledLayout(countsOf(o))))
        .map((rows) => rows.flat().join(','));
    const params = fc
      .record({
        sendDispls: fc.option(matrix(row), { nil: undefined }),
        recvDispls: fc.option(matrix(column), { nil: undefined }),
      })
      .map(
        (p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as Record<string, ParamValue>,
      );
    return packedOr(params).map((params) => ({ counts: flat, params }));
  });
}

/** Cases for one algorithm: machine, communicator, placement, root, size, layout, parameters. */
export function caseArbitrary(name: string, opts: PropertyOptions = {}): fc.Arbitrary<AlgorithmCase> {
  const catalogue = opts.catalogue ?? everything;
  const info = requireAlgorithm(name, catalogue);
  const op = info.operation;
  const rooted = catalogue.findOperation(op)?.rooted ?? false;
  const machines = opts.machines ?? defaultMachines();
  const maxBytes = opts.maxBytes ?? 4096;
  const maxRanks = opts.maxRanks ?? 16;
  const paramArbs = opts.params ?? {};
  return fc.integer({ min: 0, max: machines.length - 1 }).chain((mi) => {
    const spec = machines[mi];
    const coreIds = spec.cores.map((c) => c.id);
    const maxN = Math.max(1, Math.min(maxRanks, coreIds.length));
    // An algorithm defined for one communicator size only is drawn at that size.
    const ranks = info.ranks === undefined ? fc.integer({ min: 1, max: maxN }) : fc.constant(info.ranks);
    return ranks.chain((n) =>
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
          const call: OperationCall = { bytes, root, params: { ...paramDefaults(info), ...given } };
          if (layout.counts) call.counts = layout.counts;
          return { machine: `${mi}:${spec.name}`, cores, cache, call };
        }),
    );
  });
}

export function machineOf(c: AlgorithmCase, machines: MachineSpec[]): MachineSpec {
  return machines[Number(c.machine.slice(0, c.machine.indexOf(':')))];
}

/** Runs a case (two iterations, so refilled buffers and warm caches are exercised), checking its
 *  data; `twice` (the default) runs it again and checks that both runs give the same times. */
export function runCase(
  name: string,
  c: AlgorithmCase,
  machines: MachineSpec[] = defaultMachines(),
  catalogue: Catalogue = everything,
  twice = true,
): RunOutcome {
  const machine = machineOf(c, machines);
  const run = () =>
    runAlgorithm({
      machine,
      cores: c.cores,
      algorithm: name,
      call: c.call,
      cache: c.cache,
      iterations: 2,
      warmup: 0,
      seed: 'property',
      catalogue,
    });
  const first = run();
  if (!twice) return checkedTimes(name, first);
  const second = run();
  if (first.times.length !== second.times.length || first.times.some((t, i) => !Object.is(t, second.times[i]))) {
    throw new Error(`${name}: not deterministic: times ${first.times.join(', ')} then ${second.times.join(', ')}`);
  }
  return checkedTimes(name, first);
}

function checkedTimes(name: string, out: RunOutcome): RunOutcome {
  if (out.times.some((t) => !(Number.isFinite(t) && t >= 0)))
    throw new Error(`${name}: bad iteration time ${out.times.join(', ')}`);
  return out;
}

/**
 * A property checks determinism (the case run twice, the same times) on every this-many-th case
 * it draws, and on every case with PROPS=long: each algorithm is still checked on several random
 * cases of every size in a run, at two thirds of the suite's time for these properties instead of
 * all of it (the suite's time is part of what it promises, and determinism is also checked
 * end to end: test/scenarios/jobs.test.ts).
 */
const DETERMINISM_EVERY = process.env.PROPS === 'long' ? 1 : 3;

/**
 * Runs a barrier algorithm with rank r arriving `delays[r]` ns late; throws if some rank left
 * before the last one arrived.
 */
export function checkBarrierOrdering(
  name: string,
  machine: MachineSpec,
  cores: number[],
  delays: number[],
  catalogue: Catalogue = everything,
): void {
  const info = catalogue.typedAlgorithms('barrier').find((a) => a.name === name);
  if (!info) throw new Error(`checkBarrierOrdering: ${name} is not a catalogued barrier`);
  const sim = new Simulation({ seed: 'barrier' });
  const node = new Node(sim, machine);
  const world = new World(node, cores);
  const exits: number[] = [];
  const params = paramDefaults(info);
  cores.forEach((_, id) => {
    const rank = new SimRank(world, id, params);
    sim.spawn(
      `rank ${id} ${name}`,
      (function* (): Program<void> {
        yield* rank.sleep(delays[id]);
        yield* info.program(rank, { params });
        exits[id] = sim.now;
      })(),
    );
  });
  sim.run();
  const lastArrival = Math.max(...delays);
  exits.forEach((t, r) => {
    if (t === undefined) throw new Error(`${name}: rank ${r} never left the barrier`);
    if (t < lastArrival)
      throw new Error(`${name}: rank ${r} left at ${t} ns, before the last rank arrived at ${lastArrival} ns`);
  });
}

/** The property: throws fast-check's report (seed, shrunk case) on the first failure. */
export function checkAlgorithmProperty(name: string, opts: PropertyOptions = {}): void {
  const catalogue = opts.catalogue ?? everything;
  const info = requireAlgorithm(name, catalogue);
  const machines = opts.machines ?? defaultMachines();
  const envSeed = process.env.PROPS_SEED !== undefined ? Number(process.env.PROPS_SEED) : undefined;
  const settings: fc.Parameters<[AlgorithmCase, number[]]> = { numRuns: opts.numRuns ?? propRuns(20) };
  const seed = opts.seed ?? envSeed;
  if (seed !== undefined) settings.seed = seed;
  const delays = fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 64, maxLength: 64 });
  let drawn = 0;
  fc.assert(
    fc.property(caseArbitrary(name, { ...opts, machines }), delays, (c, late) => {
      runCase(name, c, machines, catalogue, drawn++ % DETERMINISM_EVERY === 0);
      if (info.operation === 'barrier')
        checkBarrierOrdering(name, machineOf(c, machines), c.cores, late.slice(0, c.cores.length), catalogue);
    }),
    settings,
  );
}

/** One property run of one algorithm, as its `test` hints describe it. */
export interface PropertyPlan {
  algorithm: string;
  title: string;
  opts: PropertyOptions;
}

/** With no `runs` hint: the two small hand machines. */
const DEFAULT_RUNS: readonly PropertyRun[] = [
  { label: 'small machines', machines: ['tiny:2x2', 'tiny:4x4'], maxRanks: 16, maxBytes: 4096, numRuns: 20 },
];

const machineCache = new Map<string, MachineSpec>();

/** A preset name, or "tiny:<packages>x<cores>". */
export function machineByRef(ref: string): MachineSpec {
  let spec = machineCache.get(ref);
  if (!spec) {
    const tiny = /^tiny:(\d+)x(\d+)$/.exec(ref);
    spec = tiny ? tinyMachine({ packages: Number(tiny[1]), coresPerPackage: Number(tiny[2]) }) : loadPreset(ref);
    machineCache.set(ref, spec);
  }
  return spec;
}

function drawOf(draw: ParamDraw, param: ParamInfo | undefined, algorithm: string): fc.Arbitrary<ParamValue> {
  const ways: Array<fc.Arbitrary<ParamValue>> = [];
  if (draw.values?.length) ways.push(fc.constantFrom(...draw.values));
  if (draw.integers) ways.push(fc.integer(draw.integers));
  if (draw.anyChoice) {
    if (!param?.choices?.length)
      throw new Error(
        `${algorithm}: test hint anyChoice on ${param?.name ?? 'an undeclared parameter'}, which has no choices`,
      );
    ways.push(fc.constantFrom(...param.choices));
  }
  if (ways.length === 0) throw new Error(`${algorithm}: a test hint draws nothing`);
  return ways.length === 1 ? ways[0] : fc.oneof(...ways);
}

/** Every property run of every collective algorithm `catalogue` holds. */
export function propertyPlans(catalogue: Catalogue = everything): PropertyPlan[] {
  const plans: PropertyPlan[] = [];
  for (const info of catalogue.listAlgorithms()) {
    if (!collectiveNames.has(info.operation)) continue;
    const hints = info.test ?? {};
    const params = Object.fromEntries(
      Object.entries(hints.params ?? {}).map(([name, draw]) => [
        name,
        drawOf(
          draw,
          info.params.find((p) => p.name === name),
          info.name,
        ),
      ]),
    );
    for (const run of hints.runs ?? DEFAULT_RUNS) {
      const maxRanks = Math.min(run.maxRanks, hints.maxRanks ?? Infinity);
      const maxBytes = Math.min(run.maxBytes, hints.maxBytes ?? Infinity);
      plans.push({
        algorithm: info.name,
        title: `${info.name} on ${run.label}, up to ${maxRanks} ranks`,
        opts: {
          machines: run.machines.map(machineByRef),
          maxRanks,
          maxBytes,
          numRuns: propRuns(hints.numRuns ?? run.numRuns),
          sizes: [...(hints.sizes ?? [])],
          params,
          catalogue,
        },
      });
    }
  }
  return plans;
}

/** A rough cost of a plan: cases times communicator size, more for the N^2 exchanges. */
function weight(p: PropertyPlan): number {
  const ranks = p.opts.maxRanks ?? 16;
  const quadratic = /^alltoall|ring|neighbor/.test(p.algorithm);
  return (p.opts.numRuns ?? 20) * ranks * (quadratic ? ranks / 8 : 1);
}

/** Shard `k` of `of`: whole algorithms, heaviest first onto the lightest shard, so the shards
 *  (one test file each, run in parallel) take about as long. */
export function shardOf(plans: PropertyPlan[], k: number, of: number): PropertyPlan[] {
  const cost = new Map<string, number>();
  for (const p of plans) cost.set(p.algorithm, (cost.get(p.algorithm) ?? 0) + weight(p));
  const names = [...cost.keys()].sort((a, b) => cost.get(b)! - cost.get(a)! || a.localeCompare(b));
  const load = new Array<number>(of).fill(0);
  const mine = new Set<string>();
  for (const name of names) {
    const lightest = load.indexOf(Math.min(...load));
    load[lightest] += cost.get(name)!;
    if (lightest === k) mine.add(name);
  }
  return plans.filter((p) => mine.has(p.algorithm));
}
