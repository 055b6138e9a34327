// The training set: the native measurements calibration fits the model's constants on. None of
// them is a case `validate` predicts afterwards (see test-set.ts).
import type { MachineSpec } from '../hardware/spec.ts';
import {
  probeNative,
  runNative,
  type NativeRequest,
  type NativeRun,
  type NativeStats,
  type ProbeResult,
} from './backend.ts';
import {
  capacityOverChases,
  chaseSweep,
  effectiveCapacity,
  type Capacity,
  type CapacitySweep,
} from './fit/capacity.ts';
import { DEFAULT_ROUNDS, measureInRounds, roundText } from './rounds.ts';
import { claimsRingRequest, lineTripRequest } from './host-check.ts';
import { newPagesOffCache } from './predict.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** A working set sized to sit in one level of core `core`'s caches (or in memory, beyond them). */
export interface LevelProbe {
  name: string;
  /** Index in spec.caches of the cache this working set lives in; absent for memory. */
  cacheIndex?: number;
  /** Bytes the benchmark touches: twice the copy size for memcpy, the chased array for latency. */
  workingSet: number;
}

/** CMA size sweep of the training set: one reader of one process. */
export const CMA_TRAINING_SIZES = [4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, 1 * MiB, 4 * MiB];
/** The cold sweep's sizes: the warm sweep's up to 1 MiB, whose rotation over twice a 32 MiB cache
 *  holds 33 buffers or more (send and receive halves of each). A size whose few buffers come back
 *  within a handful of transfers is not reliably cold: on the development host, 4 MiB transfers
 *  over nine buffers ran as fast as warm ones in some rounds and some six times slower in others. */
export const CMA_COLD_SIZES = CMA_TRAINING_SIZES.filter((b) => b <= 1 * MiB);

/** Largest working set used for memory: four times the last-level cache, at most 256 MiB. */
const MEMORY_WORKING_SET_CAP = 256 * MiB;

/** The caches `core` uses, innermost first, each with its index in spec.caches. */
export function cachesOfCore(spec: MachineSpec, core: number): { c: MachineSpec['caches'][number]; i: number }[] {
  return spec.caches
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => !c.memorySide && c.cores.includes(core))
    .sort((x, y) => x.c.level - y.c.level);
}

export function levelProbes(spec: MachineSpec, core: number): LevelProbe[] {
  const mine = cachesOfCore(spec, core);
  const probes: LevelProbe[] = [];
  let below = 0;
  for (const { c, i } of mine) {
    // Half the level (room for whatever else the process touches), but well past the level below.
    const ws = Math.min(c.sizeBytes * 0.75, Math.max(c.sizeBytes / 2, 2 * below));
    probes.push({ name: `L${c.level}`, cacheIndex: i, workingSet: roundTo(ws, 4 * KiB) });
    below = c.sizeBytes;
  }
  probes.push({
    name: 'memory',
    workingSet: roundTo(Math.min(MEMORY_WORKING_SET_CAP, Math.max(4 * below, 64 * MiB)), MiB),
  });
  return probes;
}

/** The pointer chase that finds how much of the outermost cache this process gets: working sets from
 *  twice the level below up to the cache's size, doubling, then memory (fit/capacity.ts). */
interface CapacityProbe {
  cacheIndex: number;
  sizeBytes: number;
  req: NativeRequest;
  /** Every cache's size as detected, to put back when no chase shows a loss. */
  detectedSizes: number[];
}

function capacityProbe(
  spec: MachineSpec,
  core: number,
  memory: LevelProbe,
  it: { iterations: number; warmup: number },
): CapacityProbe | undefined {
  const mine = cachesOfCore(spec, core);
  if (mine.length < 2) return undefined;
  const outer = mine[mine.length - 1];
  const sizes: number[] = [];
  for (let ws = 2 * mine[mine.length - 2].c.sizeBytes; ws <= outer.c.sizeBytes; ws *= 2) sizes.push(ws);
  if (sizes.length === 0) return undefined;
  return {
    cacheIndex: outer.i,
    sizeBytes: outer.c.sizeBytes,
    detectedSizes: spec.caches.map((c) => c.sizeBytes),
    req: { bench: 'latency', cores: [core], sizes: [...sizes, memory.workingSet], ...it },
  };
}

/** Every cache of that one's level on this core's side gets `bytes`: the capacity one process gets. */
export function setCapacity(spec: MachineSpec, cacheIndex: number, bytes: number): void {
  const level = spec.caches[cacheIndex].level;
  for (const c of spec.caches) if (c.level === level && !c.memorySide) c.sizeBytes = bytes;
}

function roundTo(n: number, unit: number): number {
  return Math.max(unit, Math.round(n / unit) * unit);
}

export interface TrainingData {
  cores: number[];
  /** Pointer chase across the outermost cache's sizes, and the capacity it shows (fit/capacity.ts). */
  capacity?: { cacheIndex: number; sweep: CapacitySweep; found?: Capacity };
  levels: LevelProbe[];
  /** Load latency by pointer chase, per level (ns per load). */
  latency: NativeStats[];
  /** One core's warm memcpy of half the working set, per level. */
  copyOne: NativeStats[];
  /** Every core's memcpy at once from memory; absent with one core. */
  copyAll?: NativeRun;
  /** One core's warm copy into the double copy's ring just read by another (ownership claims). */
  claims?: NativeRun;
  /** One cache line passed back and forth between the first two cores (a flag's trip). */
  lines?: NativeRun;
  cma?: ProbeResult;
  /** One reader of one process over CMA, warm, by size (syscall and per-page pinning). */
  cmaSweep?: NativeRun;
  /** The same sweep cold (CMA_COLD_SIZES), its buffers rotated over more than twice
   *  `coldRotationBytes`, every call reaching pages no call reached before: what the kernel's first access to
   *  a page through the caller's mapping costs (kernel.params.firstUserAccessNs). */
  cmaColdSweep?: NativeRun;
  coldRotationBytes?: number;
  /** Two and more readers of one process at once (the address-space lock). */
  cmaReaders: NativeRun[];
}

export interface TrainingOptions {
  iterations: number;
  /** The cache size the cold sweep's rotation exceeds twice; the backend's detection when absent. */
  offCacheBytes?: number;
  progress: (what: string) => void;
}

export function measureTraining(spec: MachineSpec, cores: number[], opts: TrainingOptions): TrainingData {
  const it = { iterations: opts.iterations, warmup: 2 };
  const nominal = levelProbes(spec, cores[0]);
  const memoryProbe = nominal[nominal.length - 1];
  // The capacity sizes the level probes below, so a first chase comes before them; the cache's working
  // sets are chased again in every round, and the capacity is that of each one's fastest chase of all
  // of them (fit/capacity.ts). Memory's chase, most of the chase's time (over the largest working
  // set, every load a miss), is taken once, with the first.
  const chase = capacityProbe(spec, cores[0], memoryProbe, it);
  let firstChase: NativeStats[] | undefined;
  if (chase) {
    opts.progress(`training: load latency across L${spec.caches[chase.cacheIndex].level}'s size`);
    firstChase = runNative(chase.req).results;
    const first = effectiveCapacity(chaseSweep(firstChase), chase.sizeBytes);
    // The level probes fit in what the outermost cache really holds; memory stays beyond its size.
    if (first) setCapacity(spec, chase.cacheIndex, first.bytes);
  }
  const levels = [...levelProbes(spec, cores[0]).slice(0, -1), memoryProbe];
  opts.progress('training: load latency by working set');
  const latency = runNative({
    bench: 'latency',
    cores: [cores[0]],
    sizes: levels.map((l) => l.workingSet),
    ...it,
  }).results;
  // The copies, the ownership claims, the CMA sweep and the capacity chase fit the constants the
  // host's placement and its other tenants change (rounds.ts): each is measured in rounds, one after
  // the other within a round, so that the rounds spread over the whole training and each measurement
  // takes its fastest, as the test rows take theirs.
  const pair = cores.slice(0, 2);
  type Measured = 'copyOne' | 'copyAll' | 'claims' | 'lines' | 'cmaSweep' | 'cmaColdSweep' | 'capacity';
  const requests: Array<{ key: Measured; what: string; req: NativeRequest }> = [
    {
      key: 'copyOne',
      what: 'memcpy bandwidth by working set, one core',
      req: { bench: 'memcpy', cores: [cores[0]], sizes: levels.map((l) => l.workingSet / 2), ...it },
    },
  ];
  if (chase)
    requests.push({
      key: 'capacity',
      what: `load latency across L${spec.caches[chase.cacheIndex].level}'s size`,
      req: { ...chase.req, sizes: chase.req.sizes.slice(0, -1) },
    });
  const cma = cores.length >= 2 ? probeNative(cores) : undefined;
  if (cores.length >= 2)
    requests.push(
      {
        key: 'copyAll',
        what: `memcpy from memory on ${cores.length} cores at once`,
        req: { bench: 'memcpy', cores, sizes: [levels[levels.length - 1].workingSet / 2], ...it },
      },
      {
        key: 'lines',
        what: 'a cache line passed between two cores',
        req: lineTripRequest(pair, it.iterations),
      },
      {
        key: 'claims',
        what: "stores into the double copy's ring just read by another core",
        req: claimsRingRequest(pair, it.iterations),
      },
    );
  // Over at least the cold cases' cache size, and long enough that no measured call comes back to a
  // copy an earlier call used: every call of the cold sweep reaches pages none reached before.
  const offCache = opts.offCacheBytes ?? cma?.llcBytes;
  const coldRotationBytes =
    offCache === undefined
      ? undefined
      : newPagesOffCache('onetoall', CMA_COLD_SIZES, 2, offCache, it.warmup + it.iterations);
  if (cma?.cma === 'ok')
    requests.push(
      {
        key: 'cmaSweep',
        what: 'CMA size sweep, one reader',
        req: { bench: 'onetoall', mech: 'cma-read', cores: pair, sizes: CMA_TRAINING_SIZES, cache: 'on', ...it },
      },
      {
        key: 'cmaColdSweep',
        what: 'CMA size sweep, one reader, cold',
        req: {
          bench: 'onetoall',
          mech: 'cma-read',
          cores: pair,
          sizes: CMA_COLD_SIZES,
          cache: 'off',
          llcBytes: coldRotationBytes,
          ...it,
        },
      },
    );
  const first = new Map<Measured, NativeRun>();
  // Not the test set's rounds: the fastest of more rounds more often catches a placement the test rows
  // rarely see (docs/validation.md, "What runs natively").
  const fastest = measureInRounds(DEFAULT_ROUNDS, requests, ({ key, what, req }, round) => {
    opts.progress(`training: ${what}${roundText(round, DEFAULT_ROUNDS)}`);
    const run = runNative(req);
    if (!first.has(key)) first.set(key, run);
    return run.results;
  });
  // Each measurement as its first run reported it, with every size's fastest round.
  const measured = new Map(requests.map(({ key }, i) => [key, { ...first.get(key)!, results: fastest[i] }]));
  let capacity: TrainingData['capacity'];
  if (chase && firstChase) {
    const over = capacityOverChases(firstChase, measured.get('capacity')!.results, chase.sizeBytes);
    capacity = { cacheIndex: chase.cacheIndex, ...over };
    // No loss in the fastest chases: the process got the whole cache at some moment, as detected.
    if (over.found) setCapacity(spec, chase.cacheIndex, over.found.bytes);
    else chase.detectedSizes.forEach((bytes, i) => (spec.caches[i].sizeBytes = bytes));
  }
  const data: TrainingData = {
    cores,
    capacity,
    levels,
    latency,
    copyOne: measured.get('copyOne')!.results,
    copyAll: measured.get('copyAll'),
    claims: measured.get('claims'),
    lines: measured.get('lines'),
    cma,
    cmaSweep: measured.get('cmaSweep'),
    cmaColdSweep: measured.get('cmaColdSweep'),
    coldRotationBytes,
    cmaReaders: [],
  };
  if (cma?.cma !== 'ok') return data;
  for (let n = 3; n <= Math.min(cores.length, 9); n++) {
    opts.progress(`training: CMA, ${n - 1} readers of one process`);
    data.cmaReaders.push(
      runNative({
        bench: 'onetoall',
        mech: 'cma-read',
        cores: cores.slice(0, n),
        sizes: [256 * KiB, 1 * MiB],
        cache: 'on',
        ...it,
      }),
    );
  }
  return data;
}
