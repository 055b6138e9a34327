// A point's rank-time per call: the whole its breakdown's shares divide, so that a share times it is
// the time one call's ranks spent in that kind of step (a claim's {{step KIND of A at SIZE}}).
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { simulatePoint } from '../../scenarios/simulate-point.ts';
import { tinyMachine } from '../helpers/machines.ts';

describe("a point's rank-time per call", () => {
  it("times each kind's share gives the kind's rank-time of one measured call, replayed calls included", () => {
    const machine = tinyMachine();
    const point = {
      scenario: 't',
      machine,
      cores: [0, 1, 2, 3],
      operation: 'bcast',
      algorithm: 'bcast:binomial',
      params: {},
      bytes: 256 * 1024,
      root: 0,
      cache: 'on' as const,
      iterations: 6,
      warmup: 1,
      seed: 's',
    };
    const result = simulatePoint(point);
    expect(result.replayed?.calls).toBeGreaterThan(0);
    // Every call simulated, for the totals to compare with.
    const exact = runAlgorithm({
      machine,
      cores: point.cores,
      algorithm: point.algorithm,
      call: { bytes: point.bytes, root: 0, params: {} },
      cache: 'on',
      iterations: 6,
      warmup: 1,
      seed: 's',
      exact: true,
    });
    const kinds = Object.keys(exact.totals);
    expect(kinds).toContain('copy');
    for (const kind of kinds) {
      expect(result.breakdown[kind] * result.rankTimeNs).toBeCloseTo(exact.totals[kind] / 6, 3);
    }
    // Four ranks that each spend the whole call in some step: at most four times its span.
    expect(result.rankTimeNs).toBeGreaterThan(result.meanNs);
    expect(result.rankTimeNs).toBeLessThanOrEqual(4 * result.maxNs * (1 + 1e-12));
  });

  it('is per transfer in a ping-pong, whose reported time is half the round trip', () => {
    const machine = tinyMachine();
    const base = { machine, cores: [0, 1], algorithm: 'pingpong:shm', cache: 'on' as const, warmup: 1, seed: 's' };
    const result = simulatePoint({
      ...base,
      scenario: 't',
      operation: 'pingpong',
      params: {},
      bytes: 64 * 1024,
      root: 0,
      iterations: 3,
    });
    const exact = runAlgorithm({
      ...base,
      call: { bytes: 64 * 1024, root: 0, params: {} },
      iterations: 3,
      exact: true,
    });
    const roundTrip = Object.values(exact.totals).reduce((a, b) => a + b, 0) / 3;
    expect(result.rankTimeNs).toBeCloseTo(roundTrip / 2, 3);
    // Two ranks, each within the round trip: at most twice its reported half.
    expect(result.rankTimeNs).toBeGreaterThan(result.meanNs);
    expect(result.rankTimeNs).toBeLessThanOrEqual(2 * result.maxNs * (1 + 1e-12));
  });
});
