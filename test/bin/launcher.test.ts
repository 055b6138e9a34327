// bin/intranode.mjs runs the build in dist/, building it when the sources changed: on a copy of the
// project, so edits here touch neither this checkout's sources nor its build.
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HELP } from '../../scenarios/cli/help.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'intranode-launcher-'));
for (const part of [
  'bin',
  'common',
  'sim',
  'hardware',
  'algorithms',
  'scenarios',
  'native-validate',
  'package.json',
  'package-lock.json',
]) {
  cpSync(join(ROOT, part), join(copy, part), { recursive: true });
}
symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(copy, 'node_modules'));

const intranode = (...args: string[]) =>
  execFileSync(process.execPath, [join(copy, 'bin/intranode.mjs'), ...args], { cwd: copy, encoding: 'utf8' });
const builds = () => readdirSync(join(copy, 'dist'));

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('the intranode launcher', () => {
  it('builds dist/ on first use and runs the build', () => {
    expect(intranode('--help')).toBe(HELP);
    expect(builds()).toHaveLength(1);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(intranode('--version')).toBe(`intranode ${pkg.version}\n`);
    // After any command, the native ones included, help and version are the CLI's own.
    for (const command of ['calibrate', 'validate', 'run']) {
      expect(intranode(command, '--help')).toBe(HELP);
      expect(intranode(command, '-h')).toBe(HELP);
    }
    expect(intranode('validate', '-V')).toBe(`intranode ${pkg.version}\n`);
    // Where a flag takes its value, -h is that value: the native commands read it as the others do.
    expect(() => intranode('calibrate', '--cores', '-h')).toThrow(/--cores -h: a value starting with '-' is written/);
    expect(() => intranode('run', 'x.yaml', '--machine', '-h')).toThrow(/--machine -h: a value starting with '-'/);
  }, 60_000);

  it('builds every module so that it links and loads', () => {
    const [build] = builds();
    const modules = readdirSync(join(copy, 'dist', build), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js') && !f.endsWith('point-worker.js'))
      .map((f) => pathToFileURL(join(copy, 'dist', build, f)).href);
    // More than the commands above load: a type re-exported as a value would fail only here.
    expect(modules.length).toBeGreaterThan(200);
    const script = `for (const m of ${JSON.stringify(modules)}) await import(m);`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: copy, encoding: 'utf8' });
  }, 60_000);

  it('rebuilds when a source changed instead of running the old build', () => {
    const first = builds();
    const help = join(copy, 'scenarios/cli/help.ts');
    writeFileSync(help, readFileSync(help, 'utf8').replace('intranode: simulate', 'intranode (edited): simulate'));
    expect(intranode('--help')).toBe(HELP.replace('intranode: simulate', 'intranode (edited): simulate'));
    expect(builds()).toHaveLength(1);
    expect(builds()).not.toEqual(first);
  }, 60_000);

  it('keeps a build that a running process still uses when the sources change under it', async () => {
    const [inUse] = builds();
    // A live process registered as running from that build (as a long reproduce would be).
    const user = spawn('sleep', ['60']);
    mkdirSync(join(copy, 'dist', inUse, '.users'), { recursive: true });
    writeFileSync(join(copy, 'dist', inUse, '.users', String(user.pid)), '');
    const help = join(copy, 'scenarios/cli/help.ts');
    writeFileSync(help, readFileSync(help, 'utf8').replace('simulate MPI', 'simulate  MPI'));
    intranode('--help');
    expect(builds()).toHaveLength(2);
    expect(builds()).toContain(inUse);
    user.kill();
    await new Promise((done) => user.once('exit', done));
    writeFileSync(help, readFileSync(help, 'utf8').replace('simulate  MPI', 'simulate MPI'));
    intranode('--help');
    expect(builds()).toHaveLength(1);
    expect(builds()).not.toContain(inUse);
  }, 60_000);

  it('runs a sweep on the build’s worker threads as in one thread', () => {
    const file = join(copy, 'small.yaml');
    writeFileSync(
      file,
      'name: small\nmachine: broadwell\nranks: 4\noperation: bcast\nalgorithms: [basic, binomial]\nsizes: [4KiB, 64KiB]\n',
    );
    const one = intranode('run', file, '--json', '--jobs', '1');
    expect(JSON.parse(one).tables[0].rows).toHaveLength(2);
    expect(intranode('run', file, '--json', '--jobs', '2')).toBe(one);
    // A sweep this small ends before the command starts a worker (scenarios/workers/point-pool.ts):
    // the build's own CLI again, with every point left to the build's worker threads.
    const dist = join(copy, 'dist', builds()[0]);
    const script = `
      const { main } = await import(${JSON.stringify(pathToFileURL(join(dist, 'scenarios/cli/main.js')).href)});
      const { PointPool } = await import(${JSON.stringify(pathToFileURL(join(dist, 'scenarios/workers/point-pool.js')).href)});
      const loadWorkers = async (jobs) => {
        const pool = new PointPool(jobs, { runHere: false, startWorkersAfterMs: 0 });
        return (points, settle) => pool.run(points, settle).finally(() => pool.close());
      };
      let out = '';
      process.exitCode = await main(['run', ${JSON.stringify(file)}, '--json', '--jobs', '2'], {
        stdout: (t) => void (out += t),
        loadWorkers,
      });
      process.stdout.write(out);`;
    // A file, not `-e`: worker threads inherit the process's flags, and `--input-type` is for -e only.
    writeFileSync(join(copy, 'in-workers.mjs'), script);
    const inWorkers = execFileSync(process.execPath, [join(copy, 'in-workers.mjs')], { cwd: copy, encoding: 'utf8' });
    expect(inWorkers).toBe(one);
  }, 60_000);
});
