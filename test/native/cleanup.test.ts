// The native backend leaves nothing behind however a run ends: killed by SIGINT or SIGTERM
// mid-way, stopped by its timeout, failing in a rank, or its parent killed outright. Each case
// starts a run that holds its ranks for a while, interrupts it, then counts the segments in
// /dev/shm and the rank processes still alive.
import { spawn, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { BINARY, ensureNative } from '../../native-validate/backend.ts';
import { childrenOf, isAlive, segmentsOf, until } from './leftovers.ts';

beforeAll(() => {
  ensureNative();
});

const HOLD = [
  'pingpong',
  '--ranks',
  '2',
  '--cores',
  '0,1',
  '--sizes',
  '4096',
  '--iterations',
  '2',
  '--hold-ms',
  '20000',
];

async function startHeld(extra: string[] = []) {
  const child = spawn(BINARY, [...HOLD, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  const parent = child.pid!;
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until(() => childrenOf(parent).length === 2 && segmentsOf(parent).length === 1);
  return { child, parent, ranks: childrenOf(parent), exit, stderr: () => stderr };
}

describe('native backend cleanup', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`removes the segment and reaps every rank on ${signal}`, async () => {
      const run = await startHeld();
      expect(run.ranks).toHaveLength(2);
      run.child.kill(signal);
      expect(await run.exit).toBe(code);
      expect(segmentsOf(run.parent)).toEqual([]);
      for (const pid of run.ranks) expect(isAlive(pid)).toBe(false);
      expect(run.stderr()).toMatch(/stopped by signal/);
    });
  }

  it('kills every rank and removes the segment at the timeout', async () => {
    const run = await startHeld(['--timeout', '1']);
    expect(await run.exit).toBe(124);
    expect(segmentsOf(run.parent)).toEqual([]);
    for (const pid of run.ranks) expect(isAlive(pid)).toBe(false);
    expect(run.stderr()).toMatch(/timed out after 1 s/);
  });

  it('stops the others and cleans up when one rank fails', () => {
    const out = spawnSync(BINARY, ['pingpong', '--ranks', '2', '--sizes', '4096', '--mech', 'bogus'], {
      encoding: 'utf8',
    });
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/unknown mechanism bogus/);
    expect(out.stdout).toBe(''); // no partial JSON
    expect(segmentsOf(out.pid)).toEqual([]);
  });

  it('cleans up when only the program that started it is killed, as `kill PID` of intranode does', async () => {
    // A node process waiting in spawnSync, as the validate command's backend does.
    const launcher = spawn(
      process.execPath,
      ['-e', `require('node:child_process').spawnSync(${JSON.stringify(BINARY)}, ${JSON.stringify(HOLD)})`],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => launcher.on('exit', resolve));
    let parent = 0;
    await until(() => (parent = childrenOf(launcher.pid!)[0] ?? 0) > 0);
    await until(() => childrenOf(parent).length === 2 && segmentsOf(parent).length === 1);
    const ranks = childrenOf(parent);
    launcher.kill('SIGTERM');
    await exited;
    await until(() => !isAlive(parent) && ranks.every((pid) => !isAlive(pid)) && segmentsOf(parent).length === 0);
  });

  it('ranks die with a parent killed by SIGKILL, and the next run removes its segment', async () => {
    const run = await startHeld();
    run.child.kill('SIGKILL');
    await run.exit;
    await until(() => run.ranks.every((pid) => !isAlive(pid)));
    expect(segmentsOf(run.parent)).toHaveLength(1); // nothing could remove it yet
    const next = spawnSync(BINARY, ['probe', '--ranks', '2'], { encoding: 'utf8' });
    expect(next.status).toBe(0);
    expect(segmentsOf(run.parent)).toEqual([]);
  });

  it('refuses two ranks on one core', () => {
    const out = spawnSync(BINARY, ['pingpong', '--ranks', '2', '--cores', '0,0', '--sizes', '1'], { encoding: 'utf8' });
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/oversubscription/);
  });
});
