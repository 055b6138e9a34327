// The one place the reproduction suite touches the rest of the scenario layer: loading a scenario
// file, running its points through the simulator, and the YAML, size and error helpers it shares
// with the scenario loader. Everything else in scenarios/reproduce/ sees only RunResult.
import { InputError, didYouMean } from '../../common/input-error.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { loadScenarioFile } from '../scenario-file.ts';
import {
  runScenario,
  runScenarioBatched,
  type PointBatchRunner,
  type ProgressListener,
  type ScenarioResult,
} from '../run.ts';
import type { Scenario } from '../scenario.ts';
import { simulatePoint } from '../simulate-point.ts';
import { formatSize, parseSize, parseSizeSpec, SizeError } from '../sizes.ts';
import type { RunResult } from './run-result.ts';

export { InputError, didYouMean, formatSize, parseSize, parseSizeSpec, SizeError };
export { parseYaml } from '../../common/yaml/parse.ts';
export { readInputFile } from '../../common/read-input-file.ts';
export type { YamlValue } from '../../common/yaml/value.ts';

/** Loads a scenario file and simulates every point of it, as `intranode run FILE` does: in this
 *  thread, or with `runBatch` (worker threads) when given, which gives the same result. */
export async function simulateScenarioFile(
  path: string,
  onProgress?: ProgressListener,
  runBatch?: PointBatchRunner,
): Promise<RunResult> {
  const scenario = loadScenario(path);
  // A cell the machine cannot run would give no time to compute a claim from: stop with its error.
  const opts = { strict: true };
  const result = runBatch
    ? await runScenarioBatched(scenario, runBatch, onProgress, opts)
    : runScenario(scenario, simulatePoint, onProgress, opts);
  return toRunResult(result);
}

function loadScenario(path: string): Scenario {
  return loadScenarioFile(path, { catalogue, resolveMachine: (ref, baseDir) => resolveMachine(ref, { baseDir }) });
}

function toRunResult({ scenario, tables }: ScenarioResult): RunResult {
  return {
    baseline: scenario.baseline,
    labels: scenario.algorithms.map((a) => a.label),
    tables: tables.map((table) => ({
      machine: table.machine.ref,
      ranks: table.ranks,
      rows: table.rows.map((row) => ({
        bytes: row.bytes,
        cells: Object.fromEntries(
          row.cells.map((c) => [
            c.algorithm.label,
            {
              meanNs: c.result.meanNs,
              breakdown: c.result.breakdown,
              rankTimeNs: c.result.rankTimeNs,
              libraryBytes: c.result.libraryBytes,
            },
          ]),
        ),
      })),
    })),
  };
}
