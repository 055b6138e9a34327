// `--jobs N` runs a sweep's points on worker threads. The report must not show it: every format
// is byte for byte what one thread prints, n/a cells included, and an error raised in a worker
// reaches the user as it does in-process. Runs the real simulator on small sweeps.
import { afterAll, describe, expect, it } from 'vitest';
import { keptWorkersOnly } from '../helpers/workers-only.ts';
import { runCli } from './run-cli.ts';
import { writeSmallSweep } from './small-sweep.ts';

// knem-linear cannot run on broadwell: its cells are n/a.
const { dir, file } = writeSmallSweep('jobs.yaml');

// The file's commands share their worker threads, as one command's sweeps do.
const workers = keptWorkersOnly();
afterAll(() => workers.close());
const run = (argv: string[]) => runCli(argv, { cwd: dir, loadWorkers: workers.loadWorkers });

describe('intranode run --jobs', () => {
  it('prints the same table, JSON, CSV and IMB report with one job and with two', async () => {
    for (const format of ['table', 'json', 'csv', 'imb']) {
      const extra = format === 'table' ? ['--breakdown'] : ['--format', format];
      const one = await run(['run', file, ...extra, '--jobs', '1']);
      const two = await run(['run', file, ...extra, '--jobs', '2']);
      expect(one).toMatchObject({ code: 0, stderr: '' });
      expect(one.stdout).toContain('knem-linear cannot run on machine broadwell');
      expect(two).toEqual(one);
    }
  }, 120_000);

  it('draws the same progress bar on a terminal', async () => {
    // A clock that moves 2 s per reading, so the bar is drawn from the first point on.
    const tty = (jobs: string) => {
      let ms = 0;
      return runCli(['run', file, '--jobs', jobs], {
        cwd: dir,
        loadWorkers: workers.loadWorkers,
        stderrIsTTY: true,
        now: () => (ms += 2000),
      });
    };
    const one = await tty('1');
    expect(one.stderr).toContain('] 9/9 points');
    expect(await tty('2')).toEqual(one);
  }, 60_000);

  it('reports an error raised in a worker as one thread does', async () => {
    const one = await run(['run', file, '--strict', '--jobs', '1']);
    const two = await run(['run', file, '--strict', '--jobs', '2']);
    expect(one).toMatchObject({ code: 1, stdout: '' });
    expect(one.stderr).toMatch(
      new RegExp(`^intranode: ${file}:5:31 \\(algorithms\\[2\\]\\): bcast:knem-linear cannot run`),
    );
    expect(two).toEqual(one);
  }, 60_000);

  it('rejects a number of jobs that is not a positive integer', async () => {
    for (const bad of ['0', '-1', 'two', '1.5']) {
      const r = await run(['run', file, `--jobs=${bad}`]);
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: `intranode: --jobs needs a number of jobs (1, 2, ...), got '${bad}'\nTry 'intranode --help'.\n`,
      });
    }
  });
});
