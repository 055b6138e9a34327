// A SLURM cluster of one node on localhost for the tests: slurmctld and slurmd from Debian's
// slurm-wlm, run by the current user with everything (configuration, state, logs, spool) in a
// temporary folder and free ports, so nothing of the machine's own SLURM setup is used or touched.
// Authentication is auth/none: the daemons and the clients are the same user on the same host.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface OneNodeSlurm {
  /** The environment the clients (sbatch, squeue, sinfo) need: SLURM_CONF. */
  env: NodeJS.ProcessEnv;
  dir: string;
  stop(): void;
}

const DAEMONS = ['slurmctld', 'slurmd'];
const CLIENTS = ['sbatch', 'sinfo', 'scontrol'];

/** Where a SLURM program is, if installed (the daemons live in sbin, often not on a user's PATH). */
export function slurmProgram(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/bin', '/sbin'])) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** Why a cluster cannot start here, or undefined if every program is installed. */
export function slurmMissing(): string | undefined {
  const missing = [...DAEMONS, ...CLIENTS].filter((p) => slurmProgram(p) === undefined);
  return missing.length > 0 ? `${missing.join(', ')} not installed (Debian: slurm-wlm)` : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts the cluster and waits until its node is idle. Rejects, with the daemons' logs, when it does
 * not come up within `timeoutMs`; the caller skips its tests with that message. The node offers
 * `cpus` CPUs (default: this machine's), so that a test can have every task of a small array run at
 * once: on a 2-core machine a third task otherwise waits for a scheduling pass after the first two
 * end, seconds of a test whose tasks take a fraction of one.
 */
export async function startOneNodeSlurm({
  cpus = availableParallelism(),
  timeoutMs = 60_000,
}: { cpus?: number; timeoutMs?: number } = {}): Promise<OneNodeSlurm> {
  const dir = mkdtempSync(join(tmpdir(), 'intranode-slurm-'));
  for (const sub of ['state', 'spool']) mkdirSync(join(dir, sub));
  const [ctldPort, dPort] = [await freePort(), await freePort()];
  const node = hostname();
  const user = userInfo().username;
  const conf = join(dir, 'slurm.conf');
  writeFileSync(
    conf,
    [
      'ClusterName=intranodetest',
      `SlurmctldHost=${node}(127.0.0.1)`,
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${dPort}`,
      'AuthType=auth/none',
      'CredType=cred/none',
      `SlurmUser=${user}`,
      `SlurmdUser=${user}`,
      `StateSaveLocation=${dir}/state`,
      `SlurmdSpoolDir=${dir}/spool`,
      `SlurmctldPidFile=${dir}/slurmctld.pid`,
      `SlurmdPidFile=${dir}/slurmd.pid`,
      `SlurmctldLogFile=${dir}/slurmctld.log`,
      `SlurmdLogFile=${dir}/slurmd.log`,
      'ProctrackType=proctrack/pgid',
      'TaskPlugin=task/none',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_CPU',
      'SchedulerType=sched/builtin',
      // Schedule a submitted job at once: by default slurmctld may hold batch jobs back for up to
      // 3 s (batch_sched_delay), which a test of a few short tasks spends waiting.
      'SchedulerParameters=batch_sched_delay=0,sched_min_interval=0',
      'MpiDefault=none',
      'ReturnToService=2',
      // The node is what this file declares (`cpus` may exceed the cores), not drained for it.
      'SlurmdParameters=config_overrides',
      'JobCompType=jobcomp/none',
      'AccountingStorageType=accounting_storage/none',
      `NodeName=${node} NodeAddr=127.0.0.1 CPUs=${cpus} State=UNKNOWN`,
      `PartitionName=test Nodes=${node} Default=YES MaxTime=INFINITE State=UP`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const daemons: ChildProcess[] = DAEMONS.map((d) =>
    spawn(slurmProgram(d) as string, ['-D', '-f', conf], { env, stdio: 'ignore' }),
  );
  const stop = () => {
    spawnSync(slurmProgram('scontrol') as string, ['shutdown'], { env, timeout: 10_000 });
    for (const d of daemons) if (d.exitCode === null) d.kill('SIGKILL');
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const state = spawnSync(slurmProgram('sinfo') as string, ['-h', '-o', '%T'], { env, encoding: 'utf8' });
    if (state.status === 0 && state.stdout.trim() === 'idle') return { env, dir, stop };
    if (daemons.some((d) => d.exitCode !== null)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  stop();
  const log = (name: string) => {
    const path = join(dir, name);
    return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').slice(-3).join(' | ') : '(no log)';
  };
  throw new Error(
    `the one-node SLURM cluster did not come up: slurmctld: ${log('slurmctld.log')}; slurmd: ${log('slurmd.log')}`,
  );
}
