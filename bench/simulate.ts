// End-to-end cost of simulating: one ping-pong sweep point on a preset-like machine.
import type { BenchRow } from './types.ts';
import { runAlgorithm } from '../algorithms/harness/simulate.ts';
import { loadPreset } from '../hardware/presets.ts';

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
  samples.sort((a, b) => a - b);
  return [{ name: 'simulate: 4 MiB ping-pong, 22 iterations (dancer)', value: samples[2], unit: 'ms' }];
}
