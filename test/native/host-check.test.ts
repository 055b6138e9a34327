// Whether the host stayed the same machine during a validation run (native-validate/host-check.ts):
// the line trip between two cores at the start against the same trip after the test cases.
import { describe, expect, it } from 'vitest';
import { CHANGE_FACTOR, compareTrips, hostCheckText, samePlacement } from '../../native-validate/host-check.ts';
import { steadyStats } from '../helpers/native-stats.ts';

describe('the host check', () => {
  it('marks the run when the line trip moved by more than the factor, either way', () => {
    // Measured on the development host in two runs an hour apart: 31 ns, then 158 ns.
    expect(compareTrips([0, 1], 31.3, 158.1).changed).toBe(true);
    expect(compareTrips([0, 1], 158.1, 31.3).changed).toBe(true);
    expect(compareTrips([0, 1], 31.3, 33.0).changed).toBe(false);
    expect(compareTrips([0, 1], 30, 30 * CHANGE_FACTOR).changed).toBe(false);
    expect(compareTrips([0, 1], 30, 30 * CHANGE_FACTOR * 1.01).changed).toBe(true);
  });

  it('says what it measured and what follows', () => {
    const changed = hostCheckText(compareTrips([0, 1], 31.3, 158.1));
    expect(changed).toMatch(/^the host changed during the run: .*cores 0 and 1 took 31\.3 ns .* and 158\.1 ns/);
    expect(changed).toMatch(/not the model/);
    expect(hostCheckText(compareTrips([2, 3], 31.3, 32))).toMatch(
      /^host check: .*cores 2 and 3 .*within a factor 1\.5$/,
    );
  });

  it("marks the run when the double copy's ring moved by more than the factor, the trip unmoved", () => {
    // A ring that took 7.26 us in training and 28.1 us at the end (the slowest round the training
    // itself once saw), the trip unmoved.
    const slow = compareTrips([0, 1], 32.1, 31.2, { startNs: 7_261, endNs: 28_100 });
    expect(slow.changed).toBe(true);
    expect(compareTrips([0, 1], 32.1, 31.2, { startNs: 7_261, endNs: 7_500 }).changed).toBe(false);
    expect(compareTrips([0, 1], 32.1, 31.2).changed).toBe(false);
    expect(compareTrips([0, 1], 32.1, 31.2).ring).toBeUndefined();
    expect(hostCheckText(slow)).toMatch(
      /^the host changed during the run: .*took 32\.1 ns .* and 31\.2 ns .*; core 0 storing 64 KiB into ring lines core 1 had just read took 7\.26 us and 28\.10 us \(/,
    );
  });

  it('a measurement is in the placement of the start when both its trips are within the factor', () => {
    const placed = samePlacement(31);
    const at = (tripBeforeNs?: number, tripNs?: number) => ({
      ...steadyStats(64, 1),
      ...(tripBeforeNs === undefined ? {} : { tripBeforeNs }),
      ...(tripNs === undefined ? {} : { tripNs }),
    });
    expect(placed(at(31, 33))).toBe(true);
    expect(placed(at(31, 31 * CHANGE_FACTOR))).toBe(true);
    expect(placed(at(31, 158))).toBe(false);
    expect(placed(at(158, 31))).toBe(false);
    // The two virtual CPUs behaving as one core: a trip of half the usual or less.
    expect(placed(at(14.7, 31))).toBe(false);
    expect(placed(at())).toBe(true);
    expect(placed(at(undefined, 158))).toBe(false);
  });
});
