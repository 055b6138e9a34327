// A kernel mechanism's own transport parameters (XPMEM's regcache and regcacheCapacity) are taken
// only by an algorithm that reaches the mechanism, itself or through point-to-point's `single`,
// with the real catalogue's declarations (algorithms/algorithm.ts, `mechanisms`, `pointToPoint`).
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../algorithms/catalogue.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { inputErrorOf } from '../helpers/input-error.ts';

const scenario = (operation: string, entry: string) =>
  `name: m\nmachine: knl\nranks: 4\noperation: ${operation}\nalgorithms:\n  - ${entry}\nsizes: 64KiB\n`;
const load = (operation: string, entry: string) =>
  loadScenarioText(scenario(operation, entry), {
    file: 'm.yaml',
    resolveMachine: (ref, baseDir) => resolveMachine(ref, { baseDir }),
    catalogue,
  });

describe("XPMEM's registration cache parameters", () => {
  it.each([
    ['bcast', '{ name: xpmem, params: { regcache: false } }'],
    ['bcast', '{ name: basic, params: { single: xpmem, regcacheCapacity: 16 } }'],
    ['bcast', '{ name: two-level, params: { intra: xpmem, regcache: false } }'],
    ['bcast', '{ name: two-level, params: { inter: knem-linear, single: xpmem, regcache: false } }'],
    ['allreduce', '{ name: two-level, params: { bcast: xpmem, regcache: false } }'],
    ['pingpong', '{ name: auto, params: { single: xpmem, regcache: false } }'],
    ['pingpong', '{ name: xpmem, params: { regcache: false } }'],
    ['onetoall', '{ name: xpmem, params: { regcacheCapacity: 2 } }'],
  ])('are taken by %s %s, which reaches XPMEM', (operation, entry) => {
    expect(load(operation, entry).algorithms).toHaveLength(1);
  });

  it.each([
    [
      'an algorithm that sends point-to-point, without single',
      'bcast',
      '{ name: basic, params: { regcache: false } }',
      'm.yaml:6:40 (algorithms[0].params.regcache): regcache configures XPMEM, but bcast:basic never calls XPMEM with these parameters and single is "none"; add single: xpmem, run an algorithm that calls XPMEM (xpmem) or leave it out',
    ],
    [
      'point-to-point without the LMT, which single would need',
      'bcast',
      '{ name: basic, params: { lmt: false, regcache: false } }',
      'regcache configures XPMEM, but bcast:basic never calls XPMEM with these parameters and single is "none"; run an algorithm that calls XPMEM (xpmem) or leave it out',
    ],
    [
      'single: xpmem on an algorithm that sends no point-to-point message',
      'bcast',
      '{ name: cma-linear, params: { single: xpmem, regcache: false } }',
      'regcache configures XPMEM, but bcast:cma-linear never calls XPMEM with these parameters (it calls CMA), and it sends no point-to-point message for single to put on it; run an algorithm that calls XPMEM (xpmem) or leave it out',
    ],
    [
      'a two-level composition whose levels send none',
      'bcast',
      '{ name: two-level, params: { inter: knem-linear, intra: cma-linear, single: xpmem, regcacheCapacity: 8 } }',
      '(algorithms[0].params.regcacheCapacity): regcacheCapacity configures XPMEM, but bcast:two-level never calls XPMEM with these parameters (it calls KNEM, CMA), and it sends no point-to-point message',
    ],
    [
      'an operation no algorithm of which calls XPMEM',
      'scatter',
      '{ name: knem-linear, params: { regcache: false } }',
      'it sends no point-to-point message for single to put on it; leave it out',
    ],
  ])('are refused for %s', (_what, operation, entry, message) => {
    expect(inputErrorOf(() => load(operation, entry)).message).toContain(message);
  });
});
