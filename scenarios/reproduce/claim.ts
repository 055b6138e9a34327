// A claim of a seed paper as data: what the paper says, how the simulated value is computed from
// one scenario run, the published value with its tolerance, and what is expected today.
import type { MissingParts } from './missing-figures.ts';

/** Where a claim (or one of its fields) is written, for errors that point at it. */
export interface ClaimLocation {
  file: string;
  line: number;
}

/** A size interval of the paper, both ends included; a claim over it needs the scenario to reach both. */
export interface SizeSpan {
  from: number;
  to: number;
}

/** Sizes a measure looks at: one size, or every size of the scenario inside a span. */
export type SizeChoice = { at: number } | { over: SizeSpan };

/**
 * How the simulated value is computed. Times are mean times per iteration of the named labels
 * (algorithm columns of the scenario) at the same size.
 * - ratio: time(of) / time(to), at one size, or the min or max over a span ("up to 46 % less").
 * - ratio-range: time(of) / time(to) at every size of a span, each inside the published interval.
 * - ordering: `faster` takes at most (1 + tolerance) x the time of each of `than`, at every size.
 * - crossover: the smallest size of the span from which `winner` is at least as fast as `loser`
 *   at every larger size.
 * - best-param: at every size, the fastest of `among` is one of the published labels, or one of
 *   them is within (1 + tolerance) of it.
 * - spread: the slowest of `among` over the fastest, worst size of the span.
 * - share: the share of `of`'s rank-time in the breakdown categories `category` (summed).
 * - growth: how time grows with the rank count across the scenario's tables (a ranks sweep):
 *   log(t(Nmax) / t(Nmin)) / log(Nmax / Nmin); 0 for O(T), 1 for O(NT). With `quantity: memory`,
 *   how the memory the library allocates grows instead; with `over` instead of `at`, how it grows
 *   with the message size from the span's first size to its last, in one table.
 * - memory: the most memory the library allocates, beyond the operation's own buffers, in any
 *   table of the scenario at one size (bytes).
 * - difference: time(of) - time(to) at one size, in ns.
 * - ratio-gap: the same reduced ratio in two scenarios, `against`'s minus this claim's ("scatter
 *   gains more than gather": the gather ratio minus the scatter ratio), on the same machine and ranks.
 * - unsupported: the model cannot express the claim at all; it fails with its `missing` text.
 */
export type Measure =
  | ({ kind: 'ratio'; of: string; to: string; reduce: 'min' | 'max' } & SizeChoice)
  | { kind: 'ratio-range'; of: string; to: string; over: SizeSpan }
  | { kind: 'ordering'; faster: string; than: string[]; over: SizeSpan }
  | { kind: 'crossover'; winner: string; loser: string; over: SizeSpan }
  | ({ kind: 'best-param'; among: string[] } & SizeChoice)
  | { kind: 'spread'; among: string[]; over: SizeSpan }
  | ({ kind: 'share'; of: string; category: string[]; reduce: 'min' | 'max' } & SizeChoice)
  | ({ kind: 'growth'; of: string; quantity: 'time' | 'memory' } & SizeChoice)
  | { kind: 'memory'; of: string; at: number }
  | { kind: 'difference'; of: string; to: string; at: number }
  | ({ kind: 'ratio-gap'; of: string; to: string; reduce: 'min' | 'max'; against: string } & SizeChoice)
  | { kind: 'unsupported' };

export type MeasureKind = Measure['kind'];

/** The published value: a number, an interval, or a bound; a size for crossovers; labels for best-param. */
export type Published =
  { kind: 'interval'; lo: number; hi: number } | { kind: 'labels'; labels: string[] } | { kind: 'none' };

/**
 * How far the simulated value may be from the published one: `absolute` widens an interval by a
 * number in the value's unit; `factor` by a multiplicative factor (sizes); `relative` is the
 * margin an ordering or a best-param choice may miss by.
 */
export type Tolerance =
  { kind: 'absolute'; value: number } | { kind: 'factor'; value: number } | { kind: 'relative'; value: number };

export interface Claim {
  id: string;
  /** Seed file the claim comes from, e.g. 000_868ead70a34631fa.txt. */
  seed: string;
  /** Figure, table or page of the paper. */
  source: string;
  /** The paper's statement, in its own terms. */
  statement: string;
  /** Scenario file, absolute path; absent only for a claim the model cannot express. */
  scenario?: string;
  /** Which table of the scenario: its machine and rank count, when it has several. */
  machine?: string;
  ranks?: number;
  measure: Measure;
  published: Published;
  /** As written in the claims file, for the table. */
  publishedText: string;
  tolerance?: Tolerance;
  toleranceText: string;
  /** The constant behind the simulated value came from this claim's own sentence: shown, never counted. */
  input: boolean;
  /** What the model gives today; `unrun` until the claim's scenario has run once (too slow today). */
  expect: 'pass' | 'fail' | 'unrun';
  /** Cheap enough for CI (its scenario runs in well under half a minute). */
  fast: boolean;
  /** One line: the mechanism the model lacks, for claims expected to fail, as written. */
  missing?: string;
  /** `missing` split into its literal runs and the figures the report computes (missing-figures.ts). */
  missingParts?: MissingParts;
  /** Where `missing` is written, for a figure the claim's table cannot give. */
  missingWhere?: ClaimLocation & { field: string };
  where: ClaimLocation;
}

/** Every scenario file a claim is computed from: its own, and the one a ratio-gap compares it with. */
export function claimScenarios(claim: Claim): string[] {
  const files = claim.scenario ? [claim.scenario] : [];
  return claim.measure.kind === 'ratio-gap' ? [...files, claim.measure.against] : files;
}

export interface PaperClaims {
  /** Claims file, absolute path. */
  file: string;
  seed: string;
  /** Short citation of the paper. */
  title: string;
  claims: Claim[];
}
