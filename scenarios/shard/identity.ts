// What makes two shards parts of the same sweep: the scenario's text, the command-line options that
// change results, and the points themselves (which also cover a machine file the scenario names).
import { createHash } from 'node:crypto';
import type { Point } from '../point.ts';

export interface ShardRunOptions {
  /** Where relative paths of the run (the scenario, --machine FILE) were taken from. */
  cwd: string;
  /** The scenario file as given (relative to cwd, so that errors and reports name it as the user did). */
  file: string;
  machine?: string;
  seed?: string;
  hwlocMachine?: number;
  /** `--exact`: every call simulated (steady-state replay off). */
  exact?: boolean;
}

export function sweepIdentity(text: string, run: ShardRunOptions, points: Point[]): string {
  const { machine, seed, hwlocMachine } = run;
  // A point names its scenario file (and places in it) as the command was given it. Shards run as
  // `study.yaml`, `./study.yaml` or from another folder are parts of one sweep: the scenario file
  // counts by its text. The machines it resolves to count by the points' other fields, a machine
  // file's path (its spec's origin) among them.
  const withoutPaths = (key: string, value: unknown) => (key === 'file' ? undefined : value);
  // --exact is in the points.
  return createHash('sha256')
    .update(JSON.stringify({ text, machine, seed, hwlocMachine, points }, withoutPaths))
    .digest('hex');
}
