// Whether the host stayed the same machine during a validation run (native-validate/host-check.ts):
// the line trip between two cores at the start against the same trip after the test cases.
import { describe, expect, it } from 'vitest';
import { CHANGE_FACTOR, compareTrips, hostCheckText } from '../../native-validate/host-check.ts';

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
});
