// Open MPI's two-process algorithms are defined for two ranks only: a scenario that runs one on
// another rank count is refused where it names it, as any other mistake in a scenario is, not by an
// internal error once the point runs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'intranode-fixed-ranks-'));
const scenario = (ranks: number) =>
  `name: two\nmachine: dancer\nranks: ${ranks}\noperation: alltoall\nalgorithms: [pairwise, two-procs]\nsizes: [4KiB]\niterations: 1\nwarmup: 0\n`;

describe('an algorithm defined for one communicator size', () => {
  it('runs at that size and is refused at another, naming the line', async () => {
    writeFileSync(join(dir, 'two.yaml'), scenario(2));
    expect((await runCli(['run', 'two.yaml'], { cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, 'four.yaml'), scenario(4));
    expect(await runCli(['run', 'four.yaml'], { cwd: dir })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'intranode: four.yaml:5:13 (algorithms): two-procs is defined for 2 ranks only, and this scenario runs 4: give ranks: 2, or another algorithm\n',
    });
  });

  it('a point-to-point benchmark needs a peer: one rank is refused at its line', async () => {
    for (const [operation, algorithm] of [
      ['pingpong', 'shm'],
      ['pingping', 'shm'],
      ['knemcopy', 'inline-read'],
    ]) {
      writeFileSync(
        join(dir, 'one.yaml'),
        `name: one\nmachine: dancer\nranks: 1\noperation: ${operation}\nalgorithms: [${algorithm}]\nsizes: [1]\n`,
      );
      expect(await runCli(['run', 'one.yaml'], { cwd: dir })).toEqual({
        code: 1,
        stdout: '',
        stderr: `intranode: one.yaml:3:8 (ranks): ${operation} needs at least 2 ranks, got 1\n`,
      });
    }
  });
});
