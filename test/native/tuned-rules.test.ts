// Which fixed rules the model's tuned rows follow, from the installed Open MPI's version string.
import { describe, expect, it } from 'vitest';
import { tunedRulesFor } from '../../native-validate/mpi/run-mpi.ts';

describe('tuned rules for an Open MPI version', () => {
  it.each([
    ['Open MPI v4.0.7', 'v4.0'],
    ['Open MPI v3.1.6', 'v4.0'],
    ['Open MPI v4.1.4', 'v4.1'],
    ['Open MPI v5.0.3', 'v4.1'],
  ])('%s: %s', (version, rules) => {
    expect(tunedRulesFor(version).rules).toBe(rules);
  });

  it('says when the release is newer than the tables it uses, or not recognised', () => {
    expect(tunedRulesFor('Open MPI v5.0.3').note).not.toMatch(/may have changed/);
    expect(tunedRulesFor('Open MPI v6.1.0').note).toMatch(/may have changed them/);
    expect(tunedRulesFor('something else').note).toMatch(/not recognised/);
  });
});
