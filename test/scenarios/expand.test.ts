import { describe, expect, it } from 'vitest';
import { countPoints, expandScenario } from '../../scenarios/expand.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { compactOrder, placeRanks, PlacementError, scatterOrder } from '../../scenarios/placement.ts';
import { runScenario } from '../../scenarios/run.ts';
import type { Point } from '../../scenarios/point.ts';
import { fakeMachine, fakeResolver, fakeRunner, MACHINES, fakeCatalogue } from './fixtures.ts';

describe('placement', () => {
  // two-socket: core i on package i % 2, NUMA node = package.
  const twoSocket = MACHINES['two-socket'];
  // sub-numa: one package, cores 0-3 on NUMA node 0 and 4-7 on node 1.
  const subNuma = MACHINES['sub-numa'];

  it('compact fills one package in OS-index order before the next', () => {
    expect(compactOrder(twoSocket)).toEqual([0, 2, 4, 6, 1, 3, 5, 7]);
    expect(placeRanks(twoSocket, 3, 'compact')).toEqual([0, 2, 4]);
  });

  it('scatter takes one core from each NUMA node in turn', () => {
    expect(scatterOrder(twoSocket)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(scatterOrder(subNuma)).toEqual([0, 4, 1, 5, 2, 6, 3, 7]);
    expect(placeRanks(subNuma, 3, 'scatter')).toEqual([0, 4, 1]);
  });

  it('scatter keeps going on the larger nodes when the NUMA nodes are uneven', () => {
    const m = fakeMachine('uneven', 1, 4, 2);
    m.cores.push(
      { id: 4, package: 0, numa: 1, frequencyGHz: 2, threads: 1 },
      { id: 5, package: 0, numa: 1, frequencyGHz: 2, threads: 1 },
    );
    expect(scatterOrder(m)).toEqual([0, 2, 1, 3, 4, 5]);
  });

  it('an explicit list puts rank i on core list[i]', () => {
    expect(placeRanks(twoSocket, 3, [7, 0, 3])).toEqual([7, 0, 3]);
    expect(placeRanks(twoSocket, 2, [7, 0, 3])).toEqual([7, 0]);
  });

  it('rejects what cannot be placed', () => {
    expect(() => placeRanks(twoSocket, 9, 'scatter')).toThrow(PlacementError);
    expect(() => placeRanks(twoSocket, 2, [0, 0])).toThrow(new PlacementError('core 0 is listed twice', 1));
    expect(() => placeRanks(twoSocket, 1, [42])).toThrow(/has no core 42/);
  });
});

const SWEEP = `name: sweep
operation: test-op
algorithms: [linear, tree]
sizes: [1KiB, 2KiB]
root: 1
seed: s1
sweep:
  machine: [two-socket, sub-numa]
  placement: [compact, scatter]
  ranks: [2, 4]
`;

describe('expansion', () => {
  const s = loadScenarioText(SWEEP, { file: 'sweep.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue });
  const tables = expandScenario(s);

  it('makes one table per sweep combination, machine outermost and ranks innermost', () => {
    expect(
      tables.map(
        (t) =>
          `${t.machine.ref}/${typeof t.placement === 'string' ? t.placement : JSON.stringify(t.placement)}/${t.ranks}`,
      ),
    ).toEqual([
      'two-socket/compact/2',
      'two-socket/compact/4',
      'two-socket/scatter/2',
      'two-socket/scatter/4',
      'sub-numa/compact/2',
      'sub-numa/compact/4',
      'sub-numa/scatter/2',
      'sub-numa/scatter/4',
    ]);
    expect(tables.map((t) => t.cores.join(','))).toEqual([
      '0,2',
      '0,2,4,6',
      '0,1',
      '0,1,2,3',
      '0,1',
      '0,1,2,3',
      '0,4',
      '0,4,1,5',
    ]);
    expect(countPoints(tables)).toBe(8 * 2 * 2);
  });

  it("gives 'all' ranks every core of each machine", () => {
    const all = loadScenarioText(
      'operation: test-op\nalgorithms: [tree]\nsizes: 1\nranks: all\nsweep:\n  machine: [two-socket, small]\n',
      {
        resolveMachine: (ref) => (ref === 'small' ? fakeMachine('small', 1, 3) : MACHINES[ref]),
        catalogue: fakeCatalogue,
      },
    );
    expect(expandScenario(all).map((t) => [t.ranks, t.cores.join(',')])).toEqual([
      [8, '0,2,4,6,1,3,5,7'],
      [3, '0,1,2'],
    ]);
  });

  it("gives one table where 'all' and a number are the same count on a machine, and both elsewhere", () => {
    const both = loadScenarioText(
      'operation: test-op\nalgorithms: [tree]\nsizes: 1\nsweep:\n  machine: [two-socket, small]\n  ranks: [3, all]\n',
      {
        resolveMachine: (ref) => (ref === 'small' ? fakeMachine('small', 1, 3) : MACHINES[ref]),
        catalogue: fakeCatalogue,
      },
    );
    expect(expandScenario(both).map((t) => [t.machine.ref, t.ranks])).toEqual([
      ['two-socket', 3],
      ['two-socket', 8],
      ['small', 3],
    ]);
  });

  it('fills every point from the scenario', () => {
    const cell = tables[1].rows[1].cells[0];
    expect(cell.algorithm.label).toBe('linear');
    expect(cell.point).toEqual<Point>({
      scenario: 'sweep',
      file: 'sweep.yaml',
      machine: MACHINES['two-socket'],
      cores: [0, 2, 4, 6],
      operation: 'test-op',
      algorithm: 'test-op:linear',
      algorithmAt: { file: 'sweep.yaml', line: 3, column: 14, field: 'algorithms[0]' },
      params: { segment: 65536, depth: 2, direction: 'read', async: false, factor: 1.5 },
      bytes: 2048,
      root: 1,
      cache: 'off',
      iterations: 5,
      warmup: 1,
      seed: 's1',
    });
  });

  it('gives each point its own copies, so a runner cannot disturb the next point', () => {
    const [a, b] = tables[0].rows[0].cells;
    a.point.cores.push(99);
    a.point.params.depth = 9;
    expect(b.point.cores).toEqual([0, 2]);
    expect(tables[0].rows[1].cells[0].point.params.depth).toBe(2);
  });
});

describe('running', () => {
  const s = loadScenarioText(SWEEP, { file: 'sweep.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue });

  it('runs every point once, in order, and reports progress', () => {
    const seen: string[] = [];
    const progress: string[] = [];
    const result = runScenario(
      s,
      (p) => (seen.push(`${p.cores.length}:${p.algorithm}:${p.bytes}`), fakeRunner(p)),
      (done, total) => progress.push(`${done}/${total}`),
    );
    expect(seen).toHaveLength(32);
    expect(seen.slice(0, 4)).toEqual([
      '2:test-op:linear:1024',
      '2:test-op:tree:1024',
      '2:test-op:linear:2048',
      '2:test-op:tree:2048',
    ]);
    expect(progress[0]).toBe('1/32');
    expect(progress.at(-1)).toBe('32/32');
    expect(result.tables[0].rows[0].cells[0].result.meanNs).toBe(1000 + 1024 * 0.5 * 2);
  });

  it('is deterministic', () => {
    expect(JSON.stringify(runScenario(s, fakeRunner))).toBe(JSON.stringify(runScenario(s, fakeRunner)));
  });
});
