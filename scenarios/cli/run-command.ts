// `intranode run`: load a scenario, run every point, print one report.
import { fileURLToPath } from 'node:url';
import { loadScenarioFile } from '../loader.ts';
import { formatCsvReport } from '../report/csv.ts';
import { formatImbReport } from '../report/imb.ts';
import { formatJsonReport } from '../report/json.ts';
import { createProgressBar } from '../report/progress.ts';
import { formatTableReport } from '../report/table.ts';
import { countPoints, expandScenario } from '../expand.ts';
import { runScenario, runScenarioBatched, type ScenarioResult } from '../run.ts';
import type { RunArgs } from './args.ts';
import { hwlocChoice, type CliEnv } from './env.ts';

export const DEFAULT_SCENARIO = fileURLToPath(new URL('../files/default.yaml', import.meta.url));

export async function runCommand(args: RunArgs, env: CliEnv): Promise<number> {
  const hardware = await env.loadHardware();
  const catalogue = await env.loadAlgorithms();
  const scenario = loadScenarioFile(args.file ?? DEFAULT_SCENARIO, {
    cwd: env.cwd,
    catalogue,
    resolveMachine: (ref, baseDir) => hardware.resolveMachine(ref, { baseDir, ...hwlocChoice(args.hwlocMachine) }),
    machineOverride: args.machine,
    seedOverride: args.seed,
  });
  const jobs = Math.min(args.jobs ?? env.defaultJobs, countPoints(expandScenario(scenario)));
  const bar = createProgressBar({ write: env.stderr, isTTY: env.stderrIsTTY, now: env.now });
  const onProgress = (done: number, total: number) => bar.update(done, total);
  const opts = { strict: args.strict };
  let result;
  try {
    // One job runs in this thread: no worker to start, and a stand-in runner (tests) is used as given.
    result =
      jobs > 1
        ? await runScenarioBatched(scenario, await env.loadWorkers(jobs), onProgress, opts)
        : runScenario(scenario, await env.loadRunner(), onProgress, opts);
  } finally {
    bar.finish();
  }
  env.stdout(formatReport(result, args));
  return 0;
}

function formatReport(result: ScenarioResult, args: RunArgs): string {
  switch (args.format) {
    case 'json':
      return formatJsonReport(result);
    case 'csv':
      return formatCsvReport(result, { breakdown: args.breakdown });
    case 'imb':
      return formatImbReport(result);
    case 'table':
      return formatTableReport(result, { breakdown: args.breakdown });
  }
}
