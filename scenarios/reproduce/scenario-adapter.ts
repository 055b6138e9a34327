// The one place the reproduction suite touches the rest of the scenario layer: loading a scenario
// file, running its points through the simulator, and the YAML, size and error helpers it shares
// with the scenario loader. Everything else in scenarios/reproduce/ sees only RunResult.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputError, didYouMean } from '../../common/input-error.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { loadScenarioText } from '../loader.ts';
import { runScenario, type ProgressListener } from '../run.ts';
import { simulatePoint } from '../simulate-point.ts';
import { formatSize, parseSize, parseSizeSpec, SizeError } from '../sizes.ts';
import type { RunResult } from './run-result.ts';

export { InputError, didYouMean, formatSize, parseSize, parseSizeSpec, SizeError };
export { parseYaml } from '../../common/yaml/parse.ts';
export type { YamlValue } from '../../common/yaml/value.ts';

/** Loads a scenario file and simulates every point of it, as `intranode run FILE` does; settles
 *  once the run is over (the runner's interface is asynchronous so that runs may move off-thread). */
export function simulateScenarioFile(path: string, onProgress?: ProgressListener): Promise<RunResult> {
  return Promise.resolve().then(() => simulateNow(path, onProgress));
}

function simulateNow(path: string, onProgress?: ProgressListener): RunResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read scenario file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, {
      file: path,
    });
  }
  const scenario = loadScenarioText(text, {
    file: path,
    cwd: dirname(path),
    catalogue,
    resolveMachine: (ref, baseDir) => resolveMachine(ref, { baseDir }),
  });
  // A cell the machine cannot run would give no time to compute a claim from: stop with its error.
  const result = runScenario(scenario, simulatePoint, onProgress, { strict: true });
  return {
    baseline: scenario.baseline,
    labels: scenario.algorithms.map((a) => a.label),
    tables: result.tables.map((table) => ({
      machine: table.machine.ref,
      ranks: table.ranks,
      rows: table.rows.map((row) => ({
        bytes: row.bytes,
        cells: Object.fromEntries(
          row.cells.map((c) => [c.algorithm.label, { meanNs: c.result.meanNs, breakdown: c.result.breakdown }]),
        ),
      })),
    })),
  };
}
