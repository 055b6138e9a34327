// `intranode slurm FILE --shards N`: writes the sbatch script that runs the sweep as a SLURM job array
// and merges it (scenarios/shard/slurm-script.ts). The scenario is loaded now, so a mistake in it is
// reported here rather than by N failed tasks, and the results folder is made now because SLURM
// opens the tasks' log files there before any task runs.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../../common/input-error.ts';
import { refuseInputAsOutput, writeOutput, writeOutputFile } from '../../common/write-output-file.ts';
import { countPoints, expandScenario } from '../expand.ts';
import { slurmScript } from '../shard/slurm-script.ts';
import { UsageError, type SlurmArgs } from './args.ts';
import type { CliEnv } from './env.ts';
import { inputFiles, loadOptions, loadRunScenario } from './run-command.ts';

/** Names a results folder may hold only after a run of the script. */
const RESULT_FILE = /^(shard-\d+\.json(\.part)?|report\.(txt|json|csv)(\.part)?|merge\.lock|slurm-.*\.out)$/;

export async function slurmCommand(args: SlurmArgs, env: CliEnv): Promise<number> {
  const scenario = await loadRunScenario(loadOptions(args, env.cwd, args.file), env);
  const points = countPoints(expandScenario(scenario));
  if (args.shards > points)
    throw new InputError(
      `the sweep has ${points} point${points === 1 ? '' : 's'}, so --shards ${args.shards} would leave shards empty: give at most ${points}`,
      { file: args.file },
    );
  const jobName = `intranode-${safeName(scenario.name)}`;
  const dir = resolve(env.cwd, args.dir ?? `${safeName(scenario.name)}-shards`);
  if (!/^[A-Za-z0-9_./-]+$/.test(dir))
    throw new UsageError(
      `the results folder ${dir} has characters SLURM's #SBATCH lines cannot carry unquoted: choose another with --dir`,
    );
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new UsageError(`--dir ${dir} is a file, not a folder: choose a folder for the shards' results`);
  const earlier = existsSync(dir) ? readdirSync(dir).filter((f) => RESULT_FILE.test(f)) : [];
  if (earlier.length > 0)
    throw new InputError(
      `already holds results of an earlier run (${earlier.slice(0, 3).join(', ')}${earlier.length > 3 ? ', ...' : ''}): move them away or choose another folder with --dir`,
      { file: dir },
    );
  const out = args.out === undefined ? undefined : resolve(env.cwd, args.out);
  if (out !== undefined) refuseInputAsOutput(out, inputFiles(scenario, env.cwd), 'the script', '--out');
  // (An existing folder given as --out is refused as one when the script is written.)
  const outFolder = out !== undefined && existsSync(out) && statSync(out).isDirectory();
  if (out !== undefined && !outFolder && (out === dir || dir.startsWith(`${out}/`)))
    throw new UsageError(
      `--out ${args.out} names ${out === dir ? 'the results folder' : 'a folder the results folder is in'} (--dir): the script and the folder need different paths`,
    );
  const report = args.format === 'json' ? 'report.json' : args.format === 'csv' ? 'report.csv' : 'report.txt';
  const script = slurmScript({
    jobName,
    shards: args.shards,
    dir,
    cwd: env.cwd,
    launcher: env.launcher,
    file: args.file,
    // Values as --flag=VALUE, so that one starting with '-' (a seed of -5) reads as a value.
    runFlags: [
      ...(args.machine !== undefined ? [`--machine=${args.machine}`] : []),
      ...(args.seed !== undefined ? [`--seed=${args.seed}`] : []),
      ...(args.hwlocMachine !== undefined ? [`--hwloc-machine=${args.hwlocMachine}`] : []),
      ...(args.strict ? ['--strict'] : []),
      ...(args.exact ? ['--exact'] : []),
      ...(args.trains ? ['--trains'] : []),
    ],
    mergeFlags: [
      ...(args.format !== 'table' ? [`--format=${args.format}`] : []),
      ...(args.breakdown ? ['--breakdown'] : []),
      ...(args.memory ? ['--memory'] : []),
    ],
    report,
    cpus: args.cpus,
    ...(args.partition !== undefined ? { partition: args.partition } : {}),
    ...(args.time !== undefined ? { time: args.time } : {}),
  });
  // The script first: a path it cannot be written to then leaves no results folder behind.
  if (out !== undefined) writeOutputFile(out, script, 'the script', '--out', 0o755);
  writeOutput(dir, 'the results folder', '--dir', () => mkdirSync(dir, { recursive: true }));
  if (out === undefined) env.stdout(script);
  else env.stderr(`intranode: wrote ${args.out}; submit it with: sbatch ${args.out}\n`);
  env.stderr(`intranode: ${args.shards} tasks over ${points} points; the report will be ${dir}/${report}\n`);
  return 0;
}

/** The scenario's name with only characters a job name and a folder name can carry as they are. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'sweep';
}
