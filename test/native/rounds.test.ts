import { describe, expect, it } from 'vitest';
import type { NativeStats } from '../../native-validate/backend.ts';
import { measureInRounds, fastestRound } from '../../native-validate/rounds.ts';
import { samePlacement } from '../../native-validate/host-check.ts';

const stats = (bytes: number, medianNs: number): NativeStats => ({
  bytes,
  medianNs,
  meanNs: medianNs,
  minNs: medianNs,
  maxNs: medianNs,
  q1Ns: medianNs - 1,
  q3Ns: medianNs + 1,
  samples: 5,
});

describe('test cases measured in rounds', () => {
  it('reports the fastest round with every round median beside it', () => {
    const m = fastestRound([stats(8, 1070), stats(8, 367), stats(8, 396)]);
    expect(m.medianNs).toBe(367);
    expect(m.q1Ns).toBe(366);
    expect(m.roundMediansNs).toEqual([1070, 367, 396]);
  });

  it("keeps each round's line trip beside its median, where every round measured one", () => {
    const m = fastestRound([
      { ...stats(8, 1070), tripBeforeNs: 158, tripNs: 160 },
      { ...stats(8, 367), tripBeforeNs: 30, tripNs: 31 },
      { ...stats(8, 396), tripBeforeNs: 33, tripNs: 32 },
    ]);
    expect(m.tripNs).toBe(31);
    expect(m.roundTripsBeforeNs).toEqual([158, 30, 33]);
    expect(m.roundTripsNs).toEqual([160, 31, 32]);
    expect(fastestRound([stats(8, 5), { ...stats(8, 4), tripNs: 30 }]).roundTripsNs).toBeUndefined();
  });

  it('takes the fastest round among those run in the placement of the start, the fastest of all where none was', () => {
    // Measured on the development host: a 512 KiB CMA broadcast ran fastest with the two cores
    // apart (a trip of 160 ns against 31 at the start), slower in the three rounds placed as at
    // the start.
    const rounds = [
      { ...stats(8, 90_100), tripBeforeNs: 160.5, tripNs: 160.3 },
      { ...stats(8, 97_100), tripBeforeNs: 31.4, tripNs: 154.9 },
      { ...stats(8, 94_980), tripBeforeNs: 31.5, tripNs: 31.4 },
      { ...stats(8, 122_710), tripBeforeNs: 31.4, tripNs: 31.5 },
    ];
    const inPlacement = samePlacement(31.3);
    const m = fastestRound(rounds, { inPlacement });
    expect(m.medianNs).toBe(94_980);
    expect(m.roundMediansNs).toEqual([90_100, 97_100, 94_980, 122_710]);
    expect(fastestRound(rounds).medianNs).toBe(90_100);
    // No round placed as at the start: the fastest of all, whose trips then say so.
    expect(fastestRound(rounds.slice(0, 2), { inPlacement }).medianNs).toBe(90_100);
    // A measurement without trips (one rank) counts as placed.
    expect(fastestRound([stats(8, 5), stats(8, 4)], { inPlacement }).medianNs).toBe(4);
    const perItem = measureInRounds(3, ['a'], (_, round) => [rounds[round]], { inPlacement });
    expect(perItem[0][0].medianNs).toBe(94_980);
  });

  it('takes the fastest of any count, and one round as it is', () => {
    expect(fastestRound([stats(8, 4), stats(8, 1), stats(8, 3), stats(8, 2)]).medianNs).toBe(1);
    const one = stats(8, 7);
    expect(fastestRound([one])).toEqual(one);
    expect(() => fastestRound([])).toThrow(/no rounds/);
  });

  it('runs every item once per round, item after item, and keeps each size apart', () => {
    const calls: string[] = [];
    const out = measureInRounds(3, ['a', 'b'], (item, round) => {
      calls.push(`${item}${round}`);
      const base = item === 'a' ? 100 : 1000;
      // Round 1 is disturbed: three times slower.
      const k = round === 1 ? 3 : 1 + round / 100;
      return [stats(8, base * k), stats(64, 2 * base * k)];
    });
    expect(calls).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2']);
    expect(out.map((sizes) => sizes.map((s) => [s.bytes, s.medianNs]))).toEqual([
      [
        [8, 100],
        [64, 200],
      ],
      [
        [8, 1000],
        [64, 2000],
      ],
    ]);
  });
});
