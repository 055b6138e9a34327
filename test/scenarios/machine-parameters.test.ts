// `sweep: { machine.<path>: [...] }`: machine parameters as sweep axes, how they load, expand, fail,
// report, and run end to end (docs/scenario-format.md, "Machine parameters").
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../algorithms/catalogue.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { PARAMETERS } from '../../hardware/variant/parameters.ts';
import { expandScenario } from '../../scenarios/expand.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { sweepIdentity } from '../../scenarios/shard/identity.ts';
import { inputErrorOf } from '../helpers/input-error.ts';
import { runCli } from './run-cli.ts';

const resolve = (ref: string, baseDir: string) => resolveMachine(ref, { baseDir });
const load = (text: string, machineOverride?: string) =>
  loadScenarioText(text, {
    file: 'study.yaml',
    resolveMachine: resolve,
    catalogue,
    ...(machineOverride ? { machineOverride } : {}),
  });

const BASE = `machine: dancer
ranks: 4
operation: bcast
algorithms: [binomial, knem-linear]
sizes: 64KiB
`;
const withSweep = (sweep: string) => `${BASE}sweep:\n${sweep}`;
const errorOf = (text: string) => inputErrorOf(() => load(text));

describe('machine-parameter axes', () => {
  it('give one table per combination, the first axis outermost, values read in the machine file units', () => {
    const s = load(
      withSweep(`  machine.links.*.bandwidth: [4GB/s, 8000MB/s]\n  machine.numaNodes.*.latencyNs: [60, 0.1us]\n`),
    );
    expect(s.machineParameters).toEqual(['links.*.bandwidth', 'numaNodes.*.latencyNs']);
    const tables = expandScenario(s);
    expect(tables.map((t) => t.machine.parameters!.map((p) => p.value))).toEqual([
      [4, 60],
      [4, 100],
      [8, 60],
      [8, 100],
    ]);
    expect(tables.map((t) => t.machine.spec.links[0].bandwidth)).toEqual([4, 4, 8, 8]);
    expect(tables[3].machine.spec.numaNodes.map((n) => n.latencyNs)).toEqual([100, 100]);
    expect(tables[0].machine.parameters![0].shown).toBe('4GB/s');
    // Points simulate the variant, and unchanged parts are shared between variants.
    expect(tables[1].rows[0].cells[0].point.machine).toBe(tables[1].machine.spec);
    expect(tables[0].machine.spec.caches).toBe(tables[3].machine.spec.caches);
  });

  it('vary every swept machine, inside the machine axis, and follow --machine', () => {
    const s = load(
      `${BASE.replace('machine: dancer\n', '')}sweep:\n  machine: [dancer, zoot]\n  machine.costs.copyBandwidth: [5, 6]\n`,
    );
    expect(s.machines.map((m) => `${m.ref}/${m.spec.costs.copyBandwidth}`)).toEqual([
      'dancer/5',
      'dancer/6',
      'zoot/5',
      'zoot/6',
    ]);
    const over = load(withSweep('  machine.costs.copyBandwidth: [5, 6]\n'), 'zoot');
    expect(over.machines.map((m) => m.spec.name)).toEqual(['zoot', 'zoot']);
  });

  it('report every misuse with file, line and field', () => {
    const unknown = errorOf(withSweep('  machine.links.*.bandwith: [4]\n'));
    expect(unknown.location).toMatchObject({ file: 'study.yaml', line: 7, field: 'sweep.machine.links.*.bandwith' });
    expect(unknown.detail).toMatch(/unknown key 'bandwith' in links\.0 \(did you mean 'bandwidth'\?\); keys there:/);

    const nothing = errorOf(withSweep('  machine.nics.*.bandwidth: [4]\n'));
    expect(nothing.detail).toMatch(/machine 'dancer': 'nics\.\*\.bandwidth' matches nothing/);

    const unit = errorOf(withSweep('  machine.links.*.bandwidth: [4GB/s, 4ns]\n'));
    expect(unit.location).toMatchObject({ line: 7, field: 'sweep.machine.links.*.bandwidth[1]' });
    expect(unit.detail).toMatch(/links\.\*\.bandwidth must be a bandwidth: unknown unit 'ns'.*GB\/s/);

    // YAML's .nan and a number too large for a double are named, not printed as NaN or Infinity.
    expect(errorOf(withSweep('  machine.links.*.bandwidth: [.nan]\n')).detail).toBe(
      "links.*.bandwidth must be a bandwidth: expected a finite bandwidth, got '.nan', which is not a number",
    );
    expect(errorOf(withSweep('  machine.links.*.bandwidth: [1e400]\n')).detail).toBe(
      'links.*.bandwidth must be a bandwidth: expected a finite bandwidth, got an infinite or too large number',
    );

    const negative = errorOf(withSweep('  machine.numaNodes.0.bandwidth: [-3]\n'));
    expect(negative.detail).toMatch(/a bandwidth must be positive, got -3/);

    const wrongType = errorOf(withSweep('  machine.kernel.mechanisms.knem: [yes-please]\n'));
    expect(wrongType.detail).toMatch(/must be true or false/);

    const twice = errorOf(withSweep('  machine.links.*.bandwidth: [4]\n  machine.links.0.bandwidth: [5]\n'));
    expect(twice.location).toMatchObject({ line: 8, field: 'sweep.machine.links.0.bandwidth' });
    expect(twice.detail).toMatch(/sets links\.0\.bandwidth .*which 'links\.\*\.bandwidth' sets too/);

    const repeated = errorOf(withSweep('  machine.links.*.bandwidth: [4GB/s, 4000MB/s]\n'));
    expect(repeated.detail).toMatch(/4000MB\/s is listed twice \(as 4GB\/s\)/);

    const invalid = errorOf(withSweep('  machine.numaNodes.*.writeCost: [1.5, 0.5]\n'));
    expect(invalid.location).toMatchObject({ field: 'sweep.machine.numaNodes.*.writeCost[1]' });
    expect(invalid.detail).toMatch(
      /machine 'dancer' with numaNodes\.\*\.writeCost = 0\.5 is not a valid machine \(numaNodes\[0\]\.writeCost\): a written byte costs at least one read byte/,
    );

    // A kernel parameter's rule (a relative speed divides, a flag is 0 or 1) is the machine file's,
    // checked when the scenario loads, not where a run first reads the parameter.
    const divisor = errorOf(withSweep('  machine.kernel.params.kernelCopyEfficiency: [1, 0]\n'));
    expect(divisor.location).toMatchObject({ field: 'sweep.machine.kernel.params.kernelCopyEfficiency[1]' });
    expect(divisor.detail).toMatch(/kernelCopyEfficiency = 0 is not a valid machine .*must be greater than zero/);
    const flag = errorOf(withSweep('  machine.kernel.params.knemMarksDirty: [0, 7]\n'));
    expect(flag.location).toMatchObject({ field: 'sweep.machine.kernel.params.knemMarksDirty[1]' });
    expect(flag.detail).toMatch(/knemMarksDirty must be 0 or 1, got 7/);

    const first = errorOf(
      withSweep('  machine.numaNodes.1.writeCost: [0.5, 1.5]\n  machine.links.*.latencyNs: [10, 20]\n'),
    );
    expect(first.location).toMatchObject({ line: 7, field: 'sweep.machine.numaNodes.1.writeCost[0]' });
    expect(first.detail).toMatch(
      /with numaNodes\.1\.writeCost = 0\.5, links\.\*\.latencyNs = 10 is not a valid machine/,
    );

    const empty = errorOf(withSweep('  machine.links.*.bandwidth: []\n'));
    expect(empty.detail).toMatch(/must list at least one value/);

    const syntax = errorOf(withSweep('  machine.links..bandwidth: [4]\n'));
    expect(syntax.detail).toMatch(/part 2 of the path is empty/);

    const structure = errorOf(withSweep('  machine.cores.*.numa: [0]\n'));
    expect(structure.detail).toMatch(/cores\.0\.numa is not a parameter a sweep may change/);

    const outside = errorOf(`${BASE}machine.links.*.bandwidth: 4\n`);
    expect(outside.location).toMatchObject({ line: 6, field: 'machine.links.*.bandwidth' });
    expect(outside.detail).toMatch(/is a machine parameter, which a scenario sweeps: write it under sweep/);

    // Other sweep keys are checked as before.
    expect(errorOf(withSweep('  rank: [2]\n')).detail).toMatch(
      /unknown key 'rank' in sweep \(did you mean 'ranks'\?\)/,
    );
  });

  it('are part of a shard identity through the points', () => {
    const text = (v: string) => withSweep(`  machine.links.*.bandwidth: [${v}]\n`);
    const id = (v: string) =>
      sweepIdentity(
        'same text',
        { cwd: '/', file: 'study.yaml' },
        expandScenario(load(text(v))).flatMap((t) => t.rows.flatMap((r) => r.cells.map((c) => c.point))),
      );
    expect(id('4')).not.toBe(id('5'));
    expect(id('4')).toBe(id('4GB/s'));
  });
});

describe('a machine-parameter sweep end to end', () => {
  const file = join(import.meta.dirname, '../../scenarios/files/bcast-design-space-dancer.yaml');

  it('prints one table per variant naming its parameters, and JSON and CSV carry them', async () => {
    const table = await runCli(['run', file]);
    expect(table.stderr).toBe('');
    const headers = table.stdout.split('\n').filter((l) => l.startsWith('# Machine parameters: '));
    expect(headers).toEqual([
      '# Machine parameters: links.*.bandwidth = 4GB/s, numaNodes.*.bandwidth = 8.85GB/s',
      '# Machine parameters: links.*.bandwidth = 4GB/s, numaNodes.*.bandwidth = 17.7',
      '# Machine parameters: links.*.bandwidth = 11.72GB/s, numaNodes.*.bandwidth = 8.85GB/s',
      '# Machine parameters: links.*.bandwidth = 11.72GB/s, numaNodes.*.bandwidth = 17.7',
      '# Machine parameters: links.*.bandwidth = 24GB/s, numaNodes.*.bandwidth = 8.85GB/s',
      '# Machine parameters: links.*.bandwidth = 24GB/s, numaNodes.*.bandwidth = 17.7',
    ]);
    const json = JSON.parse((await runCli(['run', file, '--json'])).stdout) as {
      scenario: { machineParameters: string[] };
      tables: {
        machine: { parameters: { path: string; value: number }[] };
        rows: { results: { meanNs: number }[] }[];
      }[];
    };
    expect(json.scenario.machineParameters).toEqual(['links.*.bandwidth', 'numaNodes.*.bandwidth']);
    expect(json.tables[5].machine.parameters).toEqual([
      { path: 'links.*.bandwidth', value: 24, shown: '24GB/s' },
      { path: 'numaNodes.*.bandwidth', value: 17.7, shown: '17.7' },
    ]);
    // Halving every memory controller's bandwidth slows the 4 MiB linear broadcast, which reads memory.
    const linear4MiB = (t: number) => json.tables[t].rows[1].results[0].meanNs;
    expect(linear4MiB(0)).toBeGreaterThan(linear4MiB(1));
    const csv = (await runCli(['run', file, '--csv'])).stdout.split('\n');
    expect(csv[0].endsWith(',machine.links.*.bandwidth,machine.numaNodes.*.bandwidth')).toBe(true);
    expect(csv[1].endsWith(',4,8.85')).toBe(true);
  });

  it('lists in docs/scenario-format.md every parameter a sweep may change', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/scenario-format.md'), 'utf8');
    const table = doc.slice(doc.indexOf('| place | value |'), doc.indexOf('A value takes the units'));
    // The table writes a list's element as `*` (`links.*.bandwidth`); PARAMETERS keys by place.
    const shown = (key: string) => key.replace(/^(numaNodes|cores|caches|links|ioBuses|nics)\./, '$1.*.');
    const missing = Object.keys(PARAMETERS).filter((key) => !table.includes(`\`${shown(key)}\``));
    expect(missing).toEqual([]);
  });

  it('is the example docs/scenario-format.md shows', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/scenario-format.md'), 'utf8');
    const body = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n')
      .trim();
    expect(doc).toContain(`\`\`\`yaml\n${body}\n\`\`\``);
  });

  it('gives the preset own times where the values are the preset own', async () => {
    const times = async (path: string) =>
      (
        JSON.parse((await runCli(['run', path, '--json'])).stdout) as {
          tables: { rows: { results: { meanNs: number }[] }[] }[];
        }
      ).tables.map((t) => t.rows.map((r) => r.results.map((c) => c.meanNs)));
    const dir = mkdtempSync(join(tmpdir(), 'intranode-parameters-'));
    const plain = join(dir, 'plain.yaml');
    writeFileSync(plain, readFileSync(file, 'utf8').replace(/^sweep:[\s\S]*$/m, ''));
    try {
      const [swept, own] = [await times(file), await times(plain)];
      expect(own).toHaveLength(1);
      expect(swept[3]).toEqual(own[0]);
      expect(swept[0]).not.toEqual(own[0]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
