// The sbatch script of `intranode slurm`: a SLURM job array whose task I runs shard I of N
// (`intranode run FILE --shard I/N`), and whose last task to finish merges the shards into the report
// a single run prints (`intranode merge`). The merge needs no second job and no dependency: each task
// writes its shard under a temporary name and renames it (atomic on one file system), then checks
// whether all N are there; `mkdir` is atomic too, so of the tasks that find them all exactly one merges.
export interface SlurmScriptOptions {
  /** Shown in the queue (`squeue`) as the job's name; no characters that need quoting. */
  jobName: string;
  /** How many array tasks, one shard each. */
  shards: number;
  /**
   * Absolute: where the shards, the task logs and the report go. Must exist before submission, and
   * hold only characters that need no quoting: SLURM reads #SBATCH lines without a shell.
   */
  dir: string;
  /** Absolute: the working directory the tasks run in (relative paths in the scenario resolve from it). */
  cwd: string;
  /** Absolute path of the `intranode` launcher (bin/intranode.mjs). */
  launcher: string;
  /** The scenario file as `run` takes it (relative to cwd or absolute). */
  file: string;
  /** Flags every shard's `run` gets (machine, seed, strict, hwloc machine), already split into words. */
  runFlags: string[];
  /** Flags of the final `merge` (format, breakdown). */
  mergeFlags: string[];
  /** The report's file name in `dir` (report.txt, report.json, report.csv). */
  report: string;
  /** CPUs per task; the shard runs that many points at once. */
  cpus: number;
  partition?: string;
  /** A SLURM time limit per task (`--time`). */
  time?: string;
}

/** Quotes `text` as one word for bash. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

export function slurmScript(o: SlurmScriptOptions): string {
  const w = shellWord;
  const n = o.shards;
  const node = '"${INTRANODE_NODE:-node}"';
  const run = [node, w(o.launcher), 'run', w(o.file), ...o.runFlags.map(w), '--jobs', String(o.cpus)].join(' ');
  const merge = [node, w(o.launcher), 'merge', ...o.mergeFlags.map(w), '"${parts[@]}"'].join(' ');
  const directives = [
    `--job-name=${o.jobName}`,
    `--array=1-${n}`,
    `--output=${o.dir}/slurm-%A_%a.out`,
    '--ntasks=1',
    `--cpus-per-task=${o.cpus}`,
    ...(o.partition !== undefined ? [`--partition=${o.partition}`] : []),
    ...(o.time !== undefined ? [`--time=${o.time}`] : []),
  ];
  return `#!/bin/bash
# Written by \`intranode slurm\`: ${n} shard${n === 1 ? '' : 's'} of ${o.file} as a SLURM job array.
# Submit with \`sbatch THIS_FILE\`. Each task writes shard-I.json to the results folder; the last one
# to finish merges them into ${o.report} there, the report a single \`intranode run\` prints.
# INTRANODE_NODE names the node binary if \`node\` is not on the tasks' PATH.
${directives.map((d) => `#SBATCH ${d}`).join('\n')}
set -euo pipefail
dir=${w(o.dir)}
task=\${SLURM_ARRAY_TASK_ID:?this script is a SLURM job array: submit it with sbatch}
cd ${w(o.cwd)}
${run} --shard "$task/${n}" > "$dir/shard-$task.json.part"
mv "$dir/shard-$task.json.part" "$dir/shard-$task.json"
parts=()
for i in $(seq 1 ${n}); do
  [ -f "$dir/shard-$i.json" ] || exit 0
  parts+=("$dir/shard-$i.json")
done
mkdir "$dir/merge.lock" 2> /dev/null || exit 0
${merge} > "$dir/${o.report}.part"
mv "$dir/${o.report}.part" "$dir/${o.report}"
`;
}
