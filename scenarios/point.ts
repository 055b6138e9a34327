// One point of a sweep: everything needed to simulate one algorithm at one size on one machine.
import type { MachineSpec } from '../hardware/spec.ts';
import type { ParamValue } from '../algorithms/algorithm.ts';
import { InputError, type InputLocation } from '../common/input-error.ts';
import type { RootChoice } from './scenario.ts';

export interface Point {
  scenario: string;
  /** The scenario's file, for errors that name it; absent for text loaded without one. */
  file?: string;
  machine: MachineSpec;
  /** Rank i runs on core cores[i] (OS index). */
  cores: number[];
  operation: string;
  /** Full algorithm name, "<operation>:<algorithm>". */
  algorithm: string;
  /** Where the scenario file names the algorithm; absent for one it does not name. */
  algorithmAt?: InputLocation;
  params: Record<string, ParamValue>;
  bytes: number;
  /** v-variants: per-rank (or per-pair) counts in units of `bytes`; absent: the operation's rule. */
  counts?: number[];
  /** 'all': every root in turn, each call timed (root: all). */
  root: RootChoice;
  /** 'off' makes every iteration start with cold caches, as IMB's -off_cache. */
  cache: 'on' | 'off';
  /** Present only as 'fresh': every call allocates new buffers (absent: reused). */
  buffers?: 'fresh';
  iterations: number;
  warmup: number;
  seed: string;
  /** Arrival skew (ns): each rank's start of each iteration is delayed by up to this much. */
  skewNs?: number;
  /** Present only as true: steady pipelines may run as trains (`--trains`). */
  trains?: true;
  /** Present only as true (`--exact`): simulate every call, even one that repeats an earlier call's state. */
  exact?: true;
}

export interface PointResult {
  /** Simulated time of one iteration: mean, min and max over the measured iterations (ns). */
  meanNs: number;
  minNs: number;
  maxNs: number;
  /** Share of rank-time spent in each kind of step (copy, syscall, pin, lock-wait, ...), summing to 1. */
  breakdown: Record<string, number>;
  /** Rank-time behind one reported time (ns), summed over ranks and kinds: a kind's share of it is
   *  the time the ranks spent in that kind of step in one call (in one transfer of a ping-pong, whose
   *  time is half its round trip). */
  rankTimeNs: number;
  /** Measured calls that started in an earlier call's state and were taken from it, of all measured calls. */
  replayed?: { calls: number; of: number };
  /** Memory the library allocated by the end of the first call beyond the operation's own buffers
   *  (bytes): the transports' shared segments and the algorithm's temporaries (harness/simulate.ts). */
  libraryBytes: number;
}

export type PointRunner = (point: Point) => PointResult;

/**
 * Thrown by a PointRunner when the machine lacks what the algorithm needs (a kernel mechanism
 * such as KNEM): the cell prints n/a with this message under the table, or, with `--strict`, the
 * run stops with it as any invalid input.
 */
export class UnavailableError extends InputError {
  override name = 'UnavailableError';
}
