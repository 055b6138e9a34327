// The seed does real work: `placement: random` and per-rank arrival `skew`. Same seed, same
// bytes out; another seed, another placement and other times.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../scenarios/duration.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { compactOrder, placeRanks } from '../../scenarios/placement.ts';
import { formatCsvReport } from '../../scenarios/report/csv.ts';
import { formatJsonReport } from '../../scenarios/report/json.ts';
import { formatTableReport } from '../../scenarios/report/table.ts';
import { runScenario } from '../../scenarios/run.ts';
import { seededStream, shuffled } from '../../scenarios/seeded.ts';
import { arrivalDelays } from '../../scenarios/skew.ts';
import { runCli } from './run-cli.ts';
import { fakeResolver, fakeRunner, MACHINES, fakeCatalogue } from './fixtures.ts';

/** The parts of `--json` output these tests read. */
interface JsonReport {
  scenario: { seed: string | null; skewNs: number };
  tables: { seed: string }[];
}
const parseJson = (text: string) => JSON.parse(text) as JsonReport;
const machine = MACHINES['two-socket'];

describe('placement: random', () => {
  it('is a seeded shuffle of every core, ranks taking a prefix', () => {
    const order = placeRanks(machine, 8, 'random', 'a');
    expect([...order].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(order).not.toEqual(compactOrder(machine));
    expect(placeRanks(machine, 8, 'random', 'a')).toEqual(order);
    expect(placeRanks(machine, 3, 'random', 'a')).toEqual(order.slice(0, 3));
    expect(placeRanks(machine, 8, 'random', 'b')).not.toEqual(order);
  });

  it('shuffles every order with equal chance', () => {
    const random = seededStream('uniform', 'placement');
    const counts = new Map<string, number>();
    for (let i = 0; i < 6000; i++) {
      const key = shuffled([1, 2, 3], random).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(120);
  });

  it('is accepted by the loader, and a misspelling suggests it', () => {
    const base = 'machine: two-socket\nranks: 4\noperation: test-op\nalgorithms: [linear]\nsizes: [1KiB]\n';
    expect(
      loadScenarioText(`${base}placement: random\n`, { resolveMachine: fakeResolver, catalogue: fakeCatalogue })
        .placements,
    ).toEqual(['random']);
    expect(() =>
      loadScenarioText(`${base}placement: randon\n`, {
        file: 's.yaml',
        resolveMachine: fakeResolver,
        catalogue: fakeCatalogue,
      }),
    ).toThrow(
      "s.yaml:6:12 (placement): placement must be compact, scatter, random or a list of cores such as [0, 4, 8], got 'randon' (did you mean 'random'?)",
    );
  });
});

describe('skew', () => {
  it('parses durations in ns, us and ms, with clear errors', () => {
    expect([
      parseDuration('2us'),
      parseDuration('500ns'),
      parseDuration('1.5ms'),
      parseDuration('3 µs'),
      parseDuration(0),
      parseDuration('0'),
    ]).toEqual([2000, 500, 1_500_000, 3000, 0, 0]);
    expect(() => parseDuration(2)).toThrow('a duration needs a unit: 2us, 2ns or 2ms');
    expect(() => parseDuration('2')).toThrow("'2' needs a unit: ns, us or ms");
    expect(() => parseDuration('2s')).toThrow("unknown unit 's' in '2s' (use ns, us or ms)");
    expect(() => parseDuration('-1us')).toThrow("'-1us' is negative: a duration is 0 or more");
    expect(parseDuration('1.5e3ns')).toBe(1500);
    expect(() => parseDuration('1e308ms')).toThrow("'1e308ms' is longer than an hour, the longest duration allowed");
    expect(() => parseDuration('1e20ms')).toThrow('longer than an hour');
    expect(parseDuration('3600000ms')).toBe(3600e9);
    expect(() => parseDuration(-5)).toThrow('-5 is negative: a duration is 0 or more');
  });

  it('is read by the loader, with errors naming file, line and field', () => {
    const base = 'machine: two-socket\nranks: 4\noperation: test-op\nalgorithms: [linear]\nsizes: [1KiB]\n';
    expect(
      loadScenarioText(`${base}skew: 2us\n`, { resolveMachine: fakeResolver, catalogue: fakeCatalogue }).skewNs,
    ).toBe(2000);
    expect(loadScenarioText(base, { resolveMachine: fakeResolver, catalogue: fakeCatalogue }).skewNs).toBeUndefined();
    expect(() =>
      loadScenarioText(`${base}skew: 2 parsecs\n`, {
        file: 's.yaml',
        resolveMachine: fakeResolver,
        catalogue: fakeCatalogue,
      }),
    ).toThrow("s.yaml:6:7 (skew): skew: unknown unit 'parsecs' in '2 parsecs' (use ns, us or ms)");
    expect(() =>
      loadScenarioText(`${base}skew: [1us]\n`, {
        file: 's.yaml',
        resolveMachine: fakeResolver,
        catalogue: fakeCatalogue,
      }),
    ).toThrow(/s\.yaml:6:7 \(skew\): expected a single/);
  });

  it("draws each rank's delay in each iteration uniformly on [0, skew], from the seed", () => {
    const delays = arrivalDelays('s', 1000, 400, 8);
    expect(delays).toHaveLength(400);
    const all = delays.flat();
    expect(Math.min(...all)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...all)).toBeLessThanOrEqual(1000);
    expect(Math.abs(all.reduce((a, b) => a + b, 0) / all.length - 500)).toBeLessThan(25);
    expect(all.filter((d) => d < 250).length / all.length).toBeCloseTo(0.25, 1);
    expect(arrivalDelays('s', 1000, 400, 8)).toEqual(delays);
    expect(arrivalDelays('t', 1000, 400, 8)).not.toEqual(delays);
  });
});

describe('the seed through the simulator and the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intranode-seed-'));
  const scenario = (extra: string) => {
    const file = join(dir, `s${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(
      file,
      `name: seeded\nmachine: dancer\nranks: 4\noperation: bcast\nalgorithms: [basic, binomial]\nsizes: [4KiB, 64KiB]\niterations: 3\n${extra}`,
    );
    return file;
  };
  const run = async (argv: string[]) => {
    const r = await runCli(argv, { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    return r.stdout;
  };
  const cores = (out: string) => /# Placement: random \(cores ([\d ]+)\)/.exec(out)?.[1];
  const rows = (out: string) => out.split('\n').filter((l) => /^\d/.test(l));

  it('gives byte-identical output for the same seed, another placement for another', async () => {
    const file = scenario('placement: random\nseed: one\n');
    const first = await run(['run', file]);
    expect(await run(['run', file])).toBe(first);
    const other = await run(['run', file, '--seed', 'two']);
    expect(cores(first)).toMatch(/^\d \d \d \d$/);
    expect(cores(other)).not.toBe(cores(first));
  });

  it('skew changes the times, the same seed repeats them and another seed changes them', async () => {
    const lockstep = rows(await run(['run', scenario('')]));
    const zero = rows(await run(['run', scenario('skew: 0us\n')]));
    const file = scenario('skew: 2us\n');
    const skewed = await run(['run', file]);
    expect(zero).toEqual(lockstep);
    expect(rows(skewed)).not.toEqual(lockstep);
    expect(await run(['run', file])).toBe(skewed);
    expect(rows(await run(['run', file, '--seed', 'other']))).not.toEqual(rows(skewed));
  });
});

describe('skew in the reports', () => {
  it('is named in the table header and the JSON', () => {
    const text =
      'machine: two-socket\nranks: 4\noperation: test-op\nalgorithms: [linear]\nsizes: [1KiB]\nseed: s1\nskew: 1.5us\n';
    const result = runScenario(
      loadScenarioText(text, { resolveMachine: fakeResolver, catalogue: fakeCatalogue }),
      fakeRunner,
    );
    expect(formatTableReport(result)).toContain(
      "\n# Skew: each rank arrives up to 1.5 us late (uniform, seed s1); time: the slowest rank's, from its arrival to its return\n",
    );
    expect(parseJson(formatJsonReport(result)).scenario.skewNs).toBe(1500);
    expect(result.tables[0].rows[0].cells[0].point.skewNs).toBe(1500);
  });
});

describe('sweep.seed', () => {
  const text =
    'machine: two-socket\nranks: 4\nplacement: random\noperation: test-op\nalgorithms: [linear]\nsizes: [1KiB]\nsweep:\n  seed: [a, b, 7]\n';
  const load = (opts: { seedOverride?: string } = {}) =>
    loadScenarioText(text, { file: 'sweep.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue, ...opts });

  it('makes one table per seed, each placing and drawing from its own', () => {
    const result = runScenario(load(), fakeRunner);
    expect(result.tables.map((t) => t.seed)).toEqual(['a', 'b', '7']);
    expect(result.tables.map((t) => t.cores)).toEqual(
      ['a', 'b', '7'].map((seed) => placeRanks(machine, 4, 'random', seed)),
    );
    expect(result.tables[0].cores).not.toEqual(result.tables[1].cores);
    expect(result.tables[1].rows[0].cells[0].point.seed).toBe('b');
  });

  it('names the seed of each table in every format', () => {
    const result = runScenario(load(), fakeRunner);
    expect(formatTableReport(result).match(/^# Seed: .*$/gm)).toEqual(['# Seed: a', '# Seed: b', '# Seed: 7']);
    const json = parseJson(formatJsonReport(result));
    expect(json.scenario.seed).toBeNull();
    expect(json.tables.map((t) => t.seed)).toEqual(['a', 'b', '7']);
    const csv = formatCsvReport(result).trimEnd().split('\n');
    expect(csv[0].endsWith(',normalized,seed')).toBe(true);
    expect(csv.slice(1).map((l) => l.split(',').at(-1))).toEqual(['a', 'b', '7']);
  });

  it('is replaced by --seed, and may not be given twice', () => {
    const one = load({ seedOverride: 'z' });
    expect([one.seed, one.seedSweep]).toEqual(['z', undefined]);
    expect(formatTableReport(runScenario(one, fakeRunner))).not.toContain('# Seed:');
    expect(() =>
      loadScenarioText(`${text}seed: x\n`, { file: 's.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue }),
    ).toThrow("s.yaml:9:7 (seed): 'seed' is given both here and under sweep; keep one");
  });
});
