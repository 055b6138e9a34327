// How the reports show root: all, swept roots, hardware threads and fresh buffers, and that they
// show nothing new when none is used.
import { describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { runScenario } from '../../scenarios/run.ts';
import { formatTableReport } from '../../scenarios/report/table.ts';
import { formatJsonReport } from '../../scenarios/report/json.ts';
import { formatCsvReport } from '../../scenarios/report/csv.ts';
import { formatImbReport } from '../../scenarios/report/imb.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { fakeCatalogue, fakeMachine, fakeResolver, fakeRunner } from './fixtures.ts';

function smtMachine(): MachineSpec {
  const m = fakeMachine('smt', 2, 2);
  return { ...m, cores: m.cores.map((c) => ({ ...c, threads: 2 })) };
}

const run = (extra: string) =>
  runScenario(
    loadScenarioText(`machine: smt\noperation: test-op\nalgorithms: [linear]\nsizes: 1KiB\n${extra}`, {
      file: 'study.yaml',
      resolveMachine: (ref, dir) => (ref === 'smt' ? smtMachine() : fakeResolver(ref, dir)),
      catalogue: fakeCatalogue,
    }),
    fakeRunner,
  );

describe('reports of the new scenario options', () => {
  it('say nothing new when none is used', () => {
    const r = run('ranks: 2\n');
    const table = formatTableReport(r);
    expect(table).toContain('# Placement: compact (cores 0 2)\n');
    expect(table).toContain('# Operation: test-op, root 0;');
    expect(table).not.toContain('Buffers');
    const json = JSON.parse(formatJsonReport(r)) as { scenario: Record<string, unknown>; tables: object[] };
    expect(json.scenario.root).toBe(0);
    expect('buffers' in json.scenario).toBe(false);
    expect(Object.keys(json.tables[0])).not.toContain('threads');
    expect(Object.keys(json.tables[0])).not.toContain('root');
    expect(formatCsvReport(r).split('\n')[0]).not.toContain('buffers');
  });

  it('name the root of each table, all included', () => {
    const r = run('ranks: 2\nsweep: { root: [1, all] }\n');
    const table = formatTableReport(r);
    expect(table).toContain('# Operation: test-op, root 1;');
    expect(table).toContain('# Operation: test-op, root all (mean over every root in turn);');
    const json = JSON.parse(formatJsonReport(r)) as { scenario: { root: unknown }; tables: { root: unknown }[] };
    expect(json.scenario.root).toBeNull();
    expect(json.tables.map((t) => t.root)).toEqual([1, 'all']);
    expect(
      formatCsvReport(r)
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[5]),
    ).toEqual(['1', 'all']);
    expect(formatImbReport(r)).toContain('; root all');
  });

  it('name the hardware threads with smt', () => {
    const r = run('ranks: 3\nsmt: on\n');
    expect(formatTableReport(r)).toContain('# Placement: compact, smt (hardware threads 0.0 0.1 2.0)\n');
    const json = JSON.parse(formatJsonReport(r)) as { tables: { cores: number[]; threads: number[] }[] };
    expect(json.tables[0].cores).toEqual([0, 0, 2]);
    expect(json.tables[0].threads).toEqual([0, 1, 0]);
    expect(formatImbReport(r)).toContain('placement compact, smt (hardware threads 0.0 0.1 2.0)');
  });

  it('say when buffers are fresh', () => {
    const r = run('ranks: 2\nbuffers: fresh\n');
    expect(formatTableReport(r)).toContain('# Buffers: fresh');
    expect((JSON.parse(formatJsonReport(r)) as { scenario: { buffers: string } }).scenario.buffers).toBe('fresh');
    const [header, first] = formatCsvReport(r).split('\n');
    expect(header.endsWith(',buffers')).toBe(true);
    expect(first.endsWith(',fresh')).toBe(true);
    expect(formatImbReport(r)).toContain('; fresh buffers');
  });
});
