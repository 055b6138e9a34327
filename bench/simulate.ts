// End-to-end cost of simulating: one ping-pong sweep point on a preset-like machine, and the
// built-in default scenario (`intranode run` without a file) in this process.
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './types.ts';
import { median } from './child-cpu.ts';
import { runAlgorithm } from '../algorithms/harness/simulate.ts';
import { loadPreset } from '../hardware/presets.ts';
import { resolveMachine } from '../hardware/index.ts';
import { catalogue } from '../algorithms/catalogue.ts';
import { loadScenarioFile } from '../scenarios/scenario-file.ts';
import { runScenario } from '../scenarios/run.ts';
import { simulatePoint } from '../scenarios/simulate-point.ts';

const DEFAULT_SCENARIO = fileURLToPath(new URL('../scenarios/files/default.yaml', import.meta.url));

export function run(): BenchRow[] {
  const machine = loadPreset('dancer');
  const samples: number[] = [];
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    runAlgorithm({
      machine,
      cores: [0, 4],
      algorithm: 'pingpong:shm',
      call: { bytes: 4 << 20, root: 0, params: {} },
      cache: 'off',
      iterations: 20,
      warmup: 2,
      seed: 'bench',
    });
    samples.push(performance.now() - t0);
  }
  const scenario: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    const t0 = performance.now();
    const loaded = loadScenarioFile(DEFAULT_SCENARIO, {
      catalogue,
      resolveMachine: (ref, baseDir) => resolveMachine(ref, { baseDir }),
    });
    runScenario(loaded, simulatePoint);
    scenario.push(performance.now() - t0);
  }
  return [
    { name: 'simulate: 4 MiB ping-pong, 22 iterations (dancer)', value: median(samples), unit: 'ms' },
    { name: 'simulate: the default scenario, in process (3 runs)', value: median(scenario), unit: 'ms' },
  ];
}
