// `intranode run`: load a scenario, run every point, print one report; or, with --shard, run one
// shard of the points and print its partial results for `intranode merge`.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adaptDefaultScenario } from '../default-for-machine.ts';
import { loadScenarioText } from '../loader.ts';
import { loadScenarioFile } from '../scenario-file.ts';
import { formatCsvReport } from '../report/csv.ts';
import { formatImbReport } from '../report/imb.ts';
import { formatJsonReport } from '../report/json.ts';
import { createProgressBar } from '../report/progress.ts';
import { formatTableReport } from '../report/table.ts';
import { countPoints, expandScenario } from '../expand.ts';
import { runScenario, runScenarioBatched, type ProgressListener, type ScenarioResult } from '../run.ts';
import type { Scenario } from '../scenario.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { isHwlocExport } from '../../common/paths.ts';
import { sweepIdentity, type ShardRunOptions } from '../shard/identity.ts';
import { runShard } from '../shard/run-shard.ts';
import { formatShardFile, SHARD_FORMAT, SHARD_VERSION } from '../shard/shard-file.ts';
import { shardIndices, type ShardSpec } from '../shard/select.ts';
import type { Point } from '../point.ts';
import { UsageError, type Format, type RunArgs, type SimulationArgs } from './args.ts';
import { refuseInputAsOutput } from '../../common/write-output-file.ts';
import { hwlocChoice, type CliEnv } from './env.ts';

export const DEFAULT_SCENARIO = fileURLToPath(new URL('../files/default.yaml', import.meta.url));

export async function runCommand(args: RunArgs, env: CliEnv): Promise<number> {
  const run = loadOptions(args, env.cwd, args.file ?? DEFAULT_SCENARIO);
  const loaded = await loadRunScenario(run, env);
  const scenario = args.trains ? { ...loaded, trains: true } : loaded;
  const points = countPoints(expandScenario(scenario));
  const pointsHere = args.shard ? shardIndices(points, args.shard).length : points;
  const jobs = Math.min(args.jobs ?? env.defaultJobs, pointsHere);
  const bar = createProgressBar({ write: env.stderr, isTTY: env.stderrIsTTY, now: env.now });
  const onProgress = (done: number, total: number) => bar.update(done, total);
  const opts = { strict: args.strict };
  let output;
  try {
    // One job runs in this thread: no worker to start, and a stand-in runner (tests) is used as given.
    if (args.shard) {
      // --trains changes how points are simulated, not which: the shard names the sweep without it.
      const shard = { jobs, strict: args.strict, onProgress, identity: scenarioIdentity(loaded, run) };
      output = await shardReport(scenario, run, args.shard, shard, env);
    } else {
      const result = args.trace
        ? await tracedRun(scenario, args.trace, env, onProgress, opts)
        : jobs > 1
          ? await runScenarioBatched(scenario, await env.loadWorkers(jobs), onProgress, opts)
          : runScenario(scenario, await env.loadRunner(), onProgress, opts);
      output = formatReport(result, args);
    }
  } finally {
    bar.finish();
  }
  env.stdout(output);
  return 0;
}

/** The run with its trace written to `file` (relative to the working directory) as it goes. */
async function tracedRun(
  scenario: Scenario,
  file: string,
  env: CliEnv,
  onProgress: ProgressListener,
  opts: { strict: boolean },
): Promise<ScenarioResult> {
  const { TraceFile } = await import('../trace/trace-file.ts');
  const { pointNames } = await import('../trace/point-names.ts');
  const path = resolve(env.cwd, file);
  refuseInputAsOutput(path, inputFiles(scenario, env.cwd), 'the trace', '--trace');
  const trace = new TraceFile(path, pointNames(scenario, expandScenario(scenario)));
  let result: ScenarioResult;
  try {
    result = runScenario(scenario, trace.runner(await env.loadTracer()), onProgress, opts);
  } catch (e) {
    trace.abandon();
    throw e;
  }
  trace.close();
  return result;
}

/** The files a run may read: its scenario file and its machines' origins (a preset's or an import's
 *  names no file, and refuseInputAsOutput passes over what does not exist). */
export function inputFiles(scenario: Scenario, cwd: string): string[] {
  const origins = scenario.machines.map((m) => m.spec.origin);
  return [...(scenario.file ? [scenario.file] : []), ...origins].map((f) => resolve(cwd, f));
}

/** How `file` is loaded with the command line's `args`, relative to `cwd` (a shard records it for merge). */
export function loadOptions(args: SimulationArgs, cwd: string, file: string): ShardRunOptions {
  return {
    cwd,
    file,
    ...(args.machine !== undefined ? { machine: args.machine } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    ...(args.hwlocMachine !== undefined ? { hwlocMachine: args.hwlocMachine } : {}),
    ...(args.exact ? { exact: true } : {}),
  };
}

/** The scenario as `intranode run` loads it with these options (merge loads it again the same way). */
export async function loadRunScenario(run: ShardRunOptions, env: CliEnv): Promise<Scenario> {
  const scenario = await loadScenarioAsRun(run, env);
  // The option picks one machine of an hwloc file holding several; with no such file in the run
  // it would pick nothing, silently.
  if (run.hwlocMachine !== undefined && !scenario.machines.some((m) => isHwlocExport(m.ref)))
    throw new UsageError(
      `--hwloc-machine picks a machine of an hwloc XML file, and this run has none (its machines: ${scenario.machines.map((m) => m.ref).join(', ')})`,
    );
  return run.exact ? { ...scenario, exact: true } : scenario;
}

async function loadScenarioAsRun(run: ShardRunOptions, env: CliEnv): Promise<Scenario> {
  const hardware = await env.loadHardware();
  const catalogue = await env.loadAlgorithms();
  const opts = {
    cwd: run.cwd,
    catalogue,
    resolveMachine: (ref: string, baseDir: string) =>
      hardware.resolveMachine(ref, { baseDir, ...hwlocChoice(run.hwlocMachine) }),
    machineOverride: run.machine,
    seedOverride: run.seed,
  };
  // The default scenario (no file given) adapts to the machine --machine names, as far as it must. A
  // machine that cannot be read is reported by the loader below, at --machine.
  const spec = run.file === DEFAULT_SCENARIO ? machineOrUndefined(opts.resolveMachine, run) : undefined;
  if (spec && run.machine) {
    const name = run.machine.trim();
    const adapted = adaptDefaultScenario(readFileSync(DEFAULT_SCENARIO, 'utf8'), spec, {
      name,
      everyCore: name === 'host',
    });
    for (const note of adapted.notes) env.stderr(`intranode: ${note}\n`);
    return loadScenarioText(adapted.text, { ...opts, file: run.file });
  }
  return loadScenarioFile(run.file, opts);
}

function machineOrUndefined(
  resolveMachine: (ref: string, baseDir: string) => MachineSpec,
  run: ShardRunOptions,
): MachineSpec | undefined {
  if (run.machine === undefined || run.machine.trim() === '') return undefined;
  try {
    return resolveMachine(run.machine.trim(), run.cwd);
  } catch {
    return undefined;
  }
}

/** The identity of the sweep `scenario` makes when loaded with `run`. */
export function scenarioIdentity(scenario: Scenario, run: ShardRunOptions): string {
  return sweepIdentity(readFileSync(resolve(run.cwd, run.file), 'utf8'), run, sweepPoints(scenario));
}

/** The points of the sweep in the order runScenario runs them. */
function sweepPoints(scenario: Scenario): Point[] {
  return expandScenario(scenario).flatMap((t) => t.rows.flatMap((r) => r.cells.map((c) => c.point)));
}

async function shardReport(
  scenario: Scenario,
  run: ShardRunOptions,
  shard: ShardSpec,
  opts: { jobs: number; strict: boolean; onProgress: ProgressListener; identity: string },
  env: CliEnv,
): Promise<string> {
  const points = sweepPoints(scenario);
  const results = await runShard(
    points,
    shard,
    opts.jobs > 1 ? { runBatch: await env.loadWorkers(opts.jobs) } : { runner: await env.loadRunner() },
    opts,
  );
  return formatShardFile({
    format: SHARD_FORMAT,
    version: SHARD_VERSION,
    identity: opts.identity,
    shard,
    points: points.length,
    run,
    results,
  });
}

export function formatReport(
  result: ScenarioResult,
  args: { format: Format; breakdown: boolean; memory: boolean },
): string {
  const opts = { breakdown: args.breakdown, memory: args.memory };
  switch (args.format) {
    case 'json':
      return formatJsonReport(result);
    case 'csv':
      return formatCsvReport(result, opts);
    case 'imb':
      return formatImbReport(result);
    case 'table':
      return formatTableReport(result, opts);
  }
}
