// A constant whose measurement the model cannot reach (its other bounds hold it slower) is set where
// it stops holding the model back, not left at a default the measurement refutes, and a count the
// model needs beyond a core's usual prefetch queue is still found (fit/constants.ts).
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../hardware/index.ts';
import { FITTED_CONSTANTS } from '../../native-validate/fit/constants.ts';
import { modelCopyNs } from '../../native-validate/fit/model-copy.ts';
import { levelProbes, type TrainingData } from '../../native-validate/training.ts';
import { steadyStats } from '../helpers/native-stats.ts';

const fitNamed = (prefix: string) => FITTED_CONSTANTS.find((f) => f.name.startsWith(prefix))!;

describe('a cache bandwidth its measurement cannot reach', () => {
  // Dancer's L2 copy, measured far faster than anything the model's other bounds allow.
  const fitL2 = (l2Bandwidth: number) => {
    const spec = structuredClone(loadPreset('dancer'));
    spec.caches.forEach((c) => c.level === 2 && (c.bandwidth = l2Bandwidth));
    const levels = levelProbes(spec, 0);
    const copyOne = levels.map((l) => steadyStats(l.workingSet / 2, 1));
    const data = { cores: [0], levels, copyOne } as unknown as TrainingData;
    const fit = fitNamed('bandwidth of each outer cache level');
    const l2 = fit.fit(spec, data).find((v) => v.field === 'caches[L2].bandwidth')!;
    const probe = levels.find((l) => l.name === 'L2')!;
    const time = (bw: number) => {
      spec.caches.forEach((c) => c.level === 2 && (c.bandwidth = bw));
      return modelCopyNs(spec, [0], probe.workingSet / 2);
    };
    return { l2, time };
  };

  it('rises from a value that would hold the model back to the least that does not', () => {
    const { l2, time } = fitL2(1);
    expect(l2.kept).toBeUndefined();
    expect(l2.source).toContain('the least value that does not hold it back');
    const value = Number(l2.value);
    const floor = time(1e4);
    expect(time(value)).toBeLessThanOrEqual(floor * 1.002);
    expect(time(value * 0.9)).toBeGreaterThan(floor * 1.01);
  });

  it('keeps a value that does not hold the model back', () => {
    const { l2 } = fitL2(900);
    expect(l2.kept).toBe(true);
    expect(l2.value).toBe(900);
    expect(l2.source).toContain('not fitted');
  });
});

describe('the misses one core keeps in flight for a stream from memory', () => {
  /** Dancer with memory five times as far, its copy from memory measured at `measuredNs` (given the
   *  model's time at any count, with the memory controller out of the way as the fit takes it). */
  const fitStream = (measuredNs: (time: (n: number) => number) => number) => {
    const spec = structuredClone(loadPreset('dancer'));
    spec.numaNodes.forEach((n) => (n.latencyNs *= 5));
    // Nothing but the stream's count holds the copy back: neither the core, nor a cache, nor the fill
    // buffers its stores take.
    spec.costs.copyBandwidth = 1e3;
    spec.costs.missConcurrency = 1e3;
    spec.caches.forEach((c) => (c.bandwidth = 1e3));
    const levels = levelProbes(spec, 0);
    const bytes = levels[levels.length - 1].workingSet / 2;
    const time = (n: number) => {
      const copy = structuredClone(spec);
      copy.numaNodes.forEach((m) => (m.bandwidth = 1e4));
      copy.costs.streamConcurrency = n;
      return modelCopyNs(copy, [0], bytes);
    };
    const target = measuredNs(time);
    const copyOne = levels.map((l, i) => steadyStats(l.workingSet / 2, i === levels.length - 1 ? target : 1));
    const [value] = fitNamed('misses one core keeps').fit(spec, {
      cores: [0],
      levels,
      copyOne,
    } as unknown as TrainingData);
    return { value: Number(value.value), source: value.source, time, target };
  };

  it('is the smallest count as fast as the copy measured, past the 128 the search once stopped at', () => {
    const { value, time, target } = fitStream((time) => time(200));
    expect(value).toBe(200);
    expect(time(value)).toBeLessThanOrEqual(target);
    expect(time(value - 1)).toBeGreaterThan(target);
  });

  it("is the smallest count at the model's floor where no count is as fast", () => {
    const { value, source, time } = fitStream((time) => time(1024) / 2);
    expect(source).toContain('no count up to 1024 makes the model as fast');
    const floor = time(1024);
    expect(time(value)).toBeLessThanOrEqual(floor * 1.001);
    expect(time(value - 1)).toBeGreaterThan(floor * 1.001);
  });
});

describe('the two passes of the fits', () => {
  it("give an unreachable bandwidth the least value at the final constants, not one a first pass's defaults asked for", () => {
    // Dancer whose core copies far slower than its default says (measured as 40 GB/s would give):
    // the first pass sizes the L2 against the fast default, the second against the fitted core.
    const spec = structuredClone(loadPreset('dancer'));
    spec.costs.copyBandwidth = 1000;
    spec.caches.forEach((c) => c.level === 1 && (c.bandwidth = 1000));
    spec.caches.forEach((c) => c.level === 2 && (c.bandwidth = 5));
    const levels = levelProbes(spec, 0);
    const slowCore = structuredClone(spec);
    slowCore.costs.copyBandwidth = 40;
    slowCore.caches.forEach((c) => c.level === 1 && (c.bandwidth = 40));
    const copyOne = levels.map((l, i) =>
      steadyStats(
        l.workingSet / 2,
        i === 0 ? modelCopyNs(slowCore, [0], l.workingSet / 2) : i === 1 ? 1 : modelCopyNs(spec, [0], l.workingSet / 2),
      ),
    );
    const data = { cores: [0], levels, copyOne } as unknown as TrainingData;
    const initial = structuredClone(spec);
    const fits = [fitNamed('bandwidth of each outer cache level'), fitNamed('in-cache copy bandwidth')];
    for (let pass = 0; pass < 2; pass++) for (const f of fits) f.fit(spec, data, initial);
    const l2 = spec.caches.find((c) => c.level === 2)!.bandwidth;
    const time = (bw: number) => {
      const s = structuredClone(spec);
      s.caches.forEach((c) => c.level === 2 && (c.bandwidth = bw));
      return modelCopyNs(s, [0], levels[1].workingSet / 2);
    };
    const floor = time(1e4);
    expect(time(l2)).toBeLessThanOrEqual(floor * 1.002);
    expect(time(l2 * 0.9)).toBeGreaterThan(floor * 1.01);
  });
});
