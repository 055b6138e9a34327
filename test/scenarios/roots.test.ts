// `root: all` and `sweep.root`: how they load, expand and fail, and what a point with every root
// in turn runs.
import { describe, expect, it } from 'vitest';
import type { InputError } from '../../common/input-error.ts';
import { loadScenarioText, type LoadOptions } from '../../scenarios/loader.ts';
import { expandScenario } from '../../scenarios/expand.ts';
import { simulatePoint } from '../../scenarios/simulate-point.ts';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { fakeCatalogue, fakeResolver } from './fixtures.ts';
import { inputErrorOf } from '../helpers/input-error.ts';
import { tinyMachine } from '../helpers/machines.ts';

const BASE = `machine: two-socket
ranks: 4
operation: test-op
algorithms: [linear]
sizes: 1KiB
`;

const load = (text: string, opts: Partial<LoadOptions> = {}) =>
  loadScenarioText(text, { file: 'study.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue, ...opts });
const errorOf = (text: string): InputError => inputErrorOf(() => load(text));

describe('roots in scenarios', () => {
  it('reads root: all', () => {
    const s = load(`${BASE}root: all\n`);
    expect(s.root).toBe('all');
    expect(s.rootSweep).toBeUndefined();
    expect(expandScenario(s)[0].rows[0].cells[0].point.root).toBe('all');
  });

  it('sweeps roots between the rank-count and seed axes', () => {
    const s = load(`${BASE.replace('ranks: 4\n', '')}sweep: { ranks: [2, 4], root: [1, all], seed: [a, b] }\n`);
    expect(s.rootSweep).toEqual([1, 'all']);
    expect(expandScenario(s).map((t) => `${t.ranks}/${t.root}/${t.seed}`)).toEqual([
      '2/1/a',
      '2/1/b',
      '2/all/a',
      '2/all/b',
      '4/1/a',
      '4/1/b',
      '4/all/a',
      '4/all/b',
    ]);
  });

  it.each([
    [`${BASE}root: every\n`, "study.yaml:6:7 (root): root must be a rank number or 'all'"],
    [`${BASE}root: alll\n`, "(did you mean 'all'?)"],
    [`${BASE}root: -1\n`, '(root)'],
    [
      `${BASE}sweep: { root: [0, 4] }\n`,
      'study.yaml:6:20 (sweep.root[1]): root 4 is outside the communicator of 4 ranks',
    ],
    [`${BASE}sweep: { root: [2, 2] }\n`, '(sweep.root[1]): root 2 is listed twice'],
    [`${BASE}sweep: { root: [] }\n`, 'sweep.root must list at least one value'],
    [`${BASE}root: 1\nsweep: { root: [0, 1] }\n`, "'root' is given both here and under sweep"],
    [
      `${BASE.replace('test-op', 'test-ring').replace('[linear]', '[ring]')}root: all\n`,
      "(root): operation 'test-ring' has no root",
    ],
    [
      `${BASE.replace('test-op', 'test-ring').replace('[linear]', '[ring]')}sweep: { root: [all] }\n`,
      "operation 'test-ring' has no root",
    ],
  ])('rejects %j', (text, message) => {
    expect(errorOf(text).message).toContain(message);
  });
});

describe('every root in turn', () => {
  const machine = tinyMachine({ packages: 2, coresPerPackage: 2 });
  const request = (roots?: number[]) => ({
    machine,
    cores: [0, 1, 2, 3],
    algorithm: 'gather:basic',
    call: { bytes: 4096, root: 0, params: {} },
    cache: 'off' as const,
    iterations: 2,
    warmup: 1,
    seed: 'roots',
    ...(roots ? { roots } : {}),
  });

  it('times one call per root of every measured iteration, each checked for its own root', () => {
    expect(runAlgorithm(request([0, 1, 2, 3])).times).toHaveLength(8);
  });

  it('gives root: all the mean of those calls', () => {
    const point = {
      scenario: 't',
      machine,
      cores: [0, 1, 2, 3],
      operation: 'gather',
      algorithm: 'gather:basic',
      params: {},
      bytes: 4096,
      root: 'all' as const,
      cache: 'off' as const,
      iterations: 2,
      warmup: 1,
      seed: 'roots',
    };
    const times = runAlgorithm(request([0, 1, 2, 3])).times;
    const r = simulatePoint(point);
    expect(r.meanNs).toBeCloseTo(times.reduce((a, b) => a + b, 0) / times.length, 6);
    expect(r.minNs).toBe(Math.min(...times));
    expect(r.maxNs).toBe(Math.max(...times));
  });

  it('with one root, runs exactly as before', () => {
    expect(runAlgorithm(request([2])).times).toEqual(
      runAlgorithm({ ...request(), call: { ...request().call, root: 2 } }).times,
    );
  });
});
