// `intranode slurm`: the command line, the checks made before any task runs, and the script itself
// run task by task with bash as SLURM would run it (without SLURM: slurm-cluster.test.ts submits it
// to a real one-node cluster). Runs the real simulator on a small sweep.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellWord } from '../../scenarios/shard/slurm-script.ts';
import { runCli } from './run-cli.ts';
import { writeSmallSweep } from './small-sweep.ts';

const LAUNCHER = fileURLToPath(new URL('../../bin/intranode.mjs', import.meta.url));
const { dir, file } = writeSmallSweep('slurm.yaml');
const cli = (argv: string[]) => runCli(argv, { cwd: dir, launcher: LAUNCHER });

const usage = (message: string) => ({
  code: 2,
  stdout: '',
  stderr: `intranode: ${message}\nTry 'intranode --help'.\n`,
});

/** Runs array task `task` of `script` as SLURM would: bash, its id in SLURM_ARRAY_TASK_ID. */
function runTask(script: string, task?: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, INTRANODE_NODE: process.execPath };
  delete env.SLURM_ARRAY_TASK_ID;
  if (task !== undefined) env.SLURM_ARRAY_TASK_ID = String(task);
  return spawnSync('bash', [script], { env, encoding: 'utf8' });
}

describe('intranode slurm: the command line', () => {
  it('refuses misuse with exit 2, naming the flag', async () => {
    expect(await cli(['slurm'])).toEqual(usage("'slurm' needs a scenario file: intranode slurm FILE --shards N"));
    expect(await cli(['slurm', file])).toEqual(usage("'slurm' needs --shards N (how many array tasks)"));
    expect(await cli(['slurm', file, '--shards', '0'])).toEqual(
      usage("--shards needs a number of shards (1, 2, ...), got '0'"),
    );
    expect(await cli(['slurm', file, '--shards', '2', '--cpus', 'x'])).toEqual(
      usage("--cpus needs a number of CPUs per task (1, 2, ...), got 'x'"),
    );
    expect(await cli(['slurm', file, '--shards', '2', '--time', '1h'])).toEqual(
      usage("--time needs a SLURM time limit (M, M:S, H:M:S, D-H, D-H:M or D-H:M:S), got '1h'"),
    );
    expect(await cli(['slurm', file, '--shards', '2', '--partition', 'a b'])).toEqual(
      usage("--partition needs a SLURM partition name (letters, digits, _ . -), got 'a b'"),
    );
    expect(await cli(['slurm', file, file, '--shards', '2'])).toEqual(
      usage(`'slurm' takes one scenario file, got: ${file} ${file}`),
    );
    expect((await cli(['slurm', file, '--shard', '2'])).stderr).toContain("(did you mean '--shards'?)");
  });

  it('refuses more shards than points, naming the scenario', async () => {
    expect(await cli(['slurm', file, '--shards', '10', '--dir', 'unused'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `intranode: ${file}: the sweep has 9 points, so --shards 10 would leave shards empty: give at most 9\n`,
    });
    expect(existsSync(join(dir, 'unused'))).toBe(false);
  });

  it('reports a broken scenario now, not in every task', async () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, readFileSync(file, 'utf8').replace('ranks: 4', 'ranks: 400'));
    const r = await cli(['slurm', broken, '--shards', '2', '--dir', 'never']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/broken\.yaml:\d+/);
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('writes the directives it was asked for', async () => {
    const r = await cli(['slurm', file, '--shards', '3', '--cpus', '2', '--partition', 'debug', '--time', '0-1:30']);
    expect(r.code).toBe(0);
    const directives = r.stdout.split('\n').filter((l) => l.startsWith('#SBATCH'));
    expect(directives).toEqual([
      '#SBATCH --job-name=intranode-jobs',
      '#SBATCH --array=1-3',
      `#SBATCH --output=${join(dir, 'jobs-shards')}/slurm-%A_%a.out`,
      '#SBATCH --ntasks=1',
      '#SBATCH --cpus-per-task=2',
      '#SBATCH --partition=debug',
      '#SBATCH --time=0-1:30',
    ]);
    // Each task runs as many points at once as it has CPUs.
    expect(r.stdout).toContain('--jobs 2 --shard "$task/3"');
    expect(statSync(join(dir, 'jobs-shards')).isDirectory()).toBe(true);
    expect(r.stderr).toBe(
      `intranode: 3 tasks over 9 points; the report will be ${join(dir, 'jobs-shards')}/report.txt\n`,
    );
  });

  it('passes a run option whose value starts with a dash as --flag=VALUE, which its tasks read back', async () => {
    const r = await cli(['slurm', file, '--shards', '2', '--seed=-5', '--dir', join(dir, 'dashed')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(' --seed=-5 ');
    expect(r.stdout).not.toContain('--seed -5');
  });

  it('refuses a results folder that holds an earlier run, and a folder SLURM cannot name unquoted', async () => {
    mkdirSync(join(dir, 'used'));
    writeFileSync(join(dir, 'used', 'shard-1.json'), '{}');
    expect(await cli(['slurm', file, '--shards', '2', '--dir', 'used'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `intranode: ${join(dir, 'used')}: already holds results of an earlier run (shard-1.json): move them away or choose another folder with --dir\n`,
    });
    const spaced = await cli(['slurm', file, '--shards', '2', '--dir', 'a b']);
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toContain('choose another with --dir');
    writeFileSync(join(dir, 'a-file'), '');
    const onFile = await cli(['slurm', file, '--shards', '2', '--dir', 'a-file']);
    expect(onFile.code).toBe(2);
    expect(onFile.stderr).toContain(
      `intranode: --dir ${join(dir, 'a-file')} is a file, not a folder: choose a folder for the shards' results\n`,
    );
    // The script where the results folder goes: refused before either is written.
    for (const [out, ...args] of [
      ['same', '--dir', 'same'],
      ['outer', '--dir', 'outer/sub'],
    ]) {
      const same = await cli(['slurm', file, '--shards', '2', '--out', out, ...args]);
      expect(same.code).toBe(2);
      expect(same.stderr).toContain(
        `--out ${out} names ${out === 'outer' ? 'a folder the results folder is in' : 'the results folder'} (--dir)`,
      );
      // No script in the folder's place.
      expect(existsSync(join(dir, out)) && statSync(join(dir, out)).isFile()).toBe(false);
    }
  });

  it('says why it cannot write the script, and then leaves no results folder behind', async () => {
    const missing = join(dir, 'no-such-folder', 'job.sbatch');
    expect(await cli(['slurm', file, '--shards', '2', '--out', missing, '--dir', 'out-1'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `intranode: ${missing} (--out): cannot write the script: no such folder\n`,
    });
    expect(existsSync(join(dir, 'out-1'))).toBe(false);
    expect(await cli(['slurm', file, '--shards', '2', '--out', '.', '--dir', 'out-2'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `intranode: ${dir} (--out): cannot write the script: it is a folder, not a file\n`,
    });
    expect(existsSync(join(dir, 'out-2'))).toBe(false);
    // Nor over the scenario it reads: the tasks would then run the script as their scenario.
    const before = readFileSync(file, 'utf8');
    const onInput = await cli(['slurm', file, '--shards', '2', '--out', file, '--dir', 'out-3']);
    expect(onInput.code).toBe(1);
    expect(onInput.stderr).toContain('(--out): the script would overwrite');
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'out-3'))).toBe(false);
  });

  it('quotes words for bash only where they need it', () => {
    expect(shellWord('/a/b-c.yaml')).toBe('/a/b-c.yaml');
    expect(shellWord("it's here")).toBe(`'it'\\''s here'`);
    expect(execFileSync('bash', ['-c', `printf %s ${shellWord("a 'b' $c")}`], { encoding: 'utf8' })).toBe("a 'b' $c");
  });
});

describe('intranode slurm: the script, task by task', () => {
  const script = join(dir, 'sweep.sbatch');
  const results = join(dir, 'results');
  beforeAll(async () => {
    const r = await cli([
      'slurm',
      file,
      '--shards',
      '3',
      '--out',
      'sweep.sbatch',
      '--dir',
      'results',
      '--breakdown',
      '--memory',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('submit it with: sbatch sweep.sbatch');
  });

  it('refuses to run outside a job array', () => {
    const r = runTask(script);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('this script is a SLURM job array: submit it with sbatch');
  });

  it('writes one shard per task, and the last task merges them into the report one run prints', async () => {
    expect(runTask(script, 3).status).toBe(0);
    expect(runTask(script, 1).status).toBe(0);
    expect(existsSync(join(results, 'report.txt'))).toBe(false);
    const last = runTask(script, 2);
    expect(last.stderr).toBe('');
    expect(last.status).toBe(0);
    const whole = await cli(['run', file, '--breakdown', '--memory']);
    expect(whole.code).toBe(0);
    expect(readFileSync(join(results, 'report.txt'), 'utf8')).toBe(whole.stdout);
    // A task run again after the merge finds the lock taken and leaves the report alone.
    expect(runTask(script, 2).status).toBe(0);
    expect(readFileSync(join(results, 'report.txt'), 'utf8')).toBe(whole.stdout);
  }, 240_000);
});
