// Calibration: detect the host, measure the training set natively, fit the model's constants
// (fit/constants.ts, in order) and describe the result as a machine file.
import type { MachineSpec } from '../hardware/spec.ts';
import { validateMachine } from '../hardware/validate.ts';
import { FITTED_CONSTANTS, unfitted, type FittedValue } from './fit/constants.ts';
import { shareOuterCache } from './fit/shared-cache.ts';
import { writeMachineFile } from './machine-writer.ts';
import { measureTraining, type TrainingData } from './training.ts';

export interface Calibration {
  spec: MachineSpec;
  fitted: FittedValue[];
  /** Constants left at their import defaults, and why. */
  unfitted: string[];
  data: TrainingData;
  /** Mechanisms the host was found to lack or refuse, with the reason. */
  notes: string[];
}

export interface CalibrateOptions {
  cores: number[];
  iterations: number;
  /** The cache size the cold training's rotation exceeds twice (--off-cache); the backend's
   *  detection when absent. */
  offCacheBytes?: number;
  progress: (what: string) => void;
}

export function calibrate(detected: MachineSpec, opts: CalibrateOptions): Calibration {
  const spec = structuredClone(detected);
  const data = measureTraining(spec, opts.cores, opts);
  return fitTraining(spec, data, opts.progress);
}

/** The fits of a calibration, on the spec the training was measured with (which they change, as
 *  they may change the data's cache indices: fit/shared-cache.ts), from its measurements. */
export function fitTraining(spec: MachineSpec, data: TrainingData, progress: (what: string) => void): Calibration {
  const notes: string[] = [];
  const fitted: FittedValue[] = [];
  if (data.cma && data.cma.cma !== 'ok') {
    spec.kernel.mechanisms.cma = false;
    notes.push(
      `CMA refused by the kernel (${data.cma.cma}: ${data.cma.cmaError}); the machine file marks it absent and validation runs the shared-memory cases only`,
    );
    fitted.push({
      field: 'kernel.mechanisms',
      value: 'cma refused',
      source: `measured: process_vm_readv between two ranks failed with ${data.cma.cma}`,
    });
  } else if (data.cma) {
    spec.kernel.mechanisms.cma = true;
    fitted.push({
      field: 'kernel.mechanisms',
      value: 'cma works',
      source: 'detected: sysfs; CMA measured working between two ranks',
    });
  }
  // Which caches the cores share decides how a line travels between them, which several fits below
  // go through (the peer latency, the double copy's ownership claims): it comes first.
  const sharing = shareOuterCache(spec, data);
  if (sharing) fitted.push(sharing);
  // What the fits compare with where a measurement cannot move the model: the values detected or
  // defaulted, not those an earlier pass left.
  const initial = structuredClone(spec);
  // Each fit holds the other constants where they are, but a copy's time goes through every bound
  // the model applies, so the fits depend on one another (the L3 copy on the core's copy bandwidth
  // fitted after it): a first pass brings every constant near its value, the second fits each with
  // the others settled and is the one reported.
  for (const pass of [1, 2]) {
    const round: FittedValue[] = [];
    for (const c of FITTED_CONSTANTS) {
      progress(`fitting${pass === 1 ? ' (first pass)' : ''}: ${c.name}`);
      round.push(...c.fit(spec, data, initial));
    }
    if (pass === 2) fitted.push(...round);
  }
  // Cited beside the model's constants, as presets cite their machine's measurements.
  const memory = data.copyOne[data.copyOne.length - 1];
  const bytes = data.levels[data.levels.length - 1].workingSet / 2;
  spec.measured = { oneCoreCopy: Number((bytes / memory.medianNs).toPrecision(4)) };
  fitted.push({
    field: 'measured.oneCoreCopy',
    value: spec.measured.oneCoreCopy!,
    source: `measured: one core's memcpy of ${bytes / 2 ** 20} MiB on core ${data.cores[0]}, median of ${memory.samples} (the model does not read it)`,
    kept: true,
  });
  spec.origin = 'intranode calibrate';
  const covered = coveredPaths(spec, fitted);
  spec.guessed = spec.guessed.filter((g) => !covered.has(g));
  validateMachine(spec);
  return { spec, fitted, unfitted: unfitted(data), data, notes };
}

/** The concrete spec paths a fitted field covers: `caches[L2].bandwidth` is every level-2 cache's. */
export function coveredPaths(spec: MachineSpec, fitted: FittedValue[]): Set<string> {
  const out = new Set<string>();
  for (const f of fitted.filter((v) => !v.kept)) {
    const level = /^caches\[L(\d+)\]\.(\w+)$/.exec(f.field);
    const numa = /^numaNodes\[\*\]\.(\w+)$/.exec(f.field);
    if (level) spec.caches.forEach((c, i) => c.level === Number(level[1]) && out.add(`caches[${i}].${level[2]}`));
    else if (numa) spec.numaNodes.forEach((_, i) => out.add(`numaNodes[${i}].${numa[1]}`));
    else if (f.field === 'kernel.mechanisms') out.add('kernel.mechanisms.cma');
    else out.add(f.field);
  }
  return out;
}

export function calibrationFile(cal: Calibration, via: string, command: string): string {
  const byField = new Map(cal.fitted.map((f) => [f.field, f.source]));
  const header = [
    `Machine file written by \`${command}\` on this host (detected via ${via}).`,
    'Each fitted constant names the training measurement it came from (native-validate/fit/constants.ts',
    '  lists the fits and their procedure). Not fitted here:',
    ...cal.unfitted.map((u) => `  - ${u}`),
    ...cal.notes,
  ];
  return writeMachineFile(cal.spec, (field) => byField.get(field), header);
}
