// The tuned family: every algorithm delivers exactly what MPI requires on random machines,
// communicators, placements, roots and sizes; the trees have the shapes coll_base builds; binomial
// bcast takes ceil(log2 N) rounds; `<op>:tuned` picks what Open MPI's fixed rules pick.
import { describe, expect, it } from 'vitest';
import { tinyMachine } from '../helpers/machines.ts';
import { loadPreset } from '../../hardware/presets.ts';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import type { AlgorithmInfo, ParamValue } from '../../algorithms/algorithm.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import type { ArgsOf, OperationName } from '../../algorithms/operations.ts';
import type { OperationSemantics } from '../../algorithms/semantics.ts';
import * as rules from '../../algorithms/collectives/tuned/decision.ts';
import { v41Decision, v41Number, type V41Operation } from '../../algorithms/collectives/tuned/decision-v41.ts';
import {
  binomialTree,
  chainTree,
  inOrderBinomialTree,
  inOrderSubtreeSize,
  kAryTree,
  knomialTree,
  type Tree,
} from '../../algorithms/collectives/tuned/trees.ts';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { SimRank } from '../../sim/kernel/rank.ts';
import type { PointToPoint, Range } from '../../sim/node/rank-api.ts';

const TUNED = [
  'bcast:binomial',
  'bcast:split-binary',
  'bcast:pipeline',
  'bcast:linear',
  'bcast:binary',
  'bcast:knomial',
  'bcast:tuned',
  'reduce:binomial',
  'reduce:pipeline',
  'reduce:binary',
  'reduce:linear',
  'reduce:tuned',
  'allreduce:recursive-doubling',
  'allreduce:ring',
  'allreduce:nonoverlapping',
  'allreduce:tuned',
  'allgather:ring',
  'allgather:recursive-doubling',
  'allgather:bruck',
  'allgather:neighbor-exchange',
  'allgather:two-procs',
  'allgather:tuned',
  'alltoall:pairwise',
  'alltoall:bruck',
  'alltoall:linear',
  'alltoall:two-procs',
  'alltoall:tuned',
  'scatter:binomial',
  'scatter:linear',
  'scatter:linear-nb',
  'scatter:tuned',
  'gather:binomial',
  'gather:linear',
  'gather:linear-sync',
  'gather:tuned',
  'barrier:recursive-doubling',
  'barrier:dissemination',
  'barrier:tuned',
];

// Their data-correctness properties run with every catalogued algorithm's (properties.*.test.ts),
// drawn as tuned/index.ts and each algorithm's definition say.
describe('tuned: the family', () => {
  it('catalogues every coll_base algorithm and a tuned one per operation', () => {
    const family = new Set(TUNED);
    for (const name of TUNED) expect(catalogue.findAlgorithm(name), name).toBeDefined();
    const tunedOps = catalogue
      .listAlgorithms()
      .filter((a) => a.name.endsWith(':tuned'))
      .map((a) => a.name);
    for (const name of tunedOps) expect(family.has(name), name).toBe(true);
  });
});

/** Every rank's view of a tree, checked for consistency: one root, parents and children agree, all reached. */
function wholeTree(n: number, root: number, build: (rank: number) => Tree): { views: Tree[]; depth: number[] } {
  const views = Array.from({ length: n }, (_, r) => build(r));
  expect(views[root].parent).toBe(-1);
  const depth = new Array<number>(n).fill(-1);
  depth[root] = 0;
  const queue = [root];
  while (queue.length > 0) {
    const r = queue.shift()!;
    for (const c of views[r].children) {
      expect(views[c].parent, `parent of ${c}`).toBe(r);
      expect(depth[c], `${c} reached twice`).toBe(-1);
      depth[c] = depth[r] + 1;
      queue.push(c);
    }
  }
  expect(depth.every((d) => d >= 0)).toBe(true);
  return { views, depth };
}

const log2ceil = (n: number) => Math.ceil(Math.log2(n));

describe('tuned: trees of coll_base_topo.c', () => {
  it('binomial tree: ceil(log2 N) rounds when each node sends to its children in order', () => {
    for (let n = 1; n <= 64; n++) {
      for (const root of [0, n - 1, Math.floor(n / 3)]) {
        const { views } = wholeTree(n, root, (r) => binomialTree(r, root, n));
        // A node that got the data in round t sends to its k-th child in round t + k + 1.
        const round = new Map<number, number>([[root, 0]]);
        const visit = (r: number) =>
          views[r].children.forEach((c, k) => {
            round.set(c, round.get(r)! + k + 1);
            visit(c);
          });
        visit(root);
        expect(Math.max(...round.values())).toBe(log2ceil(n));
        expect(views[root].children.length).toBe(log2ceil(n));
      }
    }
  });

  it('binomial tree for 8 ranks is the one drawn in coll_base_topo.c', () => {
    expect(binomialTree(0, 0, 8).children).toEqual([1, 2, 4]);
    expect(binomialTree(2, 0, 8)).toEqual({ parent: 0, children: [6] });
    expect(binomialTree(1, 0, 8)).toEqual({ parent: 0, children: [3, 5] });
    expect(binomialTree(3, 0, 8)).toEqual({ parent: 1, children: [7] });
  });

  it('in-order binomial subtrees are contiguous shifted-rank spans', () => {
    for (let n = 1; n <= 40; n++) {
      const root = n > 2 ? 2 : 0;
      const { views } = wholeTree(n, root, (r) => inOrderBinomialTree(r, root, n));
      const shifted = (r: number) => (r - root + n) % n;
      const members = (r: number): number[] => [shifted(r), ...views[r].children.flatMap(members)];
      for (let r = 0; r < n; r++) {
        const span = members(r).sort((a, b) => a - b);
        const v = shifted(r);
        expect(span).toEqual(Array.from({ length: inOrderSubtreeSize(v, n) }, (_, k) => v + k));
      }
    }
  });

  it('binary tree: odd shifted ranks on the left, even on the right; 7 ranks as drawn', () => {
    expect(kAryTree(2, 1, 0, 7).children).toEqual([3, 5]);
    expect(kAryTree(2, 2, 0, 7).children).toEqual([4, 6]);
    for (let n = 2; n <= 40; n++) {
      const root = n - 1;
      const { views } = wholeTree(n, root, (r) => kAryTree(2, r, root, n));
      const shifted = (r: number) => (r - root + n) % n;
      const below = (r: number): number[] => views[r].children.flatMap((c) => [c, ...below(c)]);
      views[root].children.forEach((side, i) => {
        for (const r of [side, ...below(side)])
          expect(shifted(r) % 2, `rank ${r} in subtree ${i}`).toBe(i === 0 ? 1 : 0);
      });
    }
  });

  it('k-nomial tree: at most ceil(log_k N) levels, radix-1 children per level, largest subtree first', () => {
    for (const radix of [2, 3, 4, 5]) {
      for (let n = 1; n <= 70; n++) {
        const root = n >> 1;
        const { views, depth } = wholeTree(n, root, (r) => knomialTree(radix, r, root, n));
        let levels = 0;
        for (let span = 1; span < n; span *= radix) levels++;
        // A rank's depth is the count of its non-zero base-radix digits (shifted): at most the levels.
        expect(Math.max(...depth), `radix ${radix}, ${n} ranks`).toBeLessThanOrEqual(levels);
        expect(views[root].children.length).toBeLessThanOrEqual((radix - 1) * levels);
      }
    }
    // A rank's parent clears its lowest non-zero base-radix digit (coll_base_topo_build_kmtree)...
    for (let v = 1; v < 100; v++) {
      let low = 1;
      while ((v / low) % 3 === 0) low *= 3;
      expect(knomialTree(3, v, 0, 100).parent).toBe(v - (v % (3 * low)));
    }
    // ... so with radix 4 and 16 ranks the root sends to 4, 8, 12, then 1, 2, 3.
    expect(knomialTree(4, 0, 0, 16).children).toEqual([4, 8, 12, 1, 2, 3]);
    expect(knomialTree(4, 6, 0, 16)).toEqual({ parent: 4, children: [] });
    expect(knomialTree(4, 8, 0, 16)).toEqual({ parent: 0, children: [9, 10, 11] });
    // A radix at or beyond the size is a flat tree, whatever its value (and as cheap to build).
    for (const radix of [16, 17, 1e12])
      expect(knomialTree(radix, 5, 5, 16).children).toEqual(Array.from({ length: 15 }, (_, i) => (6 + i) % 16));
  });

  it('chain: N-1 hops from the root', () => {
    for (let n = 1; n <= 20; n++) {
      const { depth } = wholeTree(n, n >> 1, (r) => chainTree(r, n >> 1, n));
      expect(Math.max(...depth)).toBe(n - 1);
    }
  });
});

/**
 * Runs `algorithm` once with every rank's point-to-point sends recorded, and checks the data.
 * Returns the sends as [from, to] pairs in the order they were posted.
 */
function recordSends(
  algorithm: string,
  n: number,
  bytes: number,
  root: number,
  params: Record<string, ParamValue> = {},
  kinds?: string[],
): Array<[number, number]> {
  const found = catalogue.findAlgorithm(algorithm);
  if (!found) throw new Error(`${algorithm} is not catalogued`);
  return found.open((info) =>
    recordTypedSends(info, catalogue.semanticsOf(info.operation), n, bytes, root, params, kinds ?? []),
  );
}

function recordTypedSends<Op extends OperationName>(
  info: AlgorithmInfo<Op>,
  semantics: OperationSemantics<ArgsOf<Op>>,
  n: number,
  bytes: number,
  root: number,
  params: Record<string, ParamValue>,
  kinds: string[],
): Array<[number, number]> {
  const sim = new Simulation({ seed: 'sends' });
  const node = new Node(sim, tinyMachine({ packages: 2, coresPerPackage: 32 }));
  const world = new World(
    node,
    Array.from({ length: n }, (_, i) => i),
  );
  const sends: Array<[number, number]> = [];
  const call = { bytes, root, params };
  const ranks = Array.from({ length: n }, (_, id) => {
    const rank = new SimRank(world, id, params);
    const p2p: PointToPoint = {
      send: (to: number, data: Range, tag?: number) => (
        sends.push([id, to]),
        kinds.push(`${id} send ${to}`),
        rank.p2p.send(to, data, tag)
      ),
      isend: (to: number, data: Range, tag?: number) => (
        sends.push([id, to]),
        kinds.push(`${id} isend ${to}`),
        rank.p2p.isend(to, data, tag)
      ),
      sendrecv: (to: number, data: Range, from: number, into: Range, tag?: number) => (
        sends.push([id, to]),
        kinds.push(`${id} sendrecv ${to} ${from}`),
        rank.p2p.sendrecv(to, data, from, into, tag)
      ),
      recv: (from: number, into: Range, tag?: number) => (
        kinds.push(`${id} recv ${from}`),
        rank.p2p.recv(from, into, tag)
      ),
      irecv: function* (from: number, into: Range, tag?: number) {
        kinds.push(`${id} irecv ${from}`);
        const wait = yield* rank.p2p.irecv(from, into, tag);
        return function* () {
          yield* wait();
          kinds.push(`${id} waited ${from}`);
        };
      },
    };
    const copy = (src: Range, dst: Range) => (kinds.push(`${id} copy`), rank.copy(src, dst));
    return new Proxy(rank, {
      get: (target, prop): unknown =>
        prop === 'p2p' ? p2p : prop === 'copy' ? copy : Reflect.get(target, prop, target),
    });
  });
  const args = ranks.map((rank) => semantics.setup(rank, call));
  ranks.forEach((rank, i) => semantics.fill(rank, args[i], call));
  ranks.forEach((rank, i) => sim.spawn(`rank ${i}`, info.program(rank, args[i])));
  sim.run();
  semantics.verify(args, call);
  return sends;
}

describe('tuned: structure counted by hand', () => {
  it('binomial bcast: N-1 messages, ceil(log2 N) of them from the root, ceil(log2 N) rounds', () => {
    for (const n of [2, 3, 5, 8, 13, 16, 33, 64]) {
      const root = Math.floor(n / 2);
      const sends = recordSends('bcast:binomial', n, 3000, root);
      expect(sends.length).toBe(n - 1);
      expect(sends.filter(([from]) => from === root).length).toBe(log2ceil(n));
      // The k-th message a rank sends (k from 1) goes out in round (the round it received in) + k.
      const round = new Map<number, number>([[root, 0]]);
      const sent = new Map<number, number>();
      for (const [from, to] of sends) {
        sent.set(from, (sent.get(from) ?? 0) + 1);
        expect(round.has(to), `rank ${to} received twice`).toBe(false);
        round.set(to, round.get(from)! + sent.get(from)!);
      }
      expect(round.size).toBe(n);
      expect(Math.max(...round.values())).toBe(log2ceil(n));
    }
  });

  it('segmented binomial bcast sends each of the S segments down every edge: S(N-1) messages', () => {
    const sends = recordSends('bcast:binomial', 12, 10 * 1024 + 1, 0, { segsize: 1024 });
    expect(sends.length).toBe(11 * 11);
  });

  it('pipeline bcast: each rank forwards every segment once to the next rank', () => {
    const sends = recordSends('bcast:pipeline', 6, 4096 * 3, 4, { segsize: 4096 });
    expect(sends).toEqual(
      expect.arrayContaining([
        [4, 5],
        [5, 0],
        [0, 1],
        [1, 2],
        [2, 3],
      ]),
    );
    expect(sends.length).toBe(3 * 5);
  });

  it('recursive doubling allreduce: log2 N exchanges per rank, plus 2 per folded pair', () => {
    expect(recordSends('allreduce:recursive-doubling', 8, 64, 0).length).toBe(8 * 3);
    // 6 ranks: 2 pairs fold (2 sends in, 2 back), 4 survivors x 2 exchanges.
    expect(recordSends('allreduce:recursive-doubling', 6, 64, 0).length).toBe(2 + 4 * 2 + 2);
  });

  it('Bruck allgather and dissemination barrier: ceil(log2 N) sends per rank', () => {
    expect(recordSends('allgather:bruck', 11, 10, 0).length).toBe(11 * log2ceil(11));
    expect(recordSends('barrier:dissemination', 11, 0, 0).length).toBe(11 * log2ceil(11));
  });

  it('ring allreduce: 2(N-1) sends per rank', () => {
    expect(recordSends('allreduce:ring', 7, 7000, 0).length).toBe(7 * 2 * 6);
  });

  it("binomial reduce sends each rank's result to its parent in the in-order binomial tree, not the broadcast's", () => {
    for (const [n, root] of [
      [8, 0],
      [13, 5],
    ]) {
      const sends = recordSends('reduce:binomial', n, 64, root);
      const expected = Array.from({ length: n }, (_, r) => r)
        .filter((r) => r !== root)
        .map((r) => [r, inOrderBinomialTree(r, root, n).parent]);
      expect([...sends].sort((a, b) => a[0] - b[0])).toEqual(expected);
      // The two trees differ, so the check tells them apart.
      expect(expected).not.toEqual(expected.map(([r]) => [r, binomialTree(r, root, n).parent]));
    }
  });

  it('split-binary bcast: inner nodes forward each segment with blocking sends, leaves receive each with a blocking receive', () => {
    const kinds: string[] = [];
    recordSends('bcast:split-binary', 7, 8 * 1024, 0, { segsize: 1024 }, kinds);
    const halvesDown = kinds.filter((k) => !k.includes('sendrecv'));
    // Rank 1 heads the left subtree (children 3 and 5), rank 3 is a leaf under it: the first half's
    // four segments reach it one blocking receive at a time, forwarded by blocking sends.
    expect(halvesDown.filter((k) => k.startsWith('1 ') && k.includes('send'))).toEqual(
      Array.from({ length: 4 }, () => ['1 send 3', '1 send 5']).flat(),
    );
    expect(halvesDown.filter((k) => k.startsWith('3 ') && !k.includes('waited'))).toEqual(
      Array.from({ length: 4 }, () => '3 recv 1'),
    );
    expect(halvesDown.some((k) => k.includes('isend'))).toBe(false);
  });

  it("generic reduce copies nothing: a segment's first child lands in the accumulator, the rank's own data is reduced in", () => {
    for (const [algorithm, params] of [
      ['reduce:binomial', { segsize: 1024 }],
      ['reduce:pipeline', { segsize: 1024 }],
      ['reduce:binary', { segsize: 4096 }],
    ] as const) {
      const kinds: string[] = [];
      recordSends(algorithm, 7, 4096, 2, params, kinds);
      expect(kinds.filter((k) => k.endsWith(' copy'))).toEqual([]);
    }
  });

  it('pairwise alltoall copies its own block last; binomial scatter copies its own before forwarding', () => {
    const kinds: string[] = [];
    recordSends('alltoall:pairwise', 5, 4096, 0, {}, kinds);
    for (let r = 0; r < 5; r++) expect(kinds.filter((k) => k.startsWith(`${r} `)).at(-1)).toBe(`${r} copy`);
    const scatter: string[] = [];
    recordSends('scatter:binomial', 8, 64, 0, {}, scatter);
    // Rank 4 heads a subtree of 4 (in-order binomial tree from 0): it receives, copies its own, forwards.
    expect(scatter.filter((k) => k.startsWith('4 ') && !k.includes('waited'))).toEqual([
      '4 recv 0',
      '4 copy',
      '4 send 6',
      '4 send 5',
    ]);
  });

  it('binomial gather and scatter tell leaves by parity: the childless last even rank of 7 copies through a temporary', () => {
    // In-order binomial tree of 7 from root 2: shifted rank 6 (rank 1) has no child (7 is beyond).
    expect(inOrderBinomialTree(1, 2, 7).children).toEqual([]);
    const gather: string[] = [];
    recordSends('gather:binomial', 7, 64, 2, {}, gather);
    expect(gather.filter((k) => k.startsWith('1 ') && !k.includes('waited'))).toEqual(['1 copy', '1 send 6']);
    const scatter: string[] = [];
    recordSends('scatter:binomial', 7, 64, 2, {}, scatter);
    expect(scatter.filter((k) => k.startsWith('1 ') && !k.includes('waited'))).toEqual(['1 recv 6', '1 copy']);
    // An odd shifted rank (rank 3, shifted 1) is a leaf: no copy either way.
    expect(gather.filter((k) => k.startsWith('3 ') && !k.includes('waited'))).toEqual(['3 send 2']);
    expect(scatter.filter((k) => k.startsWith('3 ') && !k.includes('waited'))).toEqual(['3 recv 2']);
  });

  it('linear-sync gather: the root posts the rest of a rank before waiting for its first segment', () => {
    const kinds: string[] = [];
    recordSends('gather:linear-sync', 3, 4096, 0, { segsize: 1024 }, kinds);
    expect(kinds.filter((k) => k.startsWith('0 '))).toEqual([
      '0 irecv 1',
      '0 send 1',
      '0 irecv 1',
      '0 waited 1',
      '0 irecv 2',
      '0 send 2',
      '0 irecv 2',
      '0 waited 2',
      '0 copy',
      '0 waited 1',
      '0 waited 2',
    ]);
  });
});

describe('tuned: the fixed decision rules (coll_tuned_decision_fixed.c, v4.0)', () => {
  const table: Array<[op: string, bytes: number, n: number, algorithm: string, params: Record<string, ParamValue>]> = [
    // bcast: binomial < 2 KB; split-binary 1 KB segments < 370728 B; pipelines beyond, segment growing with size.
    ['bcast', 1, 64, 'bcast:binomial', { segsize: 0 }],
    ['bcast', 2047, 16, 'bcast:binomial', { segsize: 0 }],
    ['bcast', 2048, 16, 'bcast:split-binary', { segsize: 1024 }],
    ['bcast', 370727, 64, 'bcast:split-binary', { segsize: 1024 }],
    ['bcast', 1 << 20, 2, 'bcast:pipeline', { segsize: 128 * 1024 }], // 2 < 1.6134e-6 * 2^20 + 2.1102 = 3.80
    ['bcast', 1 << 20, 8, 'bcast:split-binary', { segsize: 8192 }], // not < 3.80, but < 13
    ['bcast', 2 << 20, 14, 'bcast:pipeline', { segsize: 16 * 1024 }], // 14 >= 13, >= 6.14 (64K line), < 3.2118e-6 * 2 MiB + 8.7936 = 15.53
    ['bcast', 8 << 20, 16, 'bcast:pipeline', { segsize: 64 * 1024 }], // 16 >= 15.64 (128K line), < 2.3679e-6 * 8 MiB + 1.1787 = 21.04
    ['bcast', 1 << 20, 16, 'bcast:pipeline', { segsize: 8192 }], // above every line: 3.80, 3.66, 12.16
    ['bcast', 1 << 20, 64, 'bcast:pipeline', { segsize: 8192 }],
    // reduce
    ['reduce', 511, 7, 'reduce:linear', {}],
    ['reduce', 20479, 7, 'reduce:binomial', { segsize: 0 }],
    ['reduce', 2047, 64, 'reduce:binomial', { segsize: 0 }],
    ['reduce', 4096, 16, 'reduce:binomial', { segsize: 1024 }], // 16 > 0.6016/1024 * 4096 + 1.3496 = 3.76
    ['reduce', 65536, 16, 'reduce:pipeline', { segsize: 1024 }], // 16 <= 39.85 (binomial 1K line), > 0.0410/1024 * 65536 + 9.7128 = 12.34
    ['reduce', 65536, 8, 'reduce:binary', { segsize: 32 * 1024 }], // 8 <= 12.34, > 0.0422/1024 * 65536 + 1.1614 = 3.86
    ['reduce', 1 << 20, 64, 'reduce:pipeline', { segsize: 1024 }], // 64 <= 617.4, > 51.7
    ['reduce', 1 << 20, 16, 'reduce:pipeline', { segsize: 32 * 1024 }], // 16 <= 51.7 and 44.4, > 0.0033/1024 * 1 MiB + 1.6761 = 5.06
    ['reduce', 16 << 20, 16, 'reduce:pipeline', { segsize: 64 * 1024 }], // 16 <= 0.0033/1024 * 16 MiB + 1.6761 = 55.74
    // allreduce: recursive doubling below 10000 bytes, ring above.
    ['allreduce', 9999, 64, 'allreduce:recursive-doubling', {}],
    ['allreduce', 10000, 64, 'allreduce:ring', {}],
    ['allreduce', 64 << 20, 4, 'allreduce:ring', {}],
    // allgather: two processes -> two_procs; total < 50000: power of two -> recursive doubling, else
    // Bruck; above: odd -> ring, even -> neighbour exchange.
    ['allgather', 1000, 2, 'allgather:two-procs', {}],
    ['allgather', 1 << 20, 2, 'allgather:two-procs', {}],
    ['allgather', 1000, 16, 'allgather:recursive-doubling', {}],
    ['allgather', 1000, 12, 'allgather:bruck', {}],
    ['allgather', 5000, 12, 'allgather:neighbor-exchange', {}],
    ['allgather', 5000, 13, 'allgather:ring', {}],
    // alltoall: two processes -> two_procs; Bruck for tiny blocks on more than 12 ranks, linear below
    // 3000 B, pairwise above.
    ['alltoall', 100, 16, 'alltoall:bruck', {}],
    ['alltoall', 100, 12, 'alltoall:linear', {}],
    ['alltoall', 2999, 64, 'alltoall:linear', {}],
    ['alltoall', 3000, 64, 'alltoall:pairwise', {}],
    ['alltoall', 10, 2, 'alltoall:two-procs', {}],
    ['alltoall', 1 << 20, 2, 'alltoall:two-procs', {}],
    // gather / scatter
    ['gather', 100000, 8, 'gather:linear-sync', { segsize: 32768 }],
    ['gather', 6001, 8, 'gather:linear-sync', { segsize: 1024 }],
    ['gather', 1023, 11, 'gather:binomial', {}],
    ['gather', 4000, 61, 'gather:binomial', {}],
    ['gather', 4000, 16, 'gather:linear', {}],
    ['scatter', 299, 11, 'scatter:binomial', {}],
    ['scatter', 299, 10, 'scatter:linear', {}],
    ['scatter', 300, 64, 'scatter:linear', {}],
  ];
  const decide: Record<string, (bytes: number, n: number) => rules.Choice> = {
    bcast: rules.bcastDecision,
    reduce: rules.reduceDecision,
    allreduce: rules.allreduceDecision,
    allgather: rules.allgatherDecision,
    alltoall: rules.alltoallDecision,
    gather: rules.gatherDecision,
    scatter: rules.scatterDecision,
  };
  it.each(table)('%s of %i bytes on %i ranks -> %s %o', (op, bytes, n, algorithm, params) => {
    expect(decide[op](bytes, n)).toEqual({ algorithm, params });
  });

  it('barrier: recursive doubling on powers of two, dissemination otherwise', () => {
    expect(rules.barrierDecision(2).algorithm).toBe('barrier:recursive-doubling');
    expect(rules.barrierDecision(32).algorithm).toBe('barrier:recursive-doubling');
    expect(rules.barrierDecision(24).algorithm).toBe('barrier:dissemination');
  });

  it('the rules depend on sizes only: the same choice whatever the placement', () => {
    const machine = loadPreset('dunnington');
    const run = (algorithm: string, cores: number[], params: Record<string, ParamValue> = {}) =>
      runAlgorithm({
        machine,
        cores,
        algorithm,
        call: { bytes: 4096, root: 1, params },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 's',
      }).times[0];
    const spread = Array.from({ length: 16 }, (_, i) => i * 6); // one rank per socket
    const packed = Array.from({ length: 16 }, (_, i) => i); // three sockets
    // bcast:tuned runs exactly what the rule picked (same simulated time to the last bit) on both placements.
    for (const cores of [spread, packed]) {
      expect(run('bcast:tuned', cores)).toBe(run('bcast:split-binary', cores, { segsize: 1024 }));
      expect(run('allgather:tuned', cores)).toBe(run('allgather:neighbor-exchange', cores));
    }
  });
});

describe("tuned: Open MPI 4.1's fixed rules (coll_tuned_decision_fixed.c at v4.1.4)", () => {
  // Cells read off the source's tables, at and either side of their bounds.
  const cells: Array<[op: V41Operation, bytes: number, n: number, alg: number]> = [
    ['bcast', 31, 2, 3],
    ['bcast', 32, 3, 5],
    ['bcast', 32767, 2, 1],
    ['bcast', 32768, 2, 5],
    ['bcast', 1 << 20, 2, 5],
    ['bcast', 8191, 7, 6],
    ['bcast', 1 << 20, 7, 2],
    ['bcast', 2048, 48, 7],
    ['bcast', 2047, 48, 6],
    ['bcast', 16384, 300, 4],
    ['bcast', 1 << 20, 20, 8],
    ['bcast', 100, 5000, 7],
    ['alltoall', 4095, 2, 5],
    ['alltoall', 32768, 2, 4],
    ['alltoall', 1 << 20, 2, 2],
    ['alltoall', 100, 40, 3],
    ['alltoall', 1 << 20, 100, 2],
    ['allgather', 1 << 20, 2, 6],
    ['allgather', 1 << 20, 31, 3],
    ['allgather', 1000, 40, 3],
    ['allgather', 1024, 40, 5],
    ['allgather', 65536, 40, 4],
    ['gather', 2048, 2, 2],
    ['gather', 40000, 3, 1],
    ['gather', 1 << 20, 3, 3],
    ['gather', 4096, 100, 2],
    ['scatter', 1, 2, 3],
    ['scatter', 2048, 2, 1],
    ['scatter', 200000, 3, 3],
    ['scatter', 1 << 20, 100, 3],
  ];
  it.each(cells)('%s of %i bytes on %i ranks -> algorithm %i', (op, bytes, n, alg) => {
    expect(v41Number(op, bytes, n)).toBe(alg);
  });

  it('maps the numbers to these algorithms, unsegmented, and names what it does not model', () => {
    expect(v41Decision('bcast', 32768, 2)).toEqual({ algorithm: 'bcast:binary', params: { segsize: 0 } });
    expect(v41Decision('bcast', 2048, 48)).toEqual({ algorithm: 'bcast:knomial', params: { segsize: 0, radix: 4 } });
    expect(v41Decision('bcast', 1 << 20, 7)).toEqual({ algorithm: 'bcast:pipeline', params: { segsize: 1 << 20 } });
    expect(v41Decision('alltoall', 32768, 2)).toEqual({ algorithm: 'alltoall:linear', params: {} });
    expect(v41Decision('alltoall', 1000, 2)).toEqual({ algorithm: 'alltoall:two-procs', params: {} });
    expect(v41Decision('gather', 1 << 20, 3)).toEqual({
      algorithm: 'gather:linear-sync',
      params: { segsize: 1 << 20 },
    });
    expect(() => v41Decision('bcast', 1 << 20, 20)).toThrow(
      /Open MPI 4.1 runs scatter_allgather, which this library does not model/,
    );
  });

  it("bcast:tuned with rules v4.1 runs what the table picks: on 2 ranks, 32 KiB goes whole, not in v4.0's 1 KiB segments", () => {
    const machine = loadPreset('dunnington');
    const run = (algorithm: string, params: Record<string, ParamValue>) =>
      runAlgorithm({
        machine,
        cores: [0, 6],
        algorithm,
        call: { bytes: 32768, root: 0, params },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 's',
      }).times[0];
    const v41 = run('bcast:tuned', { rules: 'v4.1' });
    expect(v41).toBe(run('bcast:binary', { segsize: 0 }));
    expect(run('bcast:tuned', {})).toBe(run('bcast:split-binary', { segsize: 1024 }));
    expect(v41).not.toBe(run('bcast:tuned', {}));
  });

  it('a two-process algorithm on another communicator size is refused, naming it', () => {
    expect(() =>
      runAlgorithm({
        machine: loadPreset('dunnington'),
        cores: [0, 1, 2],
        algorithm: 'alltoall:two-procs',
        call: { bytes: 64, root: 0, params: {} },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 's',
      }),
    ).toThrow('alltoall:two-procs is defined for 2 ranks only, not 3');
  });
});

describe('tuned: bad input', () => {
  const machine = tinyMachine({ packages: 2, coresPerPackage: 2 });
  const run = (algorithm: string, params: Record<string, ParamValue>) =>
    runAlgorithm({
      machine,
      cores: [0, 1, 2, 3],
      algorithm,
      call: { bytes: 100, root: 0, params },
      cache: 'off',
      iterations: 1,
      warmup: 0,
      seed: 's',
    });
  it('a segment size of 0 where segments are required names the parameter', () => {
    expect(() => run('bcast:pipeline', { segsize: 0 })).toThrow(
      /bcast:pipeline: params\.segsize must be an integer >= 1, got 0/,
    );
    expect(() => run('reduce:binary', { segsize: -5 })).toThrow(/params\.segsize/);
    expect(() => run('gather:linear-sync', { segsize: 1.5 })).toThrow(/params\.segsize/);
  });
  it('a root outside the communicator is refused before the run', () => {
    expect(() =>
      runAlgorithm({
        machine,
        cores: [0, 1],
        algorithm: 'bcast:tuned',
        call: { bytes: 8, root: 2, params: {} },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 's',
      }),
    ).toThrow(/root 2 is outside/);
  });
});
