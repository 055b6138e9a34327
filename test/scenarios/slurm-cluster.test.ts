// `intranode slurm` end to end on a real SLURM cluster of one node started by this test (Debian's
// slurm-wlm: slurmctld and slurmd on localhost). Skipped, saying why, where SLURM is not installed or
// the cluster cannot start; slurm.test.ts runs the same script task by task without SLURM.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slurmMissing, slurmProgram, startOneNodeSlurm, type OneNodeSlurm } from './one-node-slurm.ts';
import { runCli } from './run-cli.ts';
import { writeSmallSweep } from './small-sweep.ts';

const LAUNCHER = fileURLToPath(new URL('../../bin/intranode.mjs', import.meta.url));
const missing = slurmMissing();
/** Tasks of the array, all running at once on the test's node (one CPU each). */
const SHARDS = 3;

describe.skipIf(missing !== undefined)(
  `intranode slurm on a one-node SLURM cluster${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let cluster: OneNodeSlurm | undefined;
    let whyNot = '';
    beforeAll(async () => {
      try {
        cluster = await startOneNodeSlurm({ cpus: SHARDS });
      } catch (e) {
        whyNot = e instanceof Error ? e.message : String(e);
      }
    }, 90_000);
    afterAll(() => cluster?.stop());

    it('runs the job array and its last task merges the report a single run prints', async (ctx) => {
      if (cluster === undefined) ctx.skip(`skipped: ${whyNot}`);
      const { env } = cluster as OneNodeSlurm;
      const { dir, file } = writeSmallSweep('cluster.yaml');
      const cli = (argv: string[]) => runCli(argv, { cwd: dir, launcher: LAUNCHER });
      expect(
        (await cli(['slurm', file, '--shards', String(SHARDS), '--json', '--out', 'job.sbatch', '--dir', 'out'])).code,
      ).toBe(0);
      const submit = spawnSync(slurmProgram('sbatch') as string, ['--parsable', join(dir, 'job.sbatch')], {
        env: { ...env, INTRANODE_NODE: process.execPath },
        cwd: dir,
        encoding: 'utf8',
      });
      expect(submit.stderr).toBe('');
      expect(submit.stdout).toMatch(/^\d+/);
      const report = join(dir, 'out', 'report.json');
      const deadline = Date.now() + 240_000;
      while (!existsSync(report) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      const logs = readdirSync(join(dir, 'out')).filter((f) => f.startsWith('slurm-'));
      const logText = logs.map((f) => readFileSync(join(dir, 'out', f), 'utf8')).join('');
      expect(existsSync(report), `no report after 4 minutes; task logs: ${logText}`).toBe(true);
      expect(logs).toHaveLength(SHARDS);
      expect(logText).toBe('');
      const whole = await cli(['run', file, '--json']);
      expect(readFileSync(report, 'utf8')).toBe(whole.stdout);
    }, 300_000);
  },
);
