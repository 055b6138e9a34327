// `run --shard I/N` and `merge`: a sweep run as shards and merged prints byte for byte what one
// run prints, in every format, n/a cells included; merge refuses shards that do not make one sweep.
// Runs the real simulator on a small sweep.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWorkersOnly } from '../helpers/workers-only.ts';
import { runCli } from './run-cli.ts';
import { SMALL_SWEEP, writeSmallSweep } from './small-sweep.ts';

// knem-linear cannot run on broadwell: its cells are n/a. 3 sizes × 3 algorithms: 9 points.
const { dir, file } = writeSmallSweep('shard.yaml');

const run = (argv: string[]) => runCli(argv, { cwd: dir, loadWorkers: loadWorkersOnly });

/** Runs shard I/N of `scenario` and writes its partial results to `name` in the test folder. */
async function shard(i: number, n: number, name: string, extra: string[] = [], scenario = file): Promise<string> {
  const r = await run(['run', scenario, '--shard', `${i}/${n}`, ...extra]);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  writeFileSync(join(dir, name), r.stdout);
  return name;
}

const usage = (message: string) => ({
  code: 2,
  stdout: '',
  stderr: `intranode: ${message}\nTry 'intranode --help'.\n`,
});

describe('intranode run --shard and merge', () => {
  let parts: string[] = [];
  beforeAll(async () => {
    // The second shard on two worker threads: shards combine with --jobs.
    parts = [await shard(1, 3, 'a.json'), await shard(2, 3, 'b.json', ['--jobs', '2']), await shard(3, 3, 'c.json')];
  }, 120_000);

  it('gives each shard every third point, from its own', () => {
    const points = parts.map(
      (p) => (JSON.parse(readFileSync(join(dir, p), 'utf8')) as { results: { point: number }[] }).results,
    );
    expect(points.map((rs) => rs.map((r) => r.point))).toEqual([
      [0, 3, 6],
      [1, 4, 7],
      [2, 5, 8],
    ]);
  });

  it('merges into the report one run prints, in every format and in any order of the shards', async () => {
    for (const extra of [
      [],
      ['--breakdown'],
      ['--memory'],
      ['--json'],
      ['--csv'],
      ['--csv', '--breakdown', '--memory'],
      ['--format', 'imb'],
    ]) {
      const whole = await run(['run', file, ...extra]);
      expect(whole).toMatchObject({ code: 0, stderr: '' });
      expect(await run(['merge', ...parts, ...extra])).toEqual(whole);
      expect(await run(['merge', parts[2], parts[0], parts[1], ...extra])).toEqual(whole);
    }
    expect((await run(['run', file])).stdout).toContain('knem-linear cannot run on machine broadwell');
  }, 120_000);

  it('merges shards run with --trains like any others', async () => {
    const trains = [await shard(1, 2, 'e1.json', ['--trains']), await shard(2, 2, 'e2.json', ['--trains'])];
    const whole = await run(['run', file, '--trains']);
    expect(whole).toMatchObject({ code: 0, stderr: '' });
    expect(await run(['merge', ...trains])).toEqual(whole);
  }, 60_000);

  it('loads the scenario again by the path it was given, relative to where the shards ran', async () => {
    const relative = [await shard(1, 2, 'r1.json', [], 'shard.yaml'), await shard(2, 2, 'r2.json', [], 'shard.yaml')];
    const whole = await run(['run', 'shard.yaml', '--json']);
    const saved = JSON.parse(readFileSync(join(dir, relative[0]), 'utf8')) as { run: { cwd: string; file: string } };
    expect(saved.run).toEqual({ cwd: dir, file: 'shard.yaml' });
    expect(await run(['merge', ...relative, '--json'])).toEqual(whole);
  }, 60_000);

  it('merges shards that were given the scenario by different paths to the same file', async () => {
    // As typed, with a leading ./, and (by its absolute path) from another folder.
    const other = mkdtempSync(join(tmpdir(), 'intranode-shard-elsewhere-'));
    const elsewhere = await runCli(['run', join(dir, 'shard.yaml'), '--shard', '3/3'], { cwd: other });
    expect(elsewhere).toMatchObject({ code: 0, stderr: '' });
    writeFileSync(join(dir, 'p3.json'), elsewhere.stdout);
    const spelt = [
      await shard(1, 3, 'p1.json', [], 'shard.yaml'),
      await shard(2, 3, 'p2.json', [], './shard.yaml'),
      'p3.json',
    ];
    const whole = await run(['run', 'shard.yaml', '--json']);
    expect(await run(['merge', ...spelt, '--json'])).toEqual(whole);
  }, 60_000);

  it('refuses a missing or duplicated shard', async () => {
    expect(await run(['merge', parts[0], parts[2]])).toEqual({
      code: 1,
      stdout: '',
      stderr: `intranode: missing shard 2/3 of the sweep of ${parts[0]}\n`,
    });
    expect(await run(['merge', parts[0], parts[1], parts[0], parts[2]])).toMatchObject({
      code: 1,
      stderr: `intranode: ${parts[0]} (shard.index): is shard 1/3 again (${parts[0]} is too)\n`,
    });
  });

  it('refuses shards of another sweep or another split', async () => {
    const seeded = await shard(1, 3, 'seeded.json', ['--seed', 'other']);
    expect(await run(['merge', parts[0], parts[1], seeded])).toMatchObject({
      code: 1,
      stderr: `intranode: ${seeded}: is a shard of another sweep than ${parts[0]} (run with different --seed)\n`,
    });
    const exact = await shard(2, 3, 'exact.json', ['--exact']);
    expect(await run(['merge', parts[0], exact, parts[2]])).toMatchObject({
      code: 1,
      stderr: `intranode: ${exact}: is a shard of another sweep than ${parts[0]} (run with different --exact)\n`,
    });
    const half = await shard(2, 2, 'half.json');
    expect(await run(['merge', parts[0], half])).toMatchObject({
      code: 1,
      stderr: `intranode: ${half} (shard.count): is one of 2 shards, ${parts[0]} one of 3\n`,
    });
  }, 60_000);

  it('refuses a scenario changed since the shards ran', async () => {
    const other = join(dir, 'changed.yaml');
    writeFileSync(other, SMALL_SWEEP);
    const only = await shard(1, 1, 'only.json', [], other);
    writeFileSync(other, SMALL_SWEEP.replace('iterations: 2', 'iterations: 3'));
    expect(await run(['merge', only])).toMatchObject({
      code: 1,
      stderr: `intranode: ${only}: the scenario ${other} (or a machine it names) changed since the shards ran\n`,
    });
  }, 60_000);

  it('refuses a file that is not a shard', async () => {
    writeFileSync(join(dir, 'report.json'), '{"scenario": "shard"}');
    writeFileSync(join(dir, 'text.txt'), 'hello');
    const truncated = JSON.parse(readFileSync(join(dir, parts[0]), 'utf8')) as { results: unknown[] };
    truncated.results.pop();
    writeFileSync(join(dir, 'short.json'), JSON.stringify(truncated));
    // What JSON makes of a NaN time.
    writeFileSync(
      join(dir, 'nan.json'),
      readFileSync(join(dir, parts[0]), 'utf8').replace(/"meanNs": [^,]*/, '"meanNs": null'),
    );
    // A time no run gives: a negative duration (an edited file).
    writeFileSync(
      join(dir, 'negative.json'),
      readFileSync(join(dir, parts[0]), 'utf8').replace(/"meanNs": [^,]*/, '"meanNs": -5'),
    );
    // A breakdown kind no run has, whose share makes the whole more than the rank-time.
    const shard0 = readFileSync(join(dir, parts[0]), 'utf8');
    writeFileSync(join(dir, 'bogus.json'), shard0.replace(/"breakdown": \{/, '"breakdown": {\n    "bogus": 0.9,'));
    writeFileSync(join(dir, 'text-time.json'), shard0.replace(/"meanNs": [^,]*/, '"meanNs": "abc"'));
    writeFileSync(join(dir, 'extra.json'), shard0.replace(/^\{/, '{\n "note": "mine",'));
    // A result edited without the library's memory.
    writeFileSync(join(dir, 'no-memory.json'), shard0.replace(/,\s*"libraryBytes": \d+/, ''));
    const cases: [string, string][] = [
      [
        'report.json',
        "report.json (format): not a shard file; shard files are written by 'intranode run FILE --shard I/N'",
      ],
      [
        'text.txt',
        "text.txt: not a shard file (not JSON); shard files are written by 'intranode run FILE --shard I/N'",
      ],
      ['short.json', 'short.json (results): shard 1/3 of 9 points needs 3 results'],
      ['nan.json', 'nan.json (results[0].result.meanNs): expected a duration in ns of at least 0, got null'],
      ['negative.json', 'negative.json (results[0].result.meanNs): expected a duration in ns of at least 0, got -5'],
      [
        'text-time.json',
        'text-time.json (results[0].result.meanNs): expected a duration in ns of at least 0, got "abc"',
      ],
      ['bogus.json', 'bogus.json (results[0].result.breakdown): the shares add up to'],
      ['extra.json', "extra.json (note): unknown key 'note' in a shard file"],
      [
        'no-memory.json',
        'no-memory.json (results[0].result.libraryBytes): expected a whole number of bytes of at least 0, got nothing',
      ],
      ['absent.json', 'absent.json: cannot read the shard file: no such file'],
    ];
    for (const [name, message] of cases) {
      const r = await run(['merge', name]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`intranode: ${message}`);
    }
  });

  it('rejects a malformed --shard and a merge without files', async () => {
    expect(await run(['run', file, '--shard', '3'])).toEqual(
      usage("--shard needs I/N (shard I of N, counted from 1), got '3'"),
    );
    expect(await run(['run', file, '--shard', '0/3'])).toEqual(
      usage("--shard needs I/N (shard I of N, counted from 1), got '0/3'"),
    );
    expect(await run(['run', file, '--shard', '4/3'])).toEqual(
      usage('--shard 4/3: there is no shard 4 of 3 (I goes from 1 to N)'),
    );
    expect(await run(['run', file, '--shard', '1/3', '--csv'])).toEqual(
      usage("--shard prints partial results: give --csv to 'intranode merge' instead"),
    );
    expect(await run(['merge'])).toEqual(
      usage("'merge' needs the shard files written by 'intranode run FILE --shard I/N'"),
    );
    expect(await run(['merge', 'a.json', '--strict'])).toEqual(usage("unknown option '--strict'"));
    expect(await run(['merg'])).toEqual(usage("unknown command 'merg' (did you mean 'merge'?)"));
  });
});
