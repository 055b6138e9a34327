import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../../scenarios/cli/args.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_REGRESSION, reproduceCommand, type ReproduceIO } from '../../scenarios/cli/reproduce-command.ts';
import type { ScenarioRunner } from '../../scenarios/reproduce/run-claims.ts';
import { formatSize, simulateScenarioFile } from '../../scenarios/reproduce/scenario-adapter.ts';
import { PAPERS_DIR } from '../../scenarios/reproduce/suite.ts';
import { keptWorkersOnly } from '../helpers/workers-only.ts';
import { KiB, papersDir, syntheticRun } from './fixtures.ts';

// The commands of this file share their worker threads, as the sweeps of one command do.
const workers = keptWorkersOnly();
afterAll(() => workers.close());

const CLAIMS = `seed: 000_x.txt
title: A paper
claims:
  - id: p-ratio
    source: Fig. 2
    statement: a takes half of base's time at 64 KiB
    scenario: s.yaml
    measure: { kind: ratio, of: a, to: base, at: 64KiB }
    published: 0.5
    tolerance: 0.05
    expect: pass
    fast: true
  - id: p-order
    source: Fig. 3
    statement: base is faster than a
    scenario: s.yaml
    measure: { kind: ordering, faster: base, than: [a], over: 16KiB..64KiB }
    tolerance: 5%
    expect: fail
    missing: the mechanism that makes base fast
  - id: p-input
    source: p. 4
    statement: a costs 5 ns more than it
    scenario: t.yaml
    measure: { kind: difference, of: a, to: base, at: 16KiB }
    published: 5
    tolerance: 1
    input: true
    expect: fail
    missing: a costs twice base here
`;

function io(
  runner: ScenarioRunner,
  dir: string,
  tty = false,
): ReproduceIO & { out: string[]; err: string[]; runs: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const runs: string[] = [];
  let t = 0;
  return {
    out,
    err,
    runs,
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    stderrIsTTY: tty,
    now: () => (t += 1000),
    defaultJobs: 1,
    loadWorkers: workers.loadWorkers,
    papersDir: dir,
    runScenario: async (file, onProgress, runBatch) => {
      runs.push(file);
      return runner(file, onProgress, runBatch);
    },
  };
}

const run: ScenarioRunner = (_file, onProgress) => {
  onProgress?.(1, 1);
  return Promise.resolve(syntheticRun([16 * KiB, 64 * KiB], { base: [10, 10], a: [20, 5] }));
};

describe('reproduce command', () => {
  it('refuses a report folder it could not write before running any claim', async () => {
    const dir = papersDir(CLAIMS, { 's.yaml': '', 't.yaml': '' });
    const file = join(mkdtempSync(join(tmpdir(), 'report-')), 'a-file');
    writeFileSync(file, '');
    const x = io(run, dir);
    await expect(reproduceCommand({ json: false, strict: false, report: file }, x)).rejects.toThrow(
      /cannot write the report: .*a-file is a file, where a folder goes/,
    );
    expect(x.runs).toEqual([]);
    // A file further up the path, and a README.md that is not a report (the report would replace it).
    await expect(reproduceCommand({ json: false, strict: false, report: join(file, 'sub') }, x)).rejects.toThrow(
      /cannot write the report: .*a-file is a file, where a folder goes/,
    );
    const notes = mkdtempSync(join(tmpdir(), 'report-'));
    writeFileSync(join(notes, 'README.md'), 'my notes\n');
    await expect(reproduceCommand({ json: false, strict: false, report: notes }, x)).rejects.toThrow(
      /README\.md is not a report this command wrote/,
    );
    expect(readFileSync(join(notes, 'README.md'), 'utf8')).toBe('my notes\n');
    expect(x.runs).toEqual([]);
  });

  it('refuses options that leave no claim to run', async () => {
    const dir = papersDir(CLAIMS, { 's.yaml': '', 't.yaml': '' });
    const x = io(run, dir);
    await expect(
      reproduceCommand({ json: false, strict: false, only: 'p-order', skip: ['p-order'] }, x),
    ).rejects.toThrow('--only p-order with --skip p-order leave no claim to run');
    expect(x.runs).toEqual([]);
  });

  it('prints one row per claim with status and, for a FAIL, the missing mechanism; each scenario runs once', async () => {
    const dir = papersDir(CLAIMS, { 's.yaml': '', 't.yaml': '' });
    const env = io(run, dir);
    expect(await reproduceCommand({ json: false, strict: true }, env)).toBe(0);
    const text = env.out.join('');
    expect(text).toMatch(/^p-ratio\s+000 Fig\. 2\s+0\.5\s+0\.50\s+0\.05\s+PASS\s*$/m);
    expect(text).toMatch(/^p-order .*broken: worst 2\.00x at 64KiB\s+5%\s+FAIL\s+the mechanism that makes base fast$/m);
    // An input is not counted, but the table says when it lies outside its published range, and why.
    expect(text).toMatch(/^p-input .*10\.00 ns\s+1\s+INPUT \(outside its range\)\s+a costs twice base here$/m);
    expect(text).toContain(
      '1 of 2 claims reproduced, 1 fail, 1 inputs (not counted); 0 differ from their expected status; 2 scenarios',
    );
    expect(env.runs.map((f) => f.split('/').pop())).toEqual(['s.yaml', 't.yaml']);
    // Inside its range after all: plain INPUT, and it differs from its expect.
    const inRange = papersDir(CLAIMS.replace('published: 5\n', 'published: 10\n'), { 's.yaml': '', 't.yaml': '' });
    const again = io(run, inRange);
    expect(await reproduceCommand({ json: false, strict: true }, again)).toBe(0);
    const inside = again.out.join('');
    expect(inside).toMatch(/^p-input .*10\.00 ns\s+1\s+INPUT \(expected outside\)\s*$/m);
    expect(inside).toContain('1 differ from their expected status');
  });

  it('--strict fails only when a claim expected to pass fails', async () => {
    const dir = papersDir(CLAIMS.replace('published: 0.5', 'published: 0.9'), { 's.yaml': '', 't.yaml': '' });
    const env = io(run, dir);
    expect(await reproduceCommand({ json: false, strict: false }, env)).toBe(0);
    expect(await reproduceCommand({ json: false, strict: true }, env)).toBe(EXIT_REGRESSION);
    expect(env.err.join('')).toContain('p-ratio was expected to pass and fails');
    // So does an input expected inside its range that lies outside it.
    const input = papersDir(CLAIMS.replace('expect: fail\n    missing: a costs twice base here\n', 'expect: pass\n'), {
      's.yaml': '',
      't.yaml': '',
    });
    const inputEnv = io(run, input);
    expect(await reproduceCommand({ json: false, strict: true }, inputEnv)).toBe(EXIT_REGRESSION);
    expect(inputEnv.err.join('')).toContain('input p-input was expected inside its range and lies outside it');
    expect(inputEnv.out.join('')).toMatch(/^p-input .*INPUT \(outside its range\) \(expected inside\)\s*$/m);
  });

  it('--only selects a claim or a paper, --fast the claims CI affords, --json gives the values', async () => {
    const dir = papersDir(CLAIMS, { 's.yaml': '', 't.yaml': '' });
    const env = io(run, dir);
    await reproduceCommand({ json: true, strict: false, only: 'p-order' }, env);
    const doc = JSON.parse(env.out.join('')) as {
      claims: { id: string; status: string; value: number | null; missing: string | null }[];
    };
    expect(doc.claims).toEqual([
      expect.objectContaining({
        id: 'p-order',
        status: 'FAIL',
        value: 2,
        missing: 'the mechanism that makes base fast',
      }),
    ]);
    const fast = io(run, dir);
    await reproduceCommand({ json: true, strict: false, only: '000', fastOnly: true }, fast);
    expect((JSON.parse(fast.out.join('')) as { claims: { id: string }[] }).claims.map((c) => c.id)).toEqual([
      'p-ratio',
    ]);
    await expect(reproduceCommand({ json: false, strict: false, only: 'p-ordr' }, env)).rejects.toThrow(
      "no paper or claim 'p-ordr' (did you mean 'p-order'?)",
    );
    // A value on the command line: a usage error (exit 2), not an input file's.
    await expect(reproduceCommand({ json: false, strict: false, only: 'p-ordr' }, env)).rejects.toBeInstanceOf(
      UsageError,
    );
  });

  it('shows progress on a terminal only', async () => {
    const dir = papersDir(CLAIMS, { 's.yaml': '', 't.yaml': '' });
    const tty = io(run, dir, true);
    await reproduceCommand({ json: false, strict: false }, tty);
    expect(tty.err.join('')).toContain('[1/2] 000/s.yaml: 1/1 points');
    const pipe = io(run, dir, false);
    await reproduceCommand({ json: false, strict: false }, pipe);
    expect(pipe.err).toEqual([]);
  });

  it('runs one tiny scenario end to end through the simulator', async () => {
    const scenario =
      'machine: dancer\nranks: 2\nplacement: [0, 4]\noperation: pingpong\nalgorithms: [shm, knem]\nsizes: [4KiB, 1MiB]\ncache: off\niterations: 1\nwarmup: 0\n';
    const claims = `seed: 004_x.txt\ntitle: t\nclaims:\n  - { id: e2e, source: s, statement: st, scenario: s.yaml, measure: { kind: crossover, winner: knem, loser: shm, over: 4KiB..1MiB }, published: 1MiB, tolerance: x1, expect: pass }\n`;
    const dir = papersDir(claims, { 's.yaml': scenario });
    const env = io(simulateScenarioFile, dir);
    await reproduceCommand({ json: true, strict: false }, env);
    const [c] = (JSON.parse(env.out.join('')) as { claims: { simulated: string }[] }).claims;
    // The same file simulated on its own: the crossover read off its table, the smallest size from
    // which knem is never slower, is the one the claim reports.
    const { tables } = await simulateScenarioFile(join(dir, '000', 's.yaml'));
    const rows = tables[0].rows;
    const ahead = rows.map((r) => r.cells.knem.meanNs <= r.cells.shm.meanNs);
    const from = ahead.lastIndexOf(false) + 1;
    const expected = from === rows.length ? 'knem never ahead' : formatSize(rows[from].bytes);
    expect(c.simulated).toBe(expected);
  });

  it('--jobs 2 runs the points on worker threads and prints what one job prints', async () => {
    // Two fast claims of seed 000 as the suite writes them, with their scenario files.
    const real = readFileSync(join(PAPERS_DIR, '000', 'claims.yaml'), 'utf8');
    const block = (id: string): string => new RegExp(`  - id: ${id}\\n(?:    .*\\n)+`).exec(real)?.[0] ?? '';
    const claims = `seed: 000_868ead70a34631fa.txt\ntitle: t\nclaims:\n${block('000-t1-bcast-knem')}${block('000-f1-zoot-read-vs-write')}`;
    const scenario = (name: string): string => readFileSync(join(PAPERS_DIR, '000', name), 'utf8');
    const dir = papersDir(claims, {
      'table1-bcast.yaml': scenario('table1-bcast.yaml'),
      'fig1-knem-direction.yaml': scenario('fig1-knem-direction.yaml'),
    });
    const outputs: string[] = [];
    for (const jobs of [1, 2]) {
      const env = { ...io(simulateScenarioFile, dir), now: () => 0 };
      await reproduceCommand({ json: false, strict: false, jobs }, env);
      outputs.push(env.out.join(''));
    }
    expect(outputs[0]).toMatch(/^000-t1-bcast-knem .* (PASS|FAIL) /m);
    expect(outputs[0]).toMatch(/^000-f1-zoot-read-vs-write /m);
    expect(outputs[1]).toBe(outputs[0]);
  });

  it('--skip leaves out claims by id or scenario file, and names a misspelt one', async () => {
    const dir = papersDir(CLAIMS, { 's.yaml': '', 't.yaml': '' });
    const env = io(run, dir);
    await reproduceCommand({ json: true, strict: false, skip: ['t.yaml', 'p-order'] }, env);
    expect((JSON.parse(env.out.join('')) as { claims: { id: string }[] }).claims.map((c) => c.id)).toEqual(['p-ratio']);
    expect(env.runs.map((f) => f.split('/').pop())).toEqual(['s.yaml']);
    await expect(reproduceCommand({ json: false, strict: false, skip: ['t.yml'] }, env)).rejects.toThrow(
      "no claim or scenario file 't.yml' (did you mean 't.yaml'?)",
    );
    // With its paper's folder, as docs/claims-format.md writes it.
    const again = io(run, dir);
    await reproduceCommand({ json: true, strict: false, skip: ['000/t.yaml', 'p-order'] }, again);
    expect((JSON.parse(again.out.join('')) as { claims: { id: string }[] }).claims.map((c) => c.id)).toEqual([
      'p-ratio',
    ]);
    await expect(reproduceCommand({ json: false, strict: false, skip: ['001/t.yaml'] }, env)).rejects.toThrow(
      "no claim or scenario file '001/t.yaml' (did you mean '000/t.yaml'?)",
    );
  });
});
