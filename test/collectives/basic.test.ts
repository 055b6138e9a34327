import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { Node } from '../../sim/node/node.ts';
import type { Range } from '../../sim/node/buffer.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { BASIC_CROSSOVER, cubeDim, highestBit } from '../../algorithms/collectives/basic/bcast.ts';

const OPS = [
  'bcast',
  'scatter',
  'scatterv',
  'gather',
  'gatherv',
  'alltoall',
  'alltoallv',
  'allgather',
  'allgatherv',
  'reduce',
  'allreduce',
  'barrier',
];

describe('basic family', () => {
  it('registers one algorithm per collective operation', () => {
    for (const op of OPS) expect(catalogue.listAlgorithms(op).map((a) => a.name)).toContain(`${op}:basic`);
  });
  // Their data-correctness property runs with every catalogued algorithm's (properties.*.test.ts).
});

// Ma et al. 2010 (KNEM collectives), Table I: Open MPI's basic linear bcast takes O(N T) and holds
// O(N M) in intermediate shared-memory buffers. On a machine whose only bottleneck is the root's
// copy engine, the root's N-1 copy-ins of M bytes share it, so the broadcast takes about N M / B
// (N-1 copy-ins at the root, then each receiver's copy-out in parallel): a slope of T = M / B per rank.
// Open MPI's basic component broadcasts linearly only up to 4 ranks (its `crossover`), and along a
// binomial hypercube tree above, where each tree level adds one copy-in and one copy-out.
describe('basic bcast structure (Ma et al. 2010, Table I)', () => {
  const copyBandwidth = 8;
  const M = 32 * 1024;
  // Memory, caches and links far faster than one core's copy engine; no single-copy mechanism, so
  // point-to-point takes the shared-memory double copy the paper's analysis assumes.
  const ample: MachineSpec = (() => {
    const m = tinyMachine({
      packages: 4,
      coresPerPackage: 8,
      copyBandwidth,
      memoryBandwidth: 1e4,
      linkBandwidth: 1e4,
      l3Bandwidth: 1e4,
    });
    m.caches = m.caches.map((c) => ({ ...c, bandwidth: 1e4 }));
    m.kernel = { ...m.kernel, mechanisms: { cma: false, knem: false, xpmem: false, limic: false, ioat: false } };
    return m;
  })();
  const cores = (n: number) => Array.from({ length: n }, (_, i) => i);

  const timeOf = (n: number, algorithm = 'bcast:basic') =>
    runAlgorithm({
      machine: ample,
      cores: cores(n),
      algorithm,
      call: { bytes: M, root: 0, params: {} },
      cache: 'off',
      iterations: 1,
      warmup: 0,
      seed: 's',
    }).times[0];
  const T = M / copyBandwidth;

  it('takes time linear in N up to the crossover, with a slope of one copy time T = M / B', () => {
    const ns = Array.from({ length: BASIC_CROSSOVER - 1 }, (_, i) => i + 2);
    const t = ns.map((n) => timeOf(n));
    // Least-squares line through (N, t).
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const mx = mean(ns);
    const my = mean(t);
    const slope = ns.reduce((s, n, i) => s + (n - mx) * (t[i] - my), 0) / ns.reduce((s, n) => s + (n - mx) ** 2, 0);
    expect(slope).toBeGreaterThan(0.9 * T);
    expect(slope).toBeLessThan(1.1 * T);
    ns.forEach((n, i) => expect(Math.abs(t[i] - (my + slope * (n - mx)))).toBeLessThan(0.05 * t[i]));
    // And the hand-computed total: N copy times plus small per-message costs.
    ns.forEach((n, i) => expect(t[i] / (n * T)).toBeGreaterThan(0.95));
    ns.forEach((n, i) => expect(t[i] / (n * T)).toBeLessThan(1.15));
  });

  it('numbers the hypercube as Open MPI does (opal_cube_dim, opal_hibit)', () => {
    expect([1, 2, 3, 4, 5, 8, 9, 48].map(cubeDim)).toEqual([0, 1, 2, 2, 3, 3, 4, 6]);
    expect(highestBit(0, 6)).toBe(-1);
    expect(highestBit(5, 6)).toBe(2);
    expect(highestBit(44, 6)).toBe(5);
    // A rank's parent clears its highest bit: in 6 ranks, 3 and 5 hang below 1, 1, 2 and 4 below 0.
    const parent = (v: number) => v & ~(1 << highestBit(v, cubeDim(6)));
    expect([1, 2, 3, 4, 5].map(parent)).toEqual([0, 0, 1, 0, 1]);
  });

  it('above the crossover, adds one tree level (a copy-in and a copy-out) per doubling of N', () => {
    const [t8, t16, t32] = [8, 16, 32].map((n) => timeOf(n));
    for (const step of [t16 - t8, t32 - t16]) {
      expect(step).toBeGreaterThan(1.8 * T);
      expect(step).toBeLessThan(2.4 * T);
    }
    expect(t32).toBeLessThan((32 * T) / 2);
  });

  it('reduces along the same hypercube above the crossover: each doubling of N adds one level', () => {
    const reduce = (n: number) => timeOf(n, 'reduce:basic');
    const [t4, t8, t16, t32] = [4, 8, 16, 32].map(reduce);
    // A level moves one term in (a copy-in and a copy-out) and folds it in; the same for each level,
    // where the linear reduce adds as much for every rank.
    const level = t16 - t8;
    expect(Math.abs(t32 - t16 - level)).toBeLessThan(0.1 * level);
    expect(t32).toBeLessThan(t4 + (32 - 4) * ((t4 - reduce(2)) / 2));
  });

  // Intermediate memory, measured from the node: every buffer that no rank owns (owner -1) is a
  // shared bounce buffer of the point-to-point transport. We record each such allocation, and the
  // bytes copied into such buffers, by wrapping Node.allocate and Node.copy for the run.
  function bounce(n: number, m: number) {
    const proto = Node.prototype as unknown as {
      allocate: Node['allocate'];
      copy: (core: number, src: Range, dst: Range, info: unknown) => Generator;
    };
    const { allocate, copy } = proto;
    let allocated = 0;
    let staged = 0;
    proto.allocate = function (this: Node, name: string, bytes: number, owner: number, home?: number) {
      if (owner === -1) allocated += bytes;
      return allocate.call(this, name, bytes, owner, home);
    };
    proto.copy = function (this: Node, core: number, src: Range, dst: Range, info: unknown) {
      if (dst.buf.owner === -1) staged += dst.bytes;
      return copy.call(this, core, src, dst, info as never);
    };
    try {
      runAlgorithm({
        machine: ample,
        cores: cores(n),
        algorithm: 'bcast:basic',
        call: { bytes: m, root: 0, params: {} },
        // Warm caches: one call and nothing before it (a cold-cache run warms up first).
        cache: 'on',
        iterations: 1,
        warmup: 0,
        seed: 's',
      });
    } finally {
      proto.allocate = allocate;
      proto.copy = copy;
    }
    return { allocated, staged };
  }

  it('stages N-1 copies of the message through shared bounce buffers: O(N M)', () => {
    for (const n of [2, 4, 8, 16]) {
      for (const m of [1000, 8 * 1024, 40 * 1024]) {
        const b = bounce(n, m);
        // Every receiver's copy passes through shared memory once (a transport may add headers).
        expect(b.staged).toBeGreaterThanOrEqual((n - 1) * m);
        expect(b.staged).toBeLessThan((n - 1) * (m + 1024));
      }
    }
    // Bounce buffers belong to root-receiver pairs: the memory held grows with N.
    const held = [2, 4, 8, 16].map((n) => bounce(n, 8 * 1024).allocated);
    for (let k = 1; k < held.length; k++) expect(held[k]).toBeGreaterThan(held[k - 1]);
    expect(held[3]).toBeGreaterThanOrEqual(7 * held[0]);
  });
});
