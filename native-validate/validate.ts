// Validation: measure each case natively, predict it with the simulator on the calibrated machine,
// and report both with the relative error; the training cases' residuals are listed too, marked.
import type { MachineSpec } from '../hardware/spec.ts';
import { runNative } from './backend.ts';
import type { Calibration } from './calibrate.ts';
import type { ValidationCase } from './cases.ts';
import { modelClaimsNs } from './fit/model-claims.ts';
import { modelCopyNs } from './fit/model-copy.ts';
import { machineOf, type OtherPlacement } from './placements.ts';
import { modelAlgorithm, nativeRotation, newPagesOffCache, predictNs } from './predict.ts';
import { measureInRounds, roundText, type InPlacement, type RoundedStats } from './rounds.ts';

export interface Row {
  /** `probe`: measured beside a test case to show what one library setting does to it; neither
   *  fitted on nor counted in the test set's error (mpi/run-mpi.ts, fragmentProbes). */
  set: 'training' | 'test' | 'probe';
  /** What ran, e.g. `bcast cma-linear`, `memcpy L2`, `MPI_Bcast tuned cma`. */
  name: string;
  /** The mechanism the row exercises, for the per-mechanism summary: shm, cma, memory, mpi-... */
  mechanism: string;
  ranks: number;
  bytes: number;
  measured: RoundedStats;
  /** Simulator prediction (ns); absent when the model has no counterpart. */
  predictedNs?: number;
  /** (predicted - measured) / measured, in %. */
  errorPct?: number;
}

export function errorPct(predicted: number, measured: number): number {
  return ((predicted - measured) / measured) * 100;
}

export function row(base: Omit<Row, 'errorPct' | 'predictedNs'>, predictedNs: number | undefined): Row {
  return predictedNs === undefined
    ? base
    : { ...base, predictedNs, errorPct: errorPct(predictedNs, base.measured.medianNs) };
}

export function trainingRows(cal: Calibration): Row[] {
  const rows: Row[] = [];
  const { data, spec } = cal;
  data.levels.forEach((level, i) => {
    const bytes = level.workingSet / 2;
    rows.push(
      row(
        {
          set: 'training',
          name: `memcpy ${level.name}`,
          mechanism: 'memory',
          ranks: 1,
          bytes,
          measured: data.copyOne[i],
        },
        modelCopyNs(spec, [data.cores[0]], bytes),
      ),
    );
  });
  if (data.copyAll) {
    const m = data.copyAll.results[0];
    rows.push(
      row(
        {
          set: 'training',
          name: 'memcpy memory',
          mechanism: 'memory',
          ranks: data.copyAll.ranks,
          bytes: m.bytes,
          measured: m,
        },
        modelCopyNs(spec, data.copyAll.cores, m.bytes),
      ),
    );
  }
  if (data.claims) {
    const m = data.claims.results[0];
    rows.push(
      row(
        { set: 'training', name: 'claims ring', mechanism: 'shm', ranks: 2, bytes: m.bytes, measured: m },
        modelClaimsNs(spec, data.claims.cores, m.bytes),
      ),
    );
  }
  for (const run of [...(data.cmaSweep ? [data.cmaSweep] : []), ...data.cmaReaders]) {
    for (const m of run.results)
      rows.push(
        row(
          { set: 'training', name: 'onetoall cma', mechanism: 'cma', ranks: run.ranks, bytes: m.bytes, measured: m },
          predictNs(spec, 'onetoall:cma', run.cores, m.bytes, 'on'),
        ),
      );
  }
  return rows;
}

/** Calls every native case makes before its measured ones. */
const NATIVE_WARMUP = 2;

export interface MeasureOptions {
  iterations: number;
  /** Times the whole list of cases runs; each case reports its fastest round (rounds.ts), among
   *  the rounds `inPlacement` accepts where it is given. */
  rounds: number;
  /** The rounds that ran with the cores placed as the constants were fitted in, where known: each
   *  case's fastest round is taken among them (rounds.ts). */
  inPlacement?: InPlacement;
  /** The host's other placement (placements.ts): a case none of whose rounds ran in the fitted one
   *  takes its fastest round among those that ran in this one, predicted on its machine. */
  other?: OtherPlacement;
  /** The cache size every cache-off case's rotation exceeds twice (offCache in cli.ts). */
  offCacheBytes: number;
  progress: (what: string) => void;
}

export function caseRows(spec: MachineSpec, cases: ValidationCase[], opts: MeasureOptions): Row[] {
  const algorithms = cases.map((c) => modelAlgorithm(c.bench, c.mech));
  const labels = cases.map((c, i) => algorithms[i]?.replace(':', ' ') ?? `${c.bench} ${c.mech}`);
  const measured = measureInRounds(
    opts.rounds,
    [...cases.keys()],
    (i, round) => {
      const c = cases[i];
      opts.progress(`${c.set}: ${labels[i]} on ${c.cores.length} ranks, native${roundText(round, opts.rounds)}`);
      return runNative({
        bench: c.bench,
        mech: c.mech,
        cores: c.cores,
        sizes: c.sizes,
        cache: c.cache,
        llcBytes: opts.offCacheBytes,
        iterations: opts.iterations,
        warmup: NATIVE_WARMUP,
      }).results;
    },
    opts,
  );
  const rows: Row[] = [];
  cases.forEach((c, i) => {
    const algorithm = algorithms[i];
    opts.progress(`${c.set}: ${labels[i]} on ${c.cores.length} ranks, simulated`);
    for (const m of measured[i]) {
      rows.push(
        row(
          {
            set: c.set,
            name: labels[i],
            mechanism: c.mech === 'shm' ? 'shm' : 'cma',
            ranks: c.cores.length,
            bytes: m.bytes,
            measured: m,
          },
          algorithm
            ? predictNs(machineOf(spec, opts.other, m), algorithm, c.cores, m.bytes, c.cache, {
                calls: {
                  iterations: opts.iterations,
                  warmup: NATIVE_WARMUP,
                  rotation: nativeRotation(c.bench, m.bytes, c.cores.length, opts.offCacheBytes),
                },
              })
            : undefined,
        ),
      );
    }
  });
  return rows;
}

/** Buffer orders the cold-order probe compares: IMB's, which every test case uses, and shuffled. */
const ORDERS = ['sequential', 'shuffled'] as const;

/**
 * How cold IMB's cold is: the basic broadcast without single copy at the two smallest test sizes,
 * its rotation buffers taken one after another (as every test case takes them) and in a fixed
 * shuffled order, beside the model's cold prediction. The hardware prefetchers can follow a
 * constant stride from one iteration to the next; a shuffled order leaves them nothing to follow.
 * Probe rows count in no summary.
 */
export function coldOrderRows(spec: MachineSpec, cores: number[], sizes: number[], opts: MeasureOptions): Row[] {
  const probed = [...sizes].sort((a, b) => a - b).slice(0, 2);
  const pair = cores.slice(0, 2);
  const measured = measureInRounds(
    opts.rounds,
    ORDERS,
    (order, round) => {
      opts.progress(`probe: bcast basic, cold buffers in ${order} order, native${roundText(round, opts.rounds)}`);
      return runNative({
        bench: 'bcast',
        mech: 'shm',
        cores: pair,
        sizes: probed,
        cache: 'off',
        llcBytes: opts.offCacheBytes,
        order,
        iterations: opts.iterations,
        warmup: NATIVE_WARMUP,
      }).results;
    },
    opts,
  );
  // The model's buffers are cold in no order: one prediction per size and machine serves both orders.
  const predicted = new Map<string, number>();
  const predict = (m: RoundedStats) => {
    const machine = machineOf(spec, opts.other, m);
    const key = `${m.bytes} ${machine === spec ? 'fitted' : 'other'}`;
    if (!predicted.has(key)) predicted.set(key, predictNs(machine, 'bcast:basic', pair, m.bytes, 'off'));
    return predicted.get(key);
  };
  return ORDERS.flatMap((order, i) =>
    measured[i].map((m) =>
      row(
        { set: 'probe', name: `bcast basic, ${order} order`, mechanism: 'shm', ranks: 2, bytes: m.bytes, measured: m },
        predict(m),
      ),
    ),
  );
}

/** Sizes the first-access probe reads: two of the training's cold CMA sweep (training.ts). */
const FIRST_ACCESS_SIZES = [64 * 1024, 1024 * 1024];
/** The probe's two ways to take cold buffers: each measured call a copy of the buffers no call used
 *  before, or the rotation already come round once, every page reached by an earlier call. */
const ROTATIONS = ['new pages', 'pages reached before'] as const;

/**
 * How much the kernel's first access to a page through the reader's mapping costs (sim/kernel/
 * user-access.ts): one reader of one process over CMA, cold, its buffers rotated over more than twice
 * the off-cache size in both ways (more where the calls would otherwise come back to a copy), with
 * the warm-up calls either the usual two (every measured call reaches pages no call reached) or a
 * whole rotation (every measured call reaches pages its copy reached one turn before; the caches
 * are as cold, the rotation exceeding them).
 * Each way predicted with its own calls. Probe rows count in no summary.
 */
export function firstAccessRows(spec: MachineSpec, cores: number[], opts: MeasureOptions): Row[] {
  const pair = cores.slice(0, 2);
  const calls = NATIVE_WARMUP + opts.iterations;
  const ways = ROTATIONS.flatMap((way) =>
    FIRST_ACCESS_SIZES.map((bytes) => {
      // Over at least the cold cases' cache size, and long enough that no measured call of the first
      // way comes back to a copy an earlier call used.
      const offCache = newPagesOffCache('onetoall', [bytes], 2, opts.offCacheBytes, calls);
      const rotation = nativeRotation('onetoall', bytes, 2, offCache);
      return { way, bytes, offCache, rotation, warmup: way === 'new pages' ? NATIVE_WARMUP : rotation };
    }),
  );
  const measured = measureInRounds(
    opts.rounds,
    ways,
    ({ way, bytes, offCache, warmup }, round) => {
      opts.progress(`probe: CMA one reader, cold, ${way}, ${bytes} B, native${roundText(round, opts.rounds)}`);
      return runNative({
        bench: 'onetoall',
        mech: 'cma-read',
        cores: pair,
        sizes: [bytes],
        cache: 'off',
        llcBytes: offCache,
        iterations: opts.iterations,
        warmup,
      }).results;
    },
    opts,
  );
  return ways.flatMap(({ way, rotation, warmup }, i) =>
    measured[i].map((m) =>
      row(
        { set: 'probe', name: `onetoall cma, cold, ${way}`, mechanism: 'cma', ranks: 2, bytes: m.bytes, measured: m },
        predictNs(machineOf(spec, opts.other, m), 'onetoall:cma', pair, m.bytes, 'off', {
          calls: { iterations: opts.iterations, warmup, rotation },
        }),
      ),
    ),
  );
}

/** Sizes the target-in-the-kernel probe reads: a page, and sixteen. */
const TARGET_WAIT_SIZES = [4096, 64 * 1024];
/** How the probe's target waits for its reader: polling its mailbox, as every case's ranks wait,
 *  or making system calls between polls, as a rank in a system call of its own would be. */
const TARGET_WAITS = ['polling', 'syscalls'] as const;

/**
 * Whether a CMA read costs more while the process it reads is in the kernel: one reader of one
 * process, warm, the target waiting for the reader's notice either by polling its mailbox or by
 * making system calls (getpid) between polls, each iteration timed to the reader's end (not to the
 * target's seeing the notice, which system calls would delay). The model's CMA read costs the same
 * whatever its target does, and its one-to-all ends when the root has the notice, so these rows
 * carry no prediction. Probe rows count in no summary.
 */
export function targetInKernelRows(cores: number[], opts: MeasureOptions): Row[] {
  const pair = cores.slice(0, 2);
  const measured = measureInRounds(
    opts.rounds,
    TARGET_WAITS,
    (wait, round) => {
      opts.progress(`probe: CMA one reader, warm, the target ${wait}, native${roundText(round, opts.rounds)}`);
      return runNative({
        bench: 'onetoall',
        mech: 'cma-read',
        cores: pair,
        sizes: TARGET_WAIT_SIZES,
        cache: 'on',
        rootWaits: wait,
        iterations: opts.iterations,
        warmup: NATIVE_WARMUP,
      }).results;
    },
    opts,
  );
  return TARGET_WAITS.flatMap((wait, i) =>
    measured[i].map((m) =>
      row(
        {
          set: 'probe',
          name: `onetoall cma, warm, target ${wait === 'polling' ? 'polling' : 'in system calls'}`,
          mechanism: 'cma',
          ranks: 2,
          bytes: m.bytes,
          measured: m,
        },
        undefined,
      ),
    ),
  );
}
