// A scenario after loading and validation: every name resolved, every size in bytes, every
// machine a MachineSpec. Expansion and reporters read only this.
import type { MachineSpec } from '../hardware/spec.ts';
import type { ParamValue } from '../algorithms/algorithm.ts';
import type { InputLocation } from '../common/input-error.ts';

/**
 * `compact`, `scatter`, `random` (a seeded shuffle), or rank i on list[i]: a core (OS index; its
 * first hardware thread) or one hardware thread of a core.
 */
export type PlacementSpec = 'compact' | 'scatter' | 'random' | PlacedOn[];

/** A hardware thread: thread `thread` (from 0) of core `core` (OS index of its first thread). */
export interface HardwareThread {
  core: number;
  thread: number;
}

export type PlacedOn = number | HardwareThread;

export interface ScenarioAlgorithm {
  /** Full catalogue name, "<operation>:<algorithm>". */
  name: string;
  /** Column title in reports; unique within the scenario. */
  label: string;
  /** Every parameter of the algorithm: the scenario's values over the catalogue defaults. */
  params: Record<string, ParamValue>;
  /** Where the scenario file names it, for errors about it that only a run finds (`--strict`). */
  at?: InputLocation;
}

export interface MachineChoice {
  /** As written in the scenario (or on the command line). */
  ref: string;
  spec: MachineSpec;
  /** A variant of a machine-parameter sweep: the parameters it changes, in the sweep's order. */
  parameters?: MachineParameter[];
}

/** One swept machine parameter of a variant: its path (`links.*.bandwidth`), value, and value as written. */
export interface MachineParameter {
  path: string;
  /** In the model's unit (bytes, ns, GB/s...). */
  value: number | string | boolean;
  shown: string;
}

export interface Scenario {
  name: string;
  description: string;
  /** Path of the scenario file, absent for text loaded without one. */
  file?: string;
  operation: string;
  /** Whether the operation has a root rank (from the catalogue); `root` means nothing otherwise. */
  rooted: boolean;
  algorithms: ScenarioAlgorithm[];
  /** Ascending, without repeats. */
  sizes: number[];
  /** Root rank of a rooted operation, or 'all': every root in turn, the time the mean over them. The first of `rootSweep` when swept. */
  root: RootChoice;
  /** `sweep.root` of more than one value: one table per root (between the rank-count and seed axes). */
  rootSweep?: RootChoice[];
  /** v-variants: counts in units of each size, one per rank (per pair for alltoallv). */
  counts?: number[];
  /** v-variants: whether counts are per rank or per sender and receiver (absent: not a v-variant). */
  countsKind?: 'per-rank' | 'per-pair';
  cache: 'on' | 'off';
  /** 'fresh': every call allocates new buffers, paying first-touch faults and registrations again. */
  buffers: BufferMode;
  iterations: number;
  warmup: number;
  /** `--exact`: every call simulated, none taken from an earlier call in the same state. */
  exact?: boolean;
  /** Drives `placement: random` and the arrival skew; nothing else in the model is random. The first of `seedSweep` when swept. */
  seed: string;
  /** `sweep.seed` of more than one value: one table per seed (the innermost axis). */
  seedSweep?: string[];
  /**
   * `sweep.railShare`: one table per share of each message between hosts sent on the first NIC,
   * taken by every algorithm with `rails: share` (between the root and seed axes). Even one value.
   */
  railShareSweep?: number[];
  /** Each rank starts each iteration up to this late (ns), drawn from the seed; absent or 0: lockstep. */
  skewNs?: number;
  /** `intranode run --trains`: steady pipelines may advance many chunks in one step. */
  trains?: boolean;
  /** Label of the algorithm the others are normalised against. */
  baseline: string;
  /** Sweep axes: one table per combination, machine outermost, then placement, ranks, seed. A fixed value is a one-element list. */
  machines: MachineChoice[];
  /** `sweep.machine.*` paths (without `machine.`), in the sweep's order: each machine's variants are its tables. */
  machineParameters?: string[];
  /** Set when `--machine` replaced the scenario's machines: the references the file gives (empty if none). */
  replacedMachines?: string[];
  placements: PlacementSpec[];
  /** `smt: on`: named placements and `ranks: all` use every hardware thread, not only each core's first. */
  smt: boolean;
  /** 'all': one rank on every core of the machine. */
  ranks: RankCount[];
}

export type RankCount = number | 'all';

export type BufferMode = 'reused' | 'fresh';

/** A root rank, or 'all': the operation is called from every root in turn (applications cycle them). */
export type RootChoice = number | 'all';

export function rootName(root: RootChoice): string {
  return root === 'all' ? 'all (mean over every root in turn)' : String(root);
}

/** `all` is every core, or with SMT every hardware thread. */
export function rankCount(ranks: RankCount, machine: MachineSpec, smt = false): number {
  if (ranks !== 'all') return ranks;
  return smt ? machine.cores.reduce((n, c) => n + c.threads, 0) : machine.cores.length;
}

/** A hardware thread as reports name it: "core.thread". */
export function threadName(t: HardwareThread): string {
  return `${t.core}.${t.thread}`;
}

export function placementName(p: PlacementSpec): string {
  return typeof p === 'string'
    ? p
    : `[${p.map((e) => (typeof e === 'number' ? String(e) : threadName(e))).join(', ')}]`;
}

/** A variant's swept parameters as reports print them: `links.*.bandwidth = 5GB/s, ...`, values as written. */
export function parametersText(parameters: readonly MachineParameter[]): string {
  return parameters.map((p) => `${p.path} = ${p.shown}`).join(', ');
}
