import { describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { formatCsvReport } from '../../scenarios/report/csv.ts';
import { formatJsonReport } from '../../scenarios/report/json.ts';
import { createProgressBar } from '../../scenarios/report/progress.ts';
import { formatTableReport } from '../../scenarios/report/table.ts';
import { runScenario } from '../../scenarios/run.ts';
import { fakeResolver, fakeRunner, fakeCatalogue } from './fixtures.ts';

const DEMO = `name: demo
description: Two test algorithms
machine: two-socket
ranks: 4
operation: test-op
algorithms: [linear, { name: tree, label: binomial }]
sizes: 1KiB..1MiB x32
baseline: binomial
`;

const result = runScenario(
  loadScenarioText(DEMO, { file: 'demo.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue }),
  fakeRunner,
);

describe('table report', () => {
  it('prints an OSU-style header block and aligned columns', () => {
    // fakeRunner: 1000 ns + bytes × ranks × (0.5 linear, 0.25 tree).
    expect(formatTableReport(result)).toBe(`# Scenario: demo
# Two test algorithms
# Machine: two-socket (2 packages, 2 NUMA nodes, 8 cores)
# Ranks: 4
# Placement: compact (cores 0 2 4 6)
# Cache: off
# Operation: test-op, root 0; 5 iterations after 1 warm-up
# Baseline: binomial
# Size   linear(us)  linear(norm)  binomial(us)  binomial(norm)
1024           3.05          1.51          2.02            1.00
32768         66.54          1.97         33.77            1.00
1048576     2098.15          2.00       1049.58            1.00
`);
  });

  it('says how many warm-up calls a cold-cache run made when it made more than asked (table and JSON)', () => {
    const run = (text: string) =>
      runScenario(
        loadScenarioText(`${DEMO}${text}`, { file: 'w.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue }),
        fakeRunner,
      );
    const cold = (text: string) => formatTableReport(run(text));
    expect(cold('warmup: 0\n')).toContain(
      '; 5 iterations after 1 warm-up (0 asked; with cold caches the run warms up for at least 1 on this machine)\n',
    );
    expect(cold('warmup: 0\ncache: on\n')).toContain('; 5 iterations after 0 warm-up\n');
    expect(cold('warmup: 3\n')).toContain('; 5 iterations after 3 warm-up\n');
    const json = (text: string) =>
      JSON.parse(formatJsonReport(run(text))) as { scenario: { warmup: number }; tables: { warmupMade?: number }[] };
    expect(json('warmup: 0\n').scenario.warmup).toBe(0);
    expect(json('warmup: 0\n').tables[0].warmupMade).toBe(1);
    expect(json('warmup: 1\n').tables[0].warmupMade).toBeUndefined();
  });

  it('adds the breakdown per algorithm and size', () => {
    const text = formatTableReport(result, { breakdown: true });
    expect(text.split('\n\n')[1]).toBe(`# Breakdown: share of rank-time in each kind of step
# Algorithm  Size     copy(%)  lock-wait(%)  syscall(%)
linear       1024        75.0           0.0        25.0
linear       32768       75.0           0.0        25.0
linear       1048576     75.0           0.0        25.0
binomial     1024        50.0          50.0         0.0
binomial     32768       50.0          50.0         0.0
binomial     1048576     50.0          50.0         0.0
`);
  });

  it("adds the library's memory per size and algorithm with --memory", () => {
    // fakeRunner: linear allocates nothing, tree 4 KiB per rank.
    const text = formatTableReport(result, { memory: true });
    expect(text.split('\n\n')[1])
      .toBe(`# Library memory: what the MPI library allocated beyond the operation's own buffers, by the end of the first call
# Size   linear(KiB)  binomial(KiB)
1024             0.0           16.0
32768            0.0           16.0
1048576          0.0           16.0
`);
    expect(formatTableReport(result, { breakdown: true, memory: true }).split('\n\n')).toHaveLength(3);
  });

  it('prints one block per sweep table and leaves out root for unrooted operations', () => {
    const s = loadScenarioText(
      'machine: two-socket\noperation: test-ring\nalgorithms: [ring]\nsizes: 8\nsweep:\n  ranks: [2, 3]\n',
      {
        resolveMachine: fakeResolver,
        catalogue: fakeCatalogue,
      },
    );
    const blocks = formatTableReport(runScenario(s, fakeRunner)).split('\n\n');
    expect(blocks).toHaveLength(2);
    expect(blocks[1]).toContain('# Ranks: 3\n# Placement: compact (cores 0 2 4)');
    expect(blocks[1]).toContain('# Operation: test-ring; 5 iterations');
    expect(blocks[1]).toContain(`# Size  ring(us)  ring(norm)\n8${' '.repeat(11)}1.01${' '.repeat(8)}1.00\n`);
  });

  it("prints '-' where the baseline took no time", () => {
    const zero = runScenario(result.scenario, (p) => ({
      ...fakeRunner(p),
      meanNs: p.algorithm.endsWith('tree') ? 0 : 5000,
    }));
    expect(formatTableReport(zero)).toContain('\n1024           5.00             -          0.00               -\n');
  });
});

describe('CSV report', () => {
  it('has a header and one row per point', () => {
    const lines = formatCsvReport(result).trimEnd().split('\n');
    expect(lines[0]).toBe(
      'scenario,machine,ranks,placement,operation,root,cache,algorithm,label,bytes,mean_ns,min_ns,max_ns,normalized',
    );
    expect(lines).toHaveLength(1 + 6);
    expect(lines[3]).toBe(
      'demo,two-socket,4,compact,test-op,0,off,test-op:linear,linear,32768,66536,59882.4,73189.6,1.9703861644160152',
    );
  });

  it('adds one share column per kind of step with --breakdown', () => {
    const lines = formatCsvReport(result, { breakdown: true }).trimEnd().split('\n');
    expect(lines[0].endsWith(',normalized,share_copy,share_lock-wait,share_syscall')).toBe(true);
    expect(lines[2].endsWith(',1,0.5,0.5,0')).toBe(true);
  });

  it('adds the library_bytes column with --memory', () => {
    const lines = formatCsvReport(result, { memory: true }).trimEnd().split('\n');
    expect(lines[0].endsWith(',normalized,library_bytes')).toBe(true);
    expect(lines[1].endsWith(',0')).toBe(true);
    expect(lines[2].endsWith(',1,16384')).toBe(true);
  });

  it('quotes fields holding commas or quotes', () => {
    const s = loadScenarioText(`${DEMO.replace('name: demo', 'name: \'a,"b"\'')}`, {
      resolveMachine: fakeResolver,
      catalogue: fakeCatalogue,
    });
    expect(formatCsvReport(runScenario(s, fakeRunner)).split('\n')[1].startsWith('"a,""b""",two-socket,')).toBe(true);
  });
});

describe('JSON report', () => {
  it('is one document with the scenario and every result', () => {
    const doc = JSON.parse(formatJsonReport(result));
    expect(Object.keys(doc)).toEqual(['scenario', 'tables']);
    expect(doc.scenario.baseline).toBe('binomial');
    expect(doc.tables).toHaveLength(1);
    expect(doc.tables[0].cores).toEqual([0, 2, 4, 6]);
    expect(doc.tables[0].rows[0].results[0]).toEqual({
      label: 'linear',
      algorithm: 'test-op:linear',
      meanNs: 3048,
      minNs: 3048 * 0.9,
      maxNs: 3048 * 1.1,
      normalized: 3048 / 2024,
      breakdown: { copy: 0.75, syscall: 0.25 },
      libraryBytes: 0,
    });
    expect(doc.tables[0].rows[0].results[1].libraryBytes).toBe(4096 * 4);
  });

  it('writes keys in a stable order whatever order the runner used', () => {
    const shuffled = runScenario(result.scenario, (p) => {
      const r = fakeRunner(p);
      return {
        breakdown: Object.fromEntries(Object.entries(r.breakdown).reverse()),
        maxNs: r.maxNs,
        minNs: r.minNs,
        meanNs: r.meanNs,
        rankTimeNs: r.rankTimeNs,
        libraryBytes: r.libraryBytes,
      };
    });
    expect(formatJsonReport(shuffled)).toBe(formatJsonReport(result));
    const doc = JSON.parse(formatJsonReport(result));
    expect(Object.keys(doc.scenario.algorithms[0].params)).toEqual([
      'async',
      'depth',
      'direction',
      'factor',
      'segment',
    ]);
  });
});

describe('progress bar', () => {
  function setup(isTTY: boolean) {
    let clock = 0;
    const written: string[] = [];
    const bar = createProgressBar({ write: (t) => written.push(t), isTTY, now: () => clock });
    return { bar, written, advance: (ms: number) => (clock += ms) };
  }

  it('stays silent during the first second', () => {
    const { bar, written, advance } = setup(true);
    advance(999);
    bar.update(1, 10);
    bar.finish();
    expect(written).toEqual([]);
  });

  it('draws after one second on a terminal and erases itself at the end', () => {
    const { bar, written, advance } = setup(true);
    advance(1500);
    bar.update(5, 10);
    expect(written).toEqual([`\r[${'#'.repeat(15)}${' '.repeat(15)}] 5/10 points`]);
    bar.finish();
    expect(written[1]).toMatch(/^\r +\r$/);
  });

  it('never draws when stderr is not a terminal', () => {
    const { bar, written, advance } = setup(false);
    advance(5000);
    bar.update(5, 10);
    bar.finish();
    expect(written).toEqual([]);
  });
});
