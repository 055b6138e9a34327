// `sweep: { railShare: [...] }`: one table per share on the first NIC, taken by the algorithms with
// `rails: share`; every misuse is an error at its field.
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../algorithms/catalogue.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { expandScenario } from '../../scenarios/expand.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { formatCsvReport } from '../../scenarios/report/csv.ts';
import { formatJsonReport } from '../../scenarios/report/json.ts';
import { formatTableReport } from '../../scenarios/report/table.ts';
import { runScenario } from '../../scenarios/run.ts';
import { simulatePoint } from '../../scenarios/simulate-point.ts';
import { inputErrorOf } from '../helpers/input-error.ts';

const BASE = `machine: opteron-nuioa
hosts: 2
placement: [0, 8]
operation: pingpong
algorithms:
  - { name: shm, params: { rails: numa }, label: numa }
  - { name: shm, params: { rails: share }, label: split }
sizes: 1MiB
iterations: 1
sweep:
  railShare: [0.5, 1]
`;

const load = (text: string) =>
  loadScenarioText(text, {
    file: 'split.yaml',
    resolveMachine: (ref, baseDir) => resolveMachine(ref, { baseDir }),
    catalogue,
  });

describe('sweeping the rail share', () => {
  it('gives one table per share, set only on the algorithms with rails: share', () => {
    const s = load(BASE);
    expect(s.railShareSweep).toEqual([0.5, 1]);
    const tables = expandScenario(s);
    expect(tables.map((t) => t.railShare)).toEqual([0.5, 1]);
    const [numa, split] = tables[1].rows[0].cells.map((c) => c.point.params);
    expect(split).toMatchObject({ rails: 'share', railShare: 1 });
    expect(numa.rails).toBe('numa');
  });

  it('nests inside roots and outside seeds', () => {
    const s = load(BASE.replace('railShare: [0.5, 1]', 'railShare: [0.5, 1]\n  seed: [a, b]'));
    expect(expandScenario(s).map((t) => `${t.railShare}/${t.seed}`)).toEqual(['0.5/a', '0.5/b', '1/a', '1/b']);
  });

  it('changes the time: the whole message on one NIC takes longer than half on each', () => {
    const result = runScenario(load(BASE), simulatePoint);
    const [half, whole] = result.tables.map((t) => t.rows[0].cells[1]);
    if (half.unavailable !== undefined || whole.unavailable !== undefined) throw new Error('unavailable');
    expect(whole.result.meanNs).toBeGreaterThan(1.5 * half.result.meanNs);
    const text = formatTableReport(result);
    expect(text).toContain('# Rail share: 0.5 of each message between hosts on the first NIC');
    expect(text).toContain('# Rail share: 1 of each message');
    const csv = formatCsvReport(result).split('\n');
    expect(csv[0].split(',').at(-1)).toBe('rail_share');
    expect(csv.at(-2)?.split(',').at(-1)).toBe('1');
    const json = JSON.parse(formatJsonReport(result)) as { tables: { railShare: number }[] };
    expect(json.tables.map((t) => t.railShare)).toEqual([0.5, 1]);
  });

  it.each([
    [BASE.replace('[0.5, 1]', '[0.5, 1.2]'), 'sweep.railShare[1]', /between 0 and 1/],
    [BASE.replace('[0.5, 1]', '[0.5, half]'), 'sweep.railShare[1]', /must be a number/],
    [BASE.replace('[0.5, 1]', '[0.5, 0.5]'), 'sweep.railShare[1]', /listed twice/],
    [BASE.replace('[0.5, 1]', '[]'), 'sweep.railShare', /at least one value/],
    [BASE.replace('[0.5, 1]', '0.5'), 'sweep.railShare', /must be a list/],
    [BASE.replace('railShare: [', 'railShares: ['), 'sweep.railShares', /did you mean 'railShare'/],
    [
      BASE.replace('rails: share }', 'rails: share, railShare: 0.6 }'),
      'algorithms[1].params.railShare',
      /swept.*give it there only/,
    ],
    [BASE.replace('rails: share }', 'rails: even }'), 'sweep.railShare[0]', /no algorithm of this scenario has it/],
    [BASE.replace('hosts: 2', 'hosts: 1'), 'algorithms[0].params.rails', /one host/],
    [
      BASE.replace('hosts: 2\n', '').replace(/algorithms:\n(.*\n){2}/, 'algorithms: [shm]\n'),
      'sweep.railShare[0]',
      /one host/,
    ],
  ])('rejects a mistake at its field (%#)', (text, field, message) => {
    const e = inputErrorOf(() => load(text));
    expect(e.location.field).toBe(field);
    expect(e.message).toMatch(message);
    expect(e.location.file).toBe('split.yaml');
    expect(e.location.line).toBeGreaterThan(0);
  });
});
