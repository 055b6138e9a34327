// Validation: measure each case natively, predict it with the simulator on the calibrated machine,
// and report both with the relative error; the training cases' residuals are listed too, marked.
import type { MachineSpec } from '../hardware/spec.ts';
import { runNative, type NativeStats } from './backend.ts';
import type { Calibration } from './calibrate.ts';
import type { ValidationCase } from './cases.ts';
import { modelCopyNs } from './fit/model-copy.ts';
import { modelAlgorithm, predictNs } from './predict.ts';

export interface Row {
  set: 'training' | 'test';
  /** What ran, e.g. `bcast cma-linear`, `memcpy L2`, `MPI_Bcast tuned cma`. */
  name: string;
  /** The mechanism the row exercises, for the per-mechanism summary: shm, cma, memory, mpi-... */
  mechanism: string;
  ranks: number;
  bytes: number;
  measured: NativeStats;
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

export interface MeasureOptions {
  iterations: number;
  progress: (what: string) => void;
}

export function caseRows(spec: MachineSpec, cases: ValidationCase[], opts: MeasureOptions): Row[] {
  const rows: Row[] = [];
  for (const c of cases) {
    const algorithm = modelAlgorithm(c.bench, c.mech);
    const label = algorithm ? algorithm.replace(':', ' ') : `${c.bench} ${c.mech}`;
    opts.progress(`${c.set}: ${label} on ${c.cores.length} ranks, native`);
    const run = runNative({
      bench: c.bench,
      mech: c.mech,
      cores: c.cores,
      sizes: c.sizes,
      cache: c.cache,
      iterations: opts.iterations,
      warmup: 2,
    });
    opts.progress(`${c.set}: ${label} on ${c.cores.length} ranks, simulated`);
    for (const m of run.results) {
      rows.push(
        row(
          {
            set: c.set,
            name: label,
            mechanism: c.mech === 'shm' ? 'shm' : 'cma',
            ranks: c.cores.length,
            bytes: m.bytes,
            measured: m,
          },
          algorithm ? predictNs(spec, algorithm, c.cores, m.bytes, c.cache) : undefined,
        ),
      );
    }
  }
  return rows;
}
