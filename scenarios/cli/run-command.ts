// `intranode run`: load a scenario, run every point, print one report.
import { fileURLToPath } from 'node:url';
import { loadScenarioFile } from '../loader.ts';
import { formatCsvReport } from '../report/csv.ts';
import { formatJsonReport } from '../report/json.ts';
import { createProgressBar } from '../report/progress.ts';
import { formatTableReport } from '../report/table.ts';
import { runScenario } from '../run.ts';
import type { RunArgs } from './args.ts';
import type { CliEnv } from './env.ts';

export const DEFAULT_SCENARIO = fileURLToPath(new URL('../files/default.yaml', import.meta.url));

export async function runCommand(args: RunArgs, env: CliEnv): Promise<number> {
  const hardware = await env.loadHardware();
  const catalogue = await env.loadAlgorithms();
  const scenario = loadScenarioFile(args.file ?? DEFAULT_SCENARIO, {
    cwd: env.cwd,
    catalogue,
    resolveMachine: (ref, baseDir) => hardware.resolveMachine(ref, { baseDir }),
    machineOverride: args.machine,
    seedOverride: args.seed,
  });
  const runner = await env.loadRunner();
  const bar = createProgressBar({ write: env.stderr, isTTY: env.stderrIsTTY, now: env.now });
  let result;
  try {
    result = runScenario(scenario, runner, (done, total) => bar.update(done, total));
  } finally {
    bar.finish();
  }
  const report =
    args.format === 'json'
      ? formatJsonReport(result)
      : args.format === 'csv'
        ? formatCsvReport(result, { breakdown: args.breakdown })
        : formatTableReport(result, { breakdown: args.breakdown });
  env.stdout(report);
  return 0;
}
