// Test cases measured in rounds. On a shared host, interference comes in episodes (another tenant
// busy for some seconds, a virtual CPU moved to another physical core): the same case measured twice
// a minute apart on the development host took 1070 us and 367 us, each with a tight interquartile
// range. So the whole test set runs `rounds` times, one round after the other, and each case reports
// the round whose median is the median of its rounds (the lower middle one for an even count), with
// every round's median beside it so that the spread between rounds shows.
import type { NativeStats } from './backend.ts';

/** Native statistics of the median round, with every round's median in the order they ran. */
export interface RoundedStats extends NativeStats {
  roundMediansNs?: number[];
}

/** Rounds of a test set by default: three, so that one disturbed round of a case is outvoted. */
export const DEFAULT_ROUNDS = 3;

export function medianRound(rounds: NativeStats[]): RoundedStats {
  if (rounds.length === 0) throw new RangeError('medianRound: no rounds');
  if (rounds.length === 1) return rounds[0];
  const sorted = [...rounds].sort((a, b) => a.medianNs - b.medianNs);
  return { ...sorted[(sorted.length - 1) >> 1], roundMediansNs: rounds.map((r) => r.medianNs) };
}

/**
 * Measures every item `rounds` times, item after item within a round, and returns per item the
 * median round of each of its results (one per size, in the order `measure` returns them).
 */
export function measureInRounds<T>(
  rounds: number,
  items: readonly T[],
  measure: (item: T, round: number) => NativeStats[],
): NativeStats[][] {
  const runs: NativeStats[][][] = items.map(() => []);
  for (let round = 0; round < rounds; round++) items.forEach((item, i) => runs[i].push(measure(item, round)));
  return runs.map((perRound) => perRound[0].map((_, k) => medianRound(perRound.map((results) => results[k]))));
}
