// v-counts in scenarios: in units of each size, checked against the operation and communicator.
import { describe, expect, it } from 'vitest';
import '../../algorithms/index.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { expandScenario } from '../../scenarios/expand.ts';
import { simulatePoint } from '../../scenarios/simulate-point.ts';
import { InputError } from '../../common/input-error.ts';

const load = (text: string) => loadScenarioText(text, { file: 'v.yaml', resolveMachine: (ref, baseDir) => resolveMachine(ref, { baseDir }) });
const scenario = (op: string, counts: string, ranks = 4) => `name: v
machine: dancer
ranks: ${ranks}
operation: ${op}
algorithms: [basic, knem-linear]
sizes: 4KiB
counts: ${counts}
`;

describe('scenario counts for v-variants', () => {
  it('reach every point, and the run delivers the blocks they describe', () => {
    const s = load(scenario('gatherv', '[1, 0, 3, 2]'));
    expect(s.counts).toEqual([1, 0, 3, 2]);
    const point = expandScenario(s)[0].rows[0].cells[1].point;
    expect(point.counts).toEqual([1, 0, 3, 2]);
    // The harness verifies every rank's buffer against the counts; a wrong block would throw.
    expect(simulatePoint(point).meanNs).toBeGreaterThan(0);
  });

  it('alltoallv takes one count per sender and receiver', () => {
    expect(load(scenario('alltoallv', `[${Array.from({ length: 9 }, (_, i) => i % 3).join(', ')}]`, 3)).counts).toHaveLength(9);
  });

  const cases: Array<[string, string, string]> = [
    ['a count list of the wrong length', scenario('scatterv', '[1, 2, 3]'), 'v.yaml:7:9 (counts): counts has 3 entries, but scatterv on 4 ranks needs 4 (one per rank)'],
    ['a per-rank list for alltoallv', scenario('alltoallv', '[1, 2, 3, 4]'), 'needs 4 x 4 = 16 (one per sender and receiver, sender-major)'],
    ['counts on an operation without them', scenario('gather', '[1, 1, 1, 1]'), "(counts): operation 'gather' takes no counts; counts are for allgatherv, alltoallv, gatherv, scatterv"],
    ['a negative count', scenario('gatherv', '[1, -1, 1, 1]'), '(counts[1])'],
  ];
  it.each(cases)('%s is an error naming the field', (_, text, message) => {
    expect(() => load(text)).toThrow(InputError);
    expect(() => load(text)).toThrow(message);
  });
});
