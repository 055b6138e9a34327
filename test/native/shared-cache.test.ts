// Calibration decides from a measured line trip whether two cores share the cache a virtual
// machine's topology gave each of them apart (native-validate/fit/shared-cache.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMachineFile, loadPreset } from '../../hardware/index.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { Topology } from '../../sim/node/topology.ts';
import { shareOuterCache } from '../../native-validate/fit/shared-cache.ts';
import { writeMachineFile } from '../../native-validate/machine-writer.ts';
import { levelProbes, type TrainingData } from '../../native-validate/training.ts';
import { coreOneApart } from '../helpers/machines.ts';
import { steadyStats } from '../helpers/native-stats.ts';

/** Dancer with core 1's L3 apart, listed first (coreOneApart). */
const apartMachine = (): MachineSpec => coreOneApart(structuredClone(loadPreset('dancer')));

/** The training data the decision reads: core 0's level probes, each level's load latency as the
 *  machine has it, memory's as its NUMA node's, and one line trip between cores 0 and 1. */
function training(spec: MachineSpec, tripNs: number): TrainingData {
  const levels = levelProbes(spec, 0);
  const latency = levels.map((l) =>
    steadyStats(
      l.workingSet,
      l.cacheIndex === undefined ? spec.numaNodes[0].latencyNs : spec.caches[l.cacheIndex].latencyNs,
    ),
  );
  return {
    cores: [0, 1],
    levels,
    latency,
    lines: { cores: [0, 1], results: [steadyStats(64, tripNs)] },
  } as unknown as TrainingData;
}

describe('the caches two cores share, from the line they pass', () => {
  it('makes the two L3s one when the trip is nearer a load from L3 than a trip through memory', () => {
    const spec = apartMachine();
    // Dancer: L3 loads 17.2 ns, memory 65 ns; 27 ns is 1.6 times the first and 2.4 times below the second.
    const data = training(spec, 27);
    const before = spec.caches.length;
    const decided = shareOuterCache(spec, data);
    expect(decided?.kept).toBeUndefined();
    expect(decided?.field).toBe('caches[L3#0].cores');
    expect(decided?.source).toContain('27.0 ns per one-way trip');
    expect(spec.caches.length).toBe(before - 1);
    expect(new Topology(spec).sharedCache(0, 1)?.cores).toEqual([0, 1, 2, 3]);
    // The training data's indices follow the caches: each probe still names core 0's cache of its level.
    for (const probe of data.levels.slice(0, -1)) {
      const cache = spec.caches[probe.cacheIndex!];
      expect(cache.cores).toContain(0);
      expect(`L${cache.level}`).toBe(probe.name);
    }
  });

  it('leaves the topology as detected when the trip is nearer one through memory', () => {
    const spec = apartMachine();
    const unchanged = structuredClone(spec);
    const decided = shareOuterCache(spec, training(spec, 45));
    expect(decided?.kept).toBe(true);
    expect(decided?.source).toContain('share no cache');
    expect(spec).toEqual(unchanged);
  });

  it('decides nothing where the cores already share a cache, or no trip was measured', () => {
    const spec = structuredClone(loadPreset('dancer'));
    const unchanged = structuredClone(spec);
    expect(shareOuterCache(spec, training(spec, 27))).toBeUndefined();
    const apart = apartMachine();
    expect(shareOuterCache(apart, { ...training(apart, 27), lines: undefined })).toBeUndefined();
    expect(spec).toEqual(unchanged);
  });

  it('writes the decision beside the cache in the machine file, which loads back shared', () => {
    const spec = apartMachine();
    // As an import marks the values it defaulted: by cache index, the removed cache (0) among them.
    spec.guessed = spec.caches.map((_, i) => `caches[${i}].bandwidth`);
    const last = spec.caches.length - 1;
    const decided = shareOuterCache(spec, training(spec, 27))!;
    expect(spec.guessed).toEqual(spec.caches.map((_, i) => `caches[${i}].bandwidth`));
    expect(spec.guessed).not.toContain(`caches[${last}].bandwidth`);
    const text = writeMachineFile(spec, (f) => (f === decided.field ? decided.source : undefined), ['test']);
    expect(text).toMatch(/cores: \[0, 1, 2, 3\] +# measured: one cache line passed/);
    const file = join(mkdtempSync(join(tmpdir(), 'intranode-native-test-')), 'm.yaml');
    writeFileSync(file, text);
    const back = loadMachineFile(file);
    expect(new Topology(back).sharedCache(0, 1)?.level).toBe(3);
    expect(back.guessed).toHaveLength(spec.caches.length);
  });
});
