// A kernel mechanism's own transport parameters (XPMEM's regcache and regcacheCapacity) are taken
// only by an algorithm that reaches the mechanism, itself or through point-to-point's `single`, and
// the point-to-point ones only by an algorithm that sends point-to-point, with the real catalogue's
// declarations (algorithms/algorithm.ts, `mechanisms`, `pointToPoint`).
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
      'an algorithm that sends no point-to-point message',
      'bcast',
      '{ name: cma-linear, params: { regcache: false } }',
      'regcache configures XPMEM, but bcast:cma-linear never calls XPMEM with these parameters (it calls CMA), and it sends no point-to-point message for single to put on it; run an algorithm that calls XPMEM (xpmem) or leave it out',
    ],
    [
      'a two-level composition whose levels send none',
      'bcast',
      '{ name: two-level, params: { inter: knem-linear, intra: cma-linear, regcacheCapacity: 8 } }',
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

describe('point-to-point parameters', () => {
  it.each([
    ['bcast', '{ name: basic, params: { shm: sm, smFragment: 16KiB } }'],
    ['bcast', '{ name: two-level, params: { inter: knem-linear, single: cma } }'],
    ['pingpong', '{ name: auto, params: { single: cma, singleThreshold: 8KiB } }'],
  ])('are taken by %s %s, which sends point-to-point', (operation, entry) => {
    expect(load(operation, entry).algorithms).toHaveLength(1);
  });

  it.each([
    [
      'bcast',
      '{ name: knem-linear, params: { shm: sm } }',
      'm.yaml:6:41 (algorithms[0].params.shm): shm configures point-to-point messages, but bcast:knem-linear sends none with these parameters (its data moves through KNEM, its flags as control messages); leave it out',
    ],
    [
      'bcast',
      '{ name: cma-linear, params: { single: xpmem, regcache: false } }',
      '(algorithms[0].params.single): single configures point-to-point messages, but bcast:cma-linear sends none',
    ],
    [
      'bcast',
      '{ name: sm, params: { eagerLimit: 1KiB } }',
      'eagerLimit configures point-to-point messages, but bcast:sm sends none with these parameters (its data moves through shared memory of its own, its flags as control messages)',
    ],
    ['pingpong', '{ name: cma, params: { lmtChunk: 16KiB } }', 'lmtChunk configures point-to-point messages'],
    [
      'bcast',
      '{ name: two-level, params: { inter: knem-linear, intra: cma-linear, shm: sm } }',
      'shm configures point-to-point messages, but bcast:two-level sends none',
    ],
  ])('are refused for %s %s, which sends none', (operation, entry, message) => {
    expect(inputErrorOf(() => load(operation, entry)).message).toContain(message);
  });
});
