// Runs one point-to-point benchmark through the harness with few iterations, and reads shares of
// the breakdown, for the p2p tests.
import { runAlgorithm, type RunOutcome } from '../../algorithms/harness/simulate.ts';
import type { ParamValue } from '../../algorithms/algorithm.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import { collectiveNames } from '../../algorithms/collectives/ops.ts';
import { loadPreset } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';

/** Every catalogued operation that is not a collective: the point-to-point benchmarks. */
export function p2pBenchmarkOperations(): string[] {
  return catalogue
    .listOperations()
    .map((o) => o.name)
    .filter((name) => !collectiveNames.has(name));
}

export interface Run {
  machine: MachineSpec | string;
  cores: number[];
  algorithm: string;
  bytes: number;
  params?: Record<string, ParamValue>;
  cache?: 'on' | 'off';
  iterations?: number;
  /** Keep every trace event (copies with their bounding resource), not only per-kind totals. */
  keepTrace?: boolean;
}

const presets = new Map<string, MachineSpec>();
function machine(m: MachineSpec | string): MachineSpec {
  if (typeof m !== 'string') return m;
  let spec = presets.get(m);
  if (!spec) presets.set(m, (spec = loadPreset(m)));
  return spec;
}

export function run(r: Run): RunOutcome {
  return runAlgorithm({
    machine: machine(r.machine),
    cores: r.cores,
    algorithm: r.algorithm,
    call: { bytes: r.bytes, root: 0, params: r.params ?? {} },
    cache: r.cache ?? 'off',
    iterations: r.iterations ?? 2,
    warmup: 1,
    seed: 'p2p',
    keepTrace: r.keepTrace,
  });
}

/** Mean reported time of one iteration (ns). */
export function time(r: Run): number {
  const { times } = run(r);
  return times.reduce((a, b) => a + b, 0) / times.length;
}

/** Share of rank-time spent in the given kinds of step. */
export function share(totals: Record<string, number>, kinds: string[]): number {
  const all = Object.values(totals).reduce((a, b) => a + b, 0);
  return kinds.reduce((s, k) => s + (totals[k] ?? 0), 0) / all;
}
