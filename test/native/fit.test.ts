// The calibration's fitting pieces: the solvers, the model-in-the-loop bandwidth fit, and the
// machine file it writes, which must load back with the values and sources it was given.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMachineFile, loadPreset } from '../../hardware/index.ts';
import { modelClaimsNs } from '../../native-validate/fit/model-claims.ts';
import { FITTED_CONSTANTS } from '../../native-validate/fit/constants.ts';
import { CMA_COLD_SIZES, type TrainingData } from '../../native-validate/training.ts';
import { modelAlgorithm, nativeRotation, newPagesOffCache, predictNs } from '../../native-validate/predict.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { steadyStats } from '../helpers/native-stats.ts';
import { modelCopyNs } from '../../native-validate/fit/model-copy.ts';
import { nonNegativeFit1, nonNegativeFit2, solveDecreasing } from '../../native-validate/fit/solve.ts';
import { writeMachineFile } from '../../native-validate/machine-writer.ts';
import { coveredPaths } from '../../native-validate/calibrate.ts';
import { Topology } from '../../sim/node/topology.ts';

describe('solvers', () => {
  it('bisects a decreasing function to its target', () => {
    const { x, reached } = solveDecreasing((bw) => 1000 / bw, 25, 0.05, 5000);
    expect(reached).toBe(true);
    expect(x).toBeCloseTo(40, 1);
  });
  it('says when the target is out of reach', () => {
    expect(solveDecreasing((bw) => 10 + 1000 / bw, 5, 0.05, 5000).reached).toBe(false);
  });
  it('recovers two non-negative coefficients', () => {
    const points = [1, 2, 4, 8, 16].map((pages) => ({ a: 1, b: pages, y: 300 + 50 * pages, w: 1 }));
    const { p, q } = nonNegativeFit2(points);
    expect(p).toBeCloseTo(300, 6);
    expect(q).toBeCloseTo(50, 6);
  });
  it('fits one non-negative coefficient, and clamps a negative one to zero', () => {
    const points = [1, 2, 4].map((a) => ({ a, y: 70 * a, w: 1 / (70 * a) ** 2 }));
    expect(nonNegativeFit1(points)).toBeCloseTo(70, 9);
    expect(nonNegativeFit1(points.map((p) => ({ ...p, y: -p.y })))).toBe(0);
    expect(nonNegativeFit1([])).toBe(0);
  });
  it('clamps a negative coefficient to zero and refits the other', () => {
    const points = [1, 2, 4].map((pages) => ({ a: 1, b: pages, y: -100 + 60 * pages, w: 1 }));
    const { p, q } = nonNegativeFit2(points);
    expect(p).toBe(0);
    // Least squares of y = q b alone: sum(b y) / sum(b^2) = (-40 + 40 + 560) / 21, not the 60 of the
    // unclamped fit.
    expect(q).toBeCloseTo(560 / 21, 9);
  });
});

describe('model memcpy', () => {
  it('gets faster with a larger copy bandwidth, and the bisection finds the value back', () => {
    const spec = structuredClone(loadPreset('dancer'));
    const bytes = 8192;
    spec.costs.copyBandwidth = 7;
    const target = modelCopyNs(spec, [0], bytes);
    spec.costs.copyBandwidth = 50;
    expect(modelCopyNs(spec, [0], bytes)).toBeLessThan(target);
    const { x } = solveDecreasing(
      (bw) => {
        spec.costs.copyBandwidth = bw;
        return modelCopyNs(spec, [0], bytes);
      },
      target,
      0.05,
      5000,
    );
    expect(x).toBeCloseTo(7, 1);
  });
});

describe('model of stores into the ring another core has read', () => {
  it('is slower with fewer claims in flight than without the mechanism, and the bisection finds the count back', () => {
    // Dancer's cores 0 and 1 share its L3; with the L3's cache-to-cache latency set, a store into
    // a line the other core's L2 holds waits for that copy's invalidation.
    const spec = structuredClone(loadPreset('dancer'));
    spec.caches.forEach((c) => c.level === 3 && (c.peerLatencyNs = 30));
    const bytes = 64 * 1024;
    const without = modelClaimsNs(spec, [0, 1], bytes);
    spec.costs.claimConcurrency = 3;
    const target = modelClaimsNs(spec, [0, 1], bytes);
    expect(target).toBeGreaterThan(without);
    spec.costs.claimConcurrency = 12;
    expect(modelClaimsNs(spec, [0, 1], bytes)).toBeLessThan(target);
    const { x } = solveDecreasing(
      (c) => {
        spec.costs.claimConcurrency = c;
        return modelClaimsNs(spec, [0, 1], bytes);
      },
      target,
      0.25,
      64,
    );
    expect(x).toBeCloseTo(3, 1);
  });
});

describe('the fit of claims in flight', () => {
  const fitClaims = (machine: string, cores: [number, number], measuredNs: number) => {
    const spec = structuredClone(loadPreset(machine));
    spec.caches.forEach((c) => c.level === 3 && (c.peerLatencyNs = 30));
    const claims = { cores, results: [steadyStats(64 * 1024, measuredNs, 20)] };
    const fit = FITTED_CONSTANTS.find((f) => f.name.startsWith('ownership claims'))!;
    return { spec, values: fit.fit(spec, { claims } as unknown as TrainingData) };
  };

  it('finds the count at which the model takes the measured time, between two cores of one socket', () => {
    const { spec, values } = fitClaims('westmere', [0, 1], 7000);
    expect(values[0].kept).toBeUndefined();
    expect(spec.costs.claimConcurrency).toBeGreaterThan(0.25);
    expect(modelClaimsNs(spec, [0, 1], 64 * 1024)).toBeCloseTo(7000, -2);
  });

  it('fits nothing between cores of two sockets, whose copy the model does not hold back by claims', () => {
    // Westmere's cores 0 and 6 are on two sockets: no cache they share, no claim the count governs.
    const { spec, values } = fitClaims('westmere', [0, 6], 1e6);
    expect(values[0].kept).toBe(true);
    expect(values[0].source).toContain('not fitted');
    expect(spec.costs.claimConcurrency).toBeUndefined();
  });
});

describe("the kernel's first access to a page through the caller's mapping", () => {
  const algorithm = modelAlgorithm('onetoall', 'cma-read')!;
  // The training's cold sweep: 20 measured calls after 2, buffers rotated over twice 32 MiB.
  const calls = (bytes: number) => ({
    iterations: 20,
    warmup: 2,
    rotation: nativeRotation('onetoall', bytes, 2, 32 << 20),
  });
  const cold = (spec: MachineSpec, bytes: number, rotation?: number) =>
    predictNs(spec, algorithm, [0, 1], bytes, 'off', { calls: { iterations: 4, warmup: 2, rotation } });

  it("adds its cost for every page of the reader's buffer a call reaches first, and nothing once the rotation comes round", () => {
    const spec = structuredClone(loadPreset('broadwell'));
    const bytes = 64 * 1024;
    const [coldBefore, warmBefore] = [cold(spec, bytes), predictNs(spec, algorithm, [0, 1], bytes, 'on')];
    spec.kernel.params.firstUserAccessNs = 2500;
    expect(cold(spec, bytes) - coldBefore).toBeCloseTo((bytes / 4096) * 2500, 3);
    // Two copies of the buffers: the warm-up calls reach both, the measured ones reach none anew.
    expect(cold(spec, bytes, 2)).toBeCloseTo(coldBefore, 6);
    // Three copies over six calls: the measured calls' median is one that reaches nothing anew.
    expect(cold(spec, bytes, 3)).toBeCloseTo(coldBefore, 6);
    // The warm calls use one copy, reached by the warm-up.
    expect(predictNs(spec, algorithm, [0, 1], bytes, 'on')).toBeCloseTo(warmBefore, 6);
  });

  it('measures over the least cache size whose rotation gives every call a copy of its own', () => {
    const MiB = 1 << 20;
    for (const [sizes, offCache, calls] of [
      [[4096, MiB], 8 * MiB, 22],
      [[64 * 1024], MiB, 533],
      [[MiB], 32 * MiB, 22],
    ] as const) {
      const least = newPagesOffCache('onetoall', sizes, 2, offCache, calls);
      expect(least).toBeGreaterThanOrEqual(offCache);
      for (const bytes of sizes) expect(nativeRotation('onetoall', bytes, 2, least)).toBeGreaterThanOrEqual(calls);
      if (least > offCache)
        expect(Math.min(...sizes.map((b) => nativeRotation('onetoall', b, 2, least - 1)))).toBeLessThan(calls);
    }
    // A cache large enough already is kept: 33 copies of 2 MiB at 1 MiB over 32 MiB.
    expect(newPagesOffCache('onetoall', [MiB], 2, 32 * MiB, 22)).toBe(32 * MiB);
  });

  it('is fitted back from a cold sweep the model itself took with it', () => {
    const spec = structuredClone(loadPreset('broadwell'));
    spec.kernel.params.firstUserAccessNs = 3000;
    const predicted = (bytes: number) => predictNs(spec, algorithm, [0, 1], bytes, 'off', { calls: calls(bytes) });
    const results = CMA_COLD_SIZES.map((bytes) => steadyStats(bytes, predicted(bytes), 20));
    spec.kernel.params.firstUserAccessNs = 0;
    const fit = FITTED_CONSTANTS.find((f) => f.name.startsWith("cost of the kernel's first access"))!;
    const sweep = { bench: 'onetoall', cores: [0, 1], iterations: 20, warmup: 2, results };
    const [value] = fit.fit(spec, { cmaColdSweep: sweep, coldRotationBytes: 32 << 20 } as unknown as TrainingData);
    expect(value.field).toBe('kernel.params.firstUserAccessNs');
    expect(value.value).toBeCloseTo(3000, 0);
    expect(spec.kernel.params.firstUserAccessNs).toBe(value.value);
    expect(value.source).toContain('cold (buffers rotated over more than twice 32 MiB), 4 KiB');
    // A host no slower cold than the model fits zero, not a negative cost.
    spec.kernel.params.firstUserAccessNs = 0;
    const faster = CMA_COLD_SIZES.map((bytes) => steadyStats(bytes, predicted(bytes) * 0.9, 20));
    const slower = { ...sweep, results: faster };
    expect(fit.fit(spec, { cmaColdSweep: slower } as unknown as TrainingData)[0].value).toBe(0);
  });
});

describe('the fit of a line between two cores', () => {
  const fitTrip = (machine: string, cores: [number, number], medianNs: number) => {
    const spec = structuredClone(loadPreset(machine));
    const lines = { cores, results: [steadyStats(64, medianNs, 20)] };
    const fit = FITTED_CONSTANTS.find((f) => f.name.startsWith('cache-to-cache latency'))!;
    return { spec, values: fit.fit(spec, { lines } as unknown as TrainingData) };
  };

  it('goes to the innermost cache the two share, where they share one', () => {
    const { spec, values } = fitTrip('westmere', [0, 1], 41);
    expect(values.map((v) => v.field)).toEqual(['caches[L3].peerLatencyNs']);
    expect(new Topology(spec).lineLatency(0, 1)).toBeCloseTo(41, 6);
    expect(spec.numaNodes.every((n) => n.peerLatencyNs === undefined)).toBe(true);
  });

  it("goes to their NUMA node where they share no cache, and is then every such pair's trip there", () => {
    // Genoa's core complexes: cores of one socket and node, each complex with an L3 of its own.
    const spec0 = loadPreset('epyc-genoa');
    const topo0 = new Topology(spec0);
    const apart = spec0.cores
      .filter((x) => x.numa === spec0.cores[0].numa && !topo0.sharedCache(spec0.cores[0].id, x.id))
      .map((x) => x.id);
    // Another pair of that node, on two complexes other than the first core's.
    const [a, b] = apart;
    const c = apart.find((x) => !topo0.sharedCache(b, x))!;
    const { spec, values } = fitTrip('epyc-genoa', [spec0.cores[0].id, a], 187);
    const node = spec0.cores[0].numa;
    expect(values).toEqual([expect.objectContaining({ field: `numaNodes[${node}].peerLatencyNs`, value: 187 })]);
    expect(values[0].source).toMatch(/one cache line passed back and forth between cores 0 and \d+/);
    const topo = new Topology(spec);
    expect(topo.lineLatency(spec0.cores[0].id, a)).toBeCloseTo(187, 6);
    expect(topo.lineLatency(b, c)).toBeCloseTo(187, 6);
    expect(topo0.lineLatency(b, c)).not.toBeCloseTo(187, 6);
  });

  it('fits nothing between cores of two nodes or two packages: the trip there crosses links', () => {
    const spec0 = loadPreset('westmere');
    const other = spec0.cores.find((x) => x.numa !== spec0.cores[0].numa)!.id;
    const { spec, values } = fitTrip('westmere', [0, other], 300);
    expect(values).toEqual([]);
    expect(spec).toEqual(spec0);
    // Zoot: four packages behind one north-bridge memory node.
    const zoot = loadPreset('zoot');
    const apart = zoot.cores.find((x) => x.numa === zoot.cores[0].numa && x.package !== zoot.cores[0].package)!.id;
    const fromZoot = fitTrip('zoot', [zoot.cores[0].id, apart], 300);
    expect(fromZoot.values).toEqual([]);
    expect(fromZoot.spec).toEqual(zoot);
  });
});

describe('machine file writer', () => {
  it('writes a file that loads back with the same constants, sources beside them', () => {
    const spec = structuredClone(loadPreset('dancer'));
    spec.caches.forEach((c) => c.level === 2 && (c.bandwidth = 12.34));
    spec.kernel.pinPerPageNs = 47.6;
    spec.caches.forEach((c) => c.level === 3 && (c.peerLatencyNs = 31.5));
    spec.numaNodes[1].peerLatencyNs = 205;
    const fitted = [
      { field: 'caches[L2].bandwidth', value: 12.34, source: 'measured: memcpy in L2' },
      { field: 'kernel.pinPerPageNs', value: 47.6, source: 'measured: CMA sweep' },
      { field: 'caches[L3].peerLatencyNs', value: 31.5, source: 'measured: a line between two cores' },
      { field: 'numaNodes[1].peerLatencyNs', value: 205, source: 'measured: a line across node 1' },
    ];
    const sources = new Map(fitted.map((f) => [f.field, f.source]));
    const text = writeMachineFile(spec, (f) => sources.get(f), ['test']);
    expect(text).toMatch(/bandwidth: 12\.34 +# measured: memcpy in L2/);
    expect(text).toMatch(/pinPerPage: 47\.6ns +# measured: CMA sweep/);
    expect(text).toMatch(/peerLatency: 31\.5 +# measured: a line between two cores/);
    expect(text).toMatch(/peerLatency: 205 +# measured: a line across node 1/);
    const file = join(mkdtempSync(join(tmpdir(), 'intranode-native-test-')), 'm.yaml');
    writeFileSync(file, text);
    const back = loadMachineFile(file);
    expect(back.caches.filter((c) => c.level === 2).map((c) => c.bandwidth)).toEqual(
      spec.caches.filter((c) => c.level === 2).map(() => 12.34),
    );
    expect(back.kernel.pinPerPageNs).toBe(47.6);
    expect(back.caches.map((c) => c.peerLatencyNs)).toEqual(spec.caches.map((c) => c.peerLatencyNs));
    expect(back.cores.length).toBe(spec.cores.length);
    expect(back.numaNodes.map((n) => n.bandwidth)).toEqual(spec.numaNodes.map((n) => n.bandwidth));
    expect(back.numaNodes.map((n) => n.peerLatencyNs)).toEqual([undefined, 205]);
    expect(back.costs).toEqual(spec.costs);
  });
  it('keeps the prefetcher and store constants of a machine that has them', () => {
    const spec = structuredClone(loadPreset('dancer'));
    spec.costs = { ...spec.costs, streamConcurrency: 32, kernelStores: 'full-line', memcpyNonTemporalShare: 0.75 };
    const file = join(mkdtempSync(join(tmpdir(), 'intranode-native-test-')), 'm.yaml');
    writeFileSync(
      file,
      writeMachineFile(spec, () => undefined, []),
    );
    expect(loadMachineFile(file).costs).toEqual(spec.costs);
  });
  it("lists the values still at their import defaults as guessed, in the file's own paths", () => {
    const spec = structuredClone(loadPreset('dancer'));
    spec.guessed = ['caches[0].bandwidth', 'numaNodes[1].latencyNs', 'kernel.syscallNs'];
    const text = writeMachineFile(spec, () => undefined, []);
    expect(text).toMatch(/^guessed: \["caches\[0\].bandwidth", "numa\[1\].latency", "kernel.syscall"\]$/m);
    const file = join(mkdtempSync(join(tmpdir(), 'intranode-native-test-')), 'm.yaml');
    writeFileSync(file, text);
    expect(loadMachineFile(file).guessed.length).toBe(3);
  });
  it('expands level-wide fitted fields into every cache of that level', () => {
    const spec = loadPreset('dancer');
    const covered = coveredPaths(spec, [{ field: 'caches[L3].latencyNs', value: 1, source: '' }]);
    const l3 = spec.caches.flatMap((c, i) => (c.level === 3 ? [`caches[${i}].latencyNs`] : []));
    expect([...covered].sort()).toEqual(l3.sort());
    expect(l3.length).toBeGreaterThan(0);
  });
});
