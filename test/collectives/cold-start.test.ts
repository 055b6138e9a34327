// A cache-off run starts with every cache full of the benchmark's earlier writes
// (Node.fillCachesWithEarlierWrites, docs/model.md): after its one warm-up call, every call takes
// the time of a run that has gone on long enough for its own writes to fill the caches, so the
// mean no longer depends on how many calls a scenario runs.
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { loadPreset } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const dancer = loadPreset('dancer');
const ig = loadPreset('ig');

/**
 * Relative agreement required. Not exact: the lines a cache starts with are of one buffer per NUMA
 * node under it, in one block, while a long run's are its own buffers', so where each write-back
 * goes and which lines a cache gives up first differ a little until the calls' own lines have
 * replaced them. Measured on Dancer's bcast:basic at 64 KiB: 52.145 µs at the second call, 52.075 µs
 * from the 31st on (0.13 %). Without them the calls from the second to the 31st took 38.0 µs, and only
 * from the 41st 52.1 µs.
 */
const AGREE = 2e-3;

/** Times of the measured calls after `warmup` warm-up calls, every call simulated. */
function times(machine: MachineSpec, ranks: number, algorithm: string, bytes: number, warmup: number): number[] {
  return runAlgorithm({
    machine,
    cores: Array.from({ length: ranks }, (_, i) => i),
    algorithm,
    call: { bytes, root: 0, params: {} },
    cache: 'off',
    iterations: 2,
    warmup,
    seed: 'cold',
    exact: true,
  }).times;
}

describe('cold caches at the start of a cache-off run', () => {
  it('are full of dirty lines where a write leaves dirty lines, and only there', () => {
    for (const machine of [dancer, ig]) {
      const node = new Node(new Simulation({ seed: 's' }), machine);
      node.fillCachesWithEarlierWrites();
      for (const cache of machine.caches) {
        const state = node.cache(cache.id);
        // Dancer's L1 and L2 keep what a core writes clean (its L3 holds it dirty); IG's L1 and L2,
        // behind the victim L3, keep it dirty for a sibling's probe, and the L3 receives what they evict.
        const dirty = cache.level === 3 || machine === ig;
        expect(state.usedBytes, `${machine.name} ${cache.id}`).toBe(dirty ? cache.sizeBytes : 0);
        expect(state.staleBytes, `${machine.name} ${cache.id}`).toBe(dirty ? cache.sizeBytes : 0);
      }
    }
  });

  it('give every measured call the time of a run that filled them itself, after the default warm-up', () => {
    // Without them, a 1 MiB broadcast on Dancer evicted nothing dirty for its first calls
    // (152 µs against 357 µs for linear KNEM), and a 64 KiB one for its first 32. IG's L3 is a
    // victim cache: the first call's surplus write-backs spill into the second.
    const cases = [
      ...['bcast:knem-linear', 'bcast:basic', 'scatter:knem-linear', 'gather:basic'].flatMap((algorithm) =>
        [64 * KiB, 1 * MiB].map((bytes) => ({ machine: dancer, ranks: 8, algorithm, bytes })),
      ),
      { machine: ig, ranks: 12, algorithm: 'scatter:knem-linear', bytes: 64 * KiB },
      { machine: ig, ranks: 12, algorithm: 'bcast:knem-linear', bytes: 1 * MiB },
    ];
    for (const { machine, ranks, algorithm, bytes } of cases) {
      const short = times(machine, ranks, algorithm, bytes, 1);
      // Long enough for the calls' own lines to have replaced the start's (see AGREE).
      const long = times(machine, ranks, algorithm, bytes, 45);
      short.forEach((t, i) =>
        expect(Math.abs(t / long[i] - 1), `${machine.name} ${algorithm} ${bytes} B`).toBeLessThan(AGREE),
      );
    }
  });
});
