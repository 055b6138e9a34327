// Cases measured in rounds. The development host is a virtual machine whose two virtual CPUs are
// moved between physical cores while it runs: within a minute the same cold 2 MiB double-copy
// ping-pong measured 296, 1327 and 251 us, each with a tight interquartile range, while a single
// copy barely moved. Its placements take turns every few tens of seconds, so the whole test set runs
// `rounds` times, one round after the other, and each case reports its fastest round: interference
// only slows a case down, and the fastest round of each case is the host in one state, its least
// disturbed one, the state the training copies are taken in too (training.ts). Each case also
// measures the line trip between its first two cores before and after it (src/measure.c): where
// the caller says which trips are the placement the constants were fitted in, the fastest round is
// taken among the rounds in it, since a placement the training did not see may be faster for some
// cases (fastestRound); where none ran in it, among the rounds that ran in the host's other
// placement, which the model then predicts on the machine of that placement (placements.ts). Every
// round's median stands beside it, so that the spread between rounds shows.
import type { NativeStats } from './backend.ts';

/** Native statistics of the fastest round, with every round's median in the order they ran (and
 *  the line trips measured before and after each round, where the case measures them). */
export interface RoundedStats extends NativeStats {
  roundMediansNs?: number[];
  roundTripsBeforeNs?: number[];
  roundTripsNs?: number[];
  /** 'other': the round ran with the cores placed otherwise than when the constants were fitted,
   *  in the placement placements.ts models beside the fitted one. */
  placement?: 'other';
}

/** Rounds of a test set by default: three, so that each case is likely seen undisturbed once. */
export const DEFAULT_ROUNDS = 3;

/** Whether a round ran with the host's cores placed as when the constants were fitted (the line trip
 *  before and after it: host-check.ts, samePlacement). */
export type InPlacement = (round: NativeStats) => boolean;

/** Which rounds a case's fastest is taken among: those `inPlacement` accepts (the placement the
 *  constants were fitted in), else those the host's other placement accepts (placements.ts).
 *  MeasureOptions and MpiOptions carry both. */
export interface Placing {
  inPlacement?: InPlacement;
  other?: { inPlacement: InPlacement };
}

/**
 * The fastest round, of those `placing.inPlacement` accepts where it accepts some: a round in which
 * the host had moved the two cores apart, or behaving as one, is another machine than the one
 * fitted, whichever of them is faster (single copies ran faster with the cores apart on the
 * development host, the double copy slower). Where it accepts none, the fastest of those the other
 * placement accepts (marked), else of all.
 */
export function fastestRound(rounds: NativeStats[], placing: Placing = {}): RoundedStats {
  if (rounds.length === 0) throw new RangeError('fastestRound: no rounds');
  const { inPlacement, other: otherPlacement } = placing;
  const placed = inPlacement ? rounds.filter(inPlacement) : rounds;
  const other = placed.length === 0 && otherPlacement ? rounds.filter(otherPlacement.inPlacement) : [];
  const pool = placed.length > 0 ? placed : other.length > 0 ? other : rounds;
  const fastest = pool.reduce((best, r) => (r.medianNs < best.medianNs ? r : best));
  const mark = other.length > 0 ? { placement: 'other' as const } : {};
  if (rounds.length === 1) return { ...fastest, ...mark };
  const before = rounds.map((r) => r.tripBeforeNs);
  const after = rounds.map((r) => r.tripNs);
  return {
    ...fastest,
    ...mark,
    roundMediansNs: rounds.map((r) => r.medianNs),
    ...(before.every((t) => t !== undefined) ? { roundTripsBeforeNs: before } : {}),
    ...(after.every((t) => t !== undefined) ? { roundTripsNs: after } : {}),
  };
}

/**
 * Measures every item `rounds` times, item after item within a round, and returns per item the
 * fastest round of each of its results (one per size, in the order `measure` returns them), chosen
 * as `fastestRound` chooses with `placing`.
 */
export function measureInRounds<T>(
  rounds: number,
  items: readonly T[],
  measure: (item: T, round: number) => NativeStats[],
  placing: Placing = {},
): RoundedStats[][] {
  const runs: NativeStats[][][] = items.map(() => []);
  for (let round = 0; round < rounds; round++) items.forEach((item, i) => runs[i].push(measure(item, round)));
  return runs.map((perRound) =>
    perRound[0].map((_, k) =>
      fastestRound(
        perRound.map((results) => results[k]),
        placing,
      ),
    ),
  );
}

/** ", round 2 of 3" in progress lines, nothing when there is one round. */
export function roundText(round: number, rounds: number): string {
  return rounds > 1 ? `, round ${round + 1} of ${rounds}` : '';
}
