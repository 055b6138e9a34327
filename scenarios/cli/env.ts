// Everything the CLI touches outside itself, injectable so tests capture output and substitute
// the simulator and the hardware layer.
import type { MachineSpec } from '../../hardware/spec.ts';
import type { PointRunner } from '../point.ts';

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
  listPresets(): { name: string; description: string }[];
  renderMachine(spec: MachineSpec): string;
}

export interface CliEnv {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTTY: boolean;
  /** Milliseconds, for the progress bar's one-second delay. */
  now: () => number;
  cwd: string;
  /** Fills the algorithm registry. */
  loadAlgorithms: () => Promise<void>;
  loadRunner: () => Promise<PointRunner>;
  loadHardware: () => Promise<Hardware>;
}

export function defaultEnv(): CliEnv {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    now: () => performance.now(),
    cwd: process.cwd(),
    // Loaded on demand: `--help` should not pay for every algorithm module, and tests replace them.
    loadAlgorithms: async () => {
      await import('../../algorithms/index.ts');
    },
    loadRunner: async () => (await import('../simulate-point.ts')).simulatePoint,
    loadHardware: async () => await import('../../hardware/index.ts'),
  };
}
