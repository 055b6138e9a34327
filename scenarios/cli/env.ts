// Everything the CLI touches outside itself, injectable so tests capture output and substitute
// the simulator and the hardware layer.
import type { Listing } from '../../algorithms/listing.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { existsSync, realpathSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { PointRunner } from '../point.ts';
import type { PointBatchRunner } from '../run.ts';
import type { TracedRunner } from '../trace/trace-file.ts';

export interface ResolveOptions {
  /** Relative machine paths are taken from here. */
  baseDir?: string;
  /** Which machine of an hwloc file that holds several (`--hwloc-machine`). */
  hwlocMachine?: number;
}

/** The resolver option for `--hwloc-machine`, empty when the flag is not given. */
export function hwlocChoice(hwlocMachine: number | undefined): Pick<ResolveOptions, 'hwlocMachine'> {
  return hwlocMachine === undefined ? {} : { hwlocMachine };
}

export interface Hardware {
  resolveMachine(ref: string, opts?: ResolveOptions): MachineSpec;
  renderMachine(spec: MachineSpec): string;
}

export interface CliEnv {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTTY: boolean;
  /** Milliseconds, for the progress bar's one-second delay. */
  now: () => number;
  cwd: string;
  /** The catalogue of operations and algorithms (loaded on demand). */
  loadAlgorithms: () => Promise<Listing>;
  loadRunner: () => Promise<PointRunner>;
  /** The simulator keeping every step and load, for `run --trace`. */
  loadTracer: () => Promise<TracedRunner>;
  /** Points run at once when `--jobs` is not given. */
  defaultJobs: number;
  /** The simulator on `jobs` worker threads (used instead of loadRunner's when jobs > 1). */
  loadWorkers: (jobs: number) => Promise<PointBatchRunner>;
  loadHardware: () => Promise<Hardware>;
  /** The presets' names and descriptions (`intranode machines`), without loading the hardware layer. */
  listPresets: () => Promise<{ name: string; description: string }[]>;
  /** Absolute path of the `intranode` launcher, for scripts that run it again (`intranode slurm`). */
  launcher: string;
}

export function defaultEnv(): CliEnv {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    now: () => performance.now(),
    cwd: process.cwd(),
    // Loaded on demand: `--help` should not pay for every algorithm module, and tests replace them.
    loadAlgorithms: async () => (await import('../../algorithms/catalogue.ts')).catalogue,
    loadRunner: async () => (await import('../simulate-point.ts')).simulatePoint,
    loadTracer: async () => (await import('../simulate-point.ts')).simulatePointTraced,
    defaultJobs: availableParallelism(),
    loadWorkers: async (jobs) => {
      // One pool for the command: its workers load and warm up once, however many sweeps it runs.
      const { PointPool } = await import('../workers/point-pool.ts');
      const pool = new PointPool(jobs);
      return (points, settle) => pool.run(points, settle);
    },
    loadHardware: async () => await import('../../hardware/index.ts'),
    listPresets: async () => {
      const lines = (await import('../../hardware/preset-list.ts')).presetLines();
      // A description only the YAML reader reads right is the loaded machine's.
      if (lines.some((p) => p.description === undefined))
        return (await import('../../hardware/presets.ts')).listPresets();
      return lines.map(({ name, description }) => ({ name, description: description! }));
    },
    launcher: launcherPath(),
  };
}

/** bin/intranode.mjs: beside the sources, or (from a build in dist/, which has no bin/) the script node ran. */
function launcherPath(): string {
  const beside = fileURLToPath(new URL('../../bin/intranode.mjs', import.meta.url));
  if (existsSync(beside)) return beside;
  return process.argv[1] ? realpathSync(process.argv[1]) : beside;
}
