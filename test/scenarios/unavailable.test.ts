// A cell whose mechanism the machine lacks prints n/a with the reason instead of failing the run;
// --strict makes it the error it was. Runs the real simulator on a preset without KNEM.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'intranode-na-'));
const file = join(dir, 'knem.yaml');
writeFileSync(
  file,
  `name: knem
machine: dancer
ranks: 4
operation: bcast
algorithms: [basic, knem-linear]
sizes: [64KiB, 128KiB]
`,
);

const run = (argv: string[]) => runCli(argv, { cwd: dir });

const REASON = 'bcast:knem-linear cannot run on machine broadwell: knem: ENODEV: createRegion: this node has no knem';

describe('an algorithm the machine cannot run', () => {
  it('prints n/a in its cells and the reason under the table', async () => {
    const r = await run(['run', file, '--machine', 'broadwell']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    // The steady-state note (how many calls were replayed) is not about n/a cells.
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .filter((l) => !l.startsWith('# Steady state:'));
    expect(lines.slice(-3, -1).map((l) => l.split(/\s+/).slice(3))).toEqual([
      ['n/a', 'n/a'],
      ['n/a', 'n/a'],
    ]);
    expect(lines.at(-3)).toMatch(/^65536 +\d+\.\d\d +1\.00 +n\/a +n\/a$/);
    expect(lines.at(-1)).toBe(`# n/a knem-linear: ${REASON}`);
  });

  it('gives null and the reason in JSON and CSV', async () => {
    const json = JSON.parse((await run(['run', file, '--machine', 'broadwell', '--json'])).stdout) as {
      tables: { rows: { results: { meanNs: number | null }[] }[] }[];
    };
    const [basic, knem] = json.tables[0].rows[0].results;
    expect(basic.meanNs).toBeGreaterThan(0);
    expect(knem).toEqual({
      label: 'knem-linear',
      algorithm: 'bcast:knem-linear',
      meanNs: null,
      minNs: null,
      maxNs: null,
      normalized: null,
      breakdown: null,
      libraryBytes: null,
      unavailable: REASON,
    });
    const csv = (await run(['run', file, '--machine', 'broadwell', '--csv'])).stdout.trimEnd().split('\n');
    expect(csv[0].endsWith(',normalized,unavailable')).toBe(true);
    expect(csv[2]).toBe(`knem,broadwell,4,compact,bcast,0,off,bcast:knem-linear,knem-linear,65536,,,,,${REASON}`);
    expect(csv[1].endsWith(',1,')).toBe(true);
  });

  it('fails the run with --strict, naming file, the line of the algorithm, field and reason', async () => {
    const r = await run(['run', file, '--machine', 'broadwell', '--strict']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `intranode: ${file}:5:21 (algorithms[1]): ${REASON}\n` });
    const one = await run(['run', file, '--machine', 'broadwell', '--strict', '--jobs', '1']);
    expect(one.stderr).toBe(r.stderr);
  });
});

describe('a decision rule that picks an algorithm this library does not model', () => {
  // Open MPI 4.1's tuned broadcast runs scatter_allgather for 1 MiB and more on 16-31 ranks.
  const v41 = join(dir, 'v41.yaml');
  writeFileSync(
    v41,
    `machine: zoot
ranks: 16
operation: bcast
algorithms: [basic, {name: tuned, params: {rules: v4.1}}]
sizes: [64KiB, 2MiB]
`,
  );
  const WHY =
    'bcast:tuned with rules v4.1: for 2097152 B on 16 ranks Open MPI 4.1 runs scatter_allgather, which this library does not model';

  it('prints n/a in that cell alone, the reason under the table, and the other cells', async () => {
    const r = await run(['run', v41]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.find((l) => l.startsWith('65536 '))).toMatch(/^65536 +\d+\.\d\d +1\.00 +\d+\.\d\d +\d+\.\d\d$/);
    expect(lines.find((l) => l.startsWith('2097152 '))).toMatch(/^2097152 +\d+\.\d\d +1\.00 +n\/a +n\/a$/);
    expect(lines).toContain(`# n/a tuned(rules=v4.1): ${WHY}`);
  });

  it('fails the run with --strict at the algorithm, as a missing mechanism does', async () => {
    expect(await run(['run', v41, '--strict'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `intranode: ${v41}:4:21 (algorithms[1]): ${WHY}\n`,
    });
  });
});
