// What one steady-state check costs on a large node: the walk of the whole simulation state at the
// start of a call (common/state-fingerprint.ts), on the state a 48-rank broadcast on IG leaves
// after a few cache-off calls (104 caches, about 20,000 cached ranges). The state is the one the
// harness itself walks: its check is wrapped for one run to keep what it was given.
import type { BenchRow } from './types.ts';
import { median } from './child-cpu.ts';
import { runAlgorithm } from '../algorithms/harness/simulate.ts';
import { SteadyState } from '../algorithms/harness/steady-state.ts';
import { stateFingerprint, TokenIds } from '../common/state-fingerprint.ts';
import { loadPreset } from '../hardware/presets.ts';

export function run(): BenchRow[] {
  let last: { roots: unknown; now: number } | undefined;
  const proto = SteadyState.prototype;
  const check = Object.getOwnPropertyDescriptor(proto, 'check')!.value as SteadyState['check'];
  proto.check = function (this: SteadyState, call, roots, now, events, left) {
    last = { roots, now };
    return check.call(this, call, roots, now, events, left);
  };
  try {
    runAlgorithm({
      machine: loadPreset('ig'),
      cores: Array.from({ length: 48 }, (_, i) => i),
      algorithm: 'bcast:tuned',
      call: { bytes: 256 << 10, root: 0, params: {} },
      cache: 'off',
      iterations: 3,
      warmup: 0,
      seed: 'bench',
    });
  } finally {
    proto.check = check;
  }
  if (last === undefined) throw new Error('bench/fingerprint.ts: the run took no fingerprint');
  const { roots, now } = last;
  const ids = new TokenIds();
  const tokens = stateFingerprint(roots, now, undefined, { ids }).length;
  const samples: number[] = [];
  for (let rep = 0; rep < 15; rep++) {
    const t0 = performance.now();
    stateFingerprint(roots, now, undefined, { ids, capacity: tokens + 1024 });
    samples.push(performance.now() - t0);
  }
  const ms = median(samples);
  return [
    { name: `steady state: one fingerprint of IG after a 48-rank call (${tokens} tokens)`, value: ms, unit: 'ms' },
    { name: 'steady state: the same, per token', value: (ms * 1e6) / tokens, unit: 'ns' },
  ];
}
