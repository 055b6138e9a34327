// The KNEM collectives (Ma et al. 2010, seed 000): data correctness of every algorithm on random
// machines, placements, roots, sizes and layouts; and the structure the paper claims for them:
// Table I's O(T) linear rooted operations against the O(NT) basic linear ones, one copy of the
// message per NUMA node across the inter-socket links for the hierarchical broadcast, 8N bytes of
// cookies as the only intermediate memory of alltoall, the round-robin read order of alltoall, and
// leaves that copy segment k while their leader still pulls later segments.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propRuns } from '../helpers/prop-runs.ts';
import { tinyMachine } from '../helpers/machines.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import type { AlgorithmProgram, ParamValue } from '../../algorithms/algorithm.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import type { OperationName } from '../../algorithms/operations.ts';
import type { OperationCall } from '../../algorithms/semantics.ts';
import type { BcastArgs, GatherArgs, ScatterArgs } from '../../algorithms/collectives/args.ts';
import { numaTree } from '../../algorithms/collectives/knem/numa-tree.ts';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { SimRank } from '../../sim/kernel/rank.ts';
import { range } from '../../sim/node/buffer.ts';
import type { Buffer, Knem, KnemCookie, Program, Rank, RankTopology } from '../../sim/node/rank-api.ts';

const LINEAR = [
  'bcast:knem-linear',
  'scatter:knem-linear',
  'scatterv:knem-linear',
  'gather:knem-linear',
  'gatherv:knem-linear',
  'alltoall:knem-linear',
  'alltoallv:knem-linear',
  'allgather:knem-linear',
  'allgatherv:knem-linear',
];
const HIERARCHICAL = ['bcast:knem-hierarchical', 'allgather:knem-hierarchical'];

const small = tinyMachine({ packages: 2, coresPerPackage: 2 });
const mesh = tinyMachine({ packages: 4, coresPerPackage: 4 });

// ---------------------------------------------------------------------------------------------
// A run built by hand, for what runAlgorithm does not hand back: the node's link counters, each
// rank's allocations, the order of its KNEM calls.

/** A rank that counts the bytes its program allocates and logs its KNEM calls. */
class ObservedRank extends SimRank {
  allocated = 0;
  counting = false;
  readonly calls: Array<{ what: 'create' | 'read' | 'write'; cookie: KnemCookie; at: number; end?: number }> = [];

  override alloc(name: string, bytes: number, opts?: { numa?: number }): Buffer {
    if (this.counting) this.allocated += bytes;
    return super.alloc(name, bytes, opts);
  }
}

function observe(rank: ObservedRank): void {
  const inner: Knem = rank.knem;
  const calls = rank.calls;
  const knem: Knem = {
    *createRegion(segments, opts) {
      const cookie = yield* inner.createRegion(segments, opts);
      calls.push({ what: 'create', cookie, at: rank.now() });
      return cookie;
    },
    destroyRegion: (cookie) => inner.destroyRegion(cookie),
    *inlineCopy(args) {
      const entry: (typeof calls)[number] = { what: args.direction, cookie: args.cookie, at: rank.now() };
      calls.push(entry);
      const handle = yield* inner.inlineCopy(args);
      yield* handle.wait();
      entry.end = rank.now();
      return handle;
    },
    regionCopy: (args) => inner.regionCopy(args),
  };
  Object.defineProperty(rank, 'knem', { value: knem });
}

interface HandRun {
  node: Node;
  ranks: ObservedRank[];
  time: number;
}

/** One iteration of `program` on `cores`, buffers set up, filled and verified by the operation's semantics. */
function handRun<Op extends OperationName>(
  machine: MachineSpec,
  cores: number[],
  operation: Op,
  program: AlgorithmProgram<Op>,
  call: OperationCall,
): HandRun {
  const sim = new Simulation({ seed: 'knem' });
  const node = new Node(sim, machine);
  const world = new World(node, cores);
  const ranks = cores.map((_, id) => new ObservedRank(world, id, call.params));
  ranks.forEach(observe);
  const semantics = catalogue.semanticsOf(operation);
  const args = ranks.map((rank) => semantics.setup(rank, call));
  ranks.forEach((rank, i) => semantics.fill(rank, args[i], call));
  for (const rank of ranks) rank.counting = true;
  const procs = ranks.map((rank, i) => sim.spawn(`rank ${i}`, program(rank, args[i])));
  sim.run();
  for (const p of procs) if (!p.done) throw new Error(`${p.name} did not finish`);
  semantics.verify(args, call);
  return { node, ranks, time: sim.now };
}

function programOf<Op extends OperationName>(operation: Op, name: string): AlgorithmProgram<Op> {
  const info = catalogue.typedAlgorithms(operation).find((a) => a.name === name);
  if (!info) throw new Error(`${name} is not catalogued`);
  return info.program;
}

/** The creator of every cookie of a run. */
function creators(run: HandRun): Map<KnemCookie, number> {
  const owner = new Map<KnemCookie, number>();
  run.ranks.forEach((r) => r.calls.filter((c) => c.what === 'create').forEach((c) => owner.set(c.cookie, r.id)));
  return owner;
}

// ---------------------------------------------------------------------------------------------
// Open MPI's basic linear algorithms (coll_basic_bcast_lin, _scatter, _gather): the root sends or
// receives every block itself over point-to-point, so its copies serialise. The reference for
// Table I's O(NT) column.

function* basicBcast(rank: Rank, { buffer, root }: BcastArgs): Program<void> {
  if (rank.id !== root) return yield* rank.p2p.recv(root, buffer);
  for (let r = 0; r < rank.size; r++) if (r !== root) yield* rank.p2p.send(r, buffer);
}

function* basicScatter(rank: Rank, { send, recv, bytes, root }: ScatterArgs): Program<void> {
  if (rank.id !== root) return yield* rank.p2p.recv(root, recv);
  for (let r = 0; r < rank.size; r++) {
    const block = range(send!.buf, r * bytes, bytes);
    if (r === root) yield* rank.copy(block, recv);
    else yield* rank.p2p.send(r, block);
  }
}

function* basicGather(rank: Rank, { send, recv, bytes, root }: GatherArgs): Program<void> {
  if (rank.id !== root) return yield* rank.p2p.send(root, send);
  for (let r = 0; r < rank.size; r++) {
    const block = range(recv!.buf, r * bytes, bytes);
    if (r === root) yield* rank.copy(send, block);
    else yield* rank.p2p.recv(r, block);
  }
}

// ---------------------------------------------------------------------------------------------

// Every KNEM algorithm's data-correctness property runs with every catalogued algorithm's
// (properties.*.test.ts), drawn as knem/index.ts and knem/params.ts say.

describe('linear KNEM rooted operations are O(T), basic linear ones O(NT) (Table I)', () => {
  // Every rank on its own NUMA node; memory and links far faster than a core's copy engine, so the
  // root's memory can feed every reader at once and only the copies' parallelism shows.
  // Huge pages: pinning the root's N-block buffer costs O(NM) per page, a cost Table I leaves out
  // (T is the time of one copy); with 2 MiB pages it is a few pages, whatever N.
  const base = tinyMachine({
    packages: 8,
    coresPerPackage: 1,
    memoryBandwidth: 1000,
    linkBandwidth: 1000,
    l3Bandwidth: 1000,
  });
  const fat: MachineSpec = { ...base, kernel: { ...base.kernel, pageBytes: 2 << 20 } };
  const bytes = 1 << 20;
  const call: OperationCall = { bytes, root: 0, params: {} };
  const ratio = <Op extends OperationName>(operation: Op, program: AlgorithmProgram<Op>) => {
    const two = handRun(fat, [0, 1], operation, program, call).time;
    const eight = handRun(fat, [0, 1, 2, 3, 4, 5, 6, 7], operation, program, call).time;
    return eight / two;
  };

  it('bcast, scatter and gather over KNEM take about as long on 8 ranks as on 2', () => {
    expect(ratio('bcast', programOf('bcast', 'bcast:knem-linear'))).toBeLessThan(1.5);
    expect(ratio('scatter', programOf('scatter', 'scatter:knem-linear'))).toBeLessThan(1.5);
    expect(ratio('gather', programOf('gather', 'gather:knem-linear'))).toBeLessThan(1.5);
  });

  it('the basic linear ones grow with the number of ranks', () => {
    expect(ratio('bcast', basicBcast)).toBeGreaterThan(3);
    expect(ratio('scatter', basicScatter)).toBeGreaterThan(3);
    expect(ratio('gather', basicGather)).toBeGreaterThan(3);
  });
});

describe('hierarchical KNEM broadcast', () => {
  // Full meshes, so every transfer between two NUMA nodes crosses exactly one link and the bytes a
  // NUMA node takes in over its links are the copies sent to it (IG's two-board routes relay). No
  // socket-level cache, so every read of the root's buffer comes from the root's memory: the node
  // model would otherwise serve a clean line a peer socket has just read from that socket's cache,
  // and which link a byte crossed would depend on timing, not on the algorithm.
  const meshes = {
    mesh4x4: tinyMachine({ packages: 4, coresPerPackage: 4, l3Bytes: 0 }),
    mesh8x6: tinyMachine({ packages: 8, coresPerPackage: 6, l3Bytes: 0 }),
  };

  /** Bytes every NUMA node (one per package on these machines) took in over its links. */
  const inbound = (run: HandRun, machine: MachineSpec) => {
    const into = new Map<number, number>(machine.numaNodes.map((n) => [n.id, 0]));
    for (const link of machine.links) {
      for (const [from, to] of [
        [link.a, link.b],
        [link.b, link.a],
      ]) {
        const numa = machine.numaNodes.find((n) => n.attach === to)!.id;
        into.set(numa, into.get(numa)! + run.node.net.resource(`${link.name} ${from}->${to}`)!.bytesCarried);
      }
    }
    return into;
  };
  const total = (m: Map<number, number>) => [...m.values()].reduce((x, y) => x + y, 0);

  it("sends exactly one copy of the message into every NUMA node but the root's, wherever the ranks sit", () => {
    const cases = fc.constantFrom<keyof typeof meshes>('mesh4x4', 'mesh8x6').chain((m) => {
      const ids = meshes[m].cores.map((c) => c.id);
      return fc.record({
        machine: fc.constant(m),
        cores: fc.shuffledSubarray(ids, { minLength: 2, maxLength: ids.length }),
        rootDraw: fc.nat(),
        segment: fc.constantFrom(4096, 16384, 65536),
      });
    });
    fc.assert(
      fc.property(cases, ({ machine: m, cores, rootDraw, segment }) => {
        const machine = meshes[m];
        const root = rootDraw % cores.length;
        const bytes = 64 * 1024;
        const run = handRun(machine, cores, 'bcast', programOf('bcast', 'bcast:knem-hierarchical'), {
          bytes,
          root,
          params: { segment },
        });
        const numaOf = (core: number) => run.node.topo.core(core).numa;
        for (const [numa, got] of inbound(run, machine)) {
          const holdsRanks = cores.some((c) => numaOf(c) === numa);
          expect(got, `NUMA node ${numa}`).toBeCloseTo(holdsRanks && numa !== numaOf(cores[root]) ? bytes : 0, 3);
        }
      }),
      { numRuns: propRuns(12) },
    );
  });

  it('the linear broadcast instead sends one copy per reader across the links', () => {
    const cores = [0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]; // root alone on package 0, four readers on each other
    const call: OperationCall = { bytes: 64 * 1024, root: 0, params: {} };
    const machine = meshes.mesh4x4;
    const hier = inbound(
      handRun(machine, cores, 'bcast', programOf('bcast', 'bcast:knem-hierarchical'), call),
      machine,
    );
    const linear = inbound(handRun(machine, cores, 'bcast', programOf('bcast', 'bcast:knem-linear'), call), machine);
    expect(total(hier)).toBeCloseTo(3 * call.bytes, 3);
    expect(total(linear)).toBeCloseTo(12 * call.bytes, 3);
  });

  it("leaves copy segment k while their leader still pulls later segments; root's set reads the root", () => {
    // mesh: 4 packages of 4 cores. Root rank 0 on package 0 with one leaf; package 2 holds a leader and two leaves.
    const cores = [0, 1, 8, 9, 10];
    const segment = 16 * 1024;
    const run = handRun(mesh, cores, 'bcast', programOf('bcast', 'bcast:knem-hierarchical'), {
      bytes: 8 * segment,
      root: 0,
      params: { segment },
    });
    const owner = creators(run);
    const reads = (r: number) => run.ranks[r].calls.filter((c) => c.what === 'read');
    // Rank 1 (root's set): one read of the whole message from the root's region.
    expect(reads(1).map((c) => owner.get(c.cookie))).toEqual([0]);
    // Rank 2 leads package 2: eight segment reads from the root.
    expect(reads(2).map((c) => owner.get(c.cookie))).toEqual(Array(8).fill(0));
    for (const leaf of [3, 4]) {
      expect(reads(leaf).map((c) => owner.get(c.cookie))).toEqual(Array(8).fill(2));
      // Pipelined: the leaf's first segment is done before its leader has finished pulling the last.
      expect(reads(leaf)[0].end!).toBeLessThan(reads(2)[7].at);
    }
  });

  it('builds its tree from NUMA nodes, not from rank order', () => {
    const numa = [1, 0, 1, 0, 2, 2, 0];
    const topology = { numaOf: (r: number) => numa[r] } as RankTopology;
    const tree = numaTree(topology, numa.length, 1);
    expect(tree.leaders).toEqual([0, 4]);
    expect(tree.children(1)).toEqual([0, 4, 3, 6]);
    expect(tree.children(0)).toEqual([2]);
    expect(tree.children(4)).toEqual([5]);
    expect([0, 2, 3, 4, 5, 6].map((r) => tree.parent(r))).toEqual([1, 0, 1, 1, 4, 1]);
    expect(tree.parent(1)).toBeUndefined();
  });
});

describe('linear KNEM alltoall (§IV.C, Figure 2)', () => {
  it('allocates 8N bytes of cookies per rank and nothing else; the rooted operations allocate nothing', () => {
    for (const n of [2, 5, 16]) {
      const cores = Array.from({ length: n }, (_, i) => i);
      const call: OperationCall = { bytes: 3000, root: n - 1, params: {} };
      const alltoall = handRun(mesh, cores, 'alltoall', programOf('alltoall', 'alltoall:knem-linear'), call);
      expect(alltoall.ranks.map((r) => r.allocated)).toEqual(Array(n).fill(8 * n));
      for (const op of ['bcast', 'scatter', 'gather', 'allgather'] as const) {
        const run = handRun(mesh, cores, op, programOf(op, `${op}:knem-linear`), call);
        expect(
          run.ranks.map((r) => r.allocated),
          op,
        ).toEqual(Array(n).fill(0));
      }
    }
  });

  it('reads round-robin: rank r pulls from r+1, r+2, ... after its local copy', () => {
    const n = 6;
    const run = handRun(mesh, [5, 0, 12, 3, 9, 6], 'alltoall', programOf('alltoall', 'alltoall:knem-linear'), {
      bytes: 1000,
      root: 0,
      params: {},
    });
    const owner = creators(run);
    run.ranks.forEach((rank, r) => {
      const from = rank.calls.filter((c) => c.what === 'read').map((c) => owner.get(c.cookie));
      expect(from).toEqual(Array.from({ length: n - 1 }, (_, k) => (r + k + 1) % n));
    });
  });
});

describe('KNEM collectives: bad input and missing KNEM', () => {
  const run = (algorithm: string, params: Record<string, ParamValue>, machine: MachineSpec = small) =>
    runAlgorithm({
      machine,
      cores: [0, 1, 2, 3],
      algorithm,
      call: { bytes: 5000, root: 0, params },
      cache: 'off',
      iterations: 1,
      warmup: 0,
      seed: 's',
    });

  it('rejects a segment size of 0 or one that is not a whole number of bytes, naming the field', () => {
    for (const name of HIERARCHICAL) {
      expect(() => run(name, { segment: 0 })).toThrow(/params\.segment/);
      expect(() => run(name, { segment: 1.5 })).toThrow(/params\.segment/);
      expect(() => run(name, { segment: 'big' })).toThrow(/params\.segment/);
    }
  });

  it('registers the segment parameter with its default and minimum, and no parameter on the linear ones', () => {
    for (const name of HIERARCHICAL) {
      expect(catalogue.findAlgorithm(name)!.params).toEqual([
        expect.objectContaining({ name: 'segment', kind: 'bytes', default: 256 * 1024, min: 1 }),
      ]);
    }
    for (const name of LINEAR) expect(catalogue.findAlgorithm(name)!.params).toEqual([]);
  });

  it("fails with the driver's ENODEV on a kernel without KNEM", () => {
    const noKnem: MachineSpec = {
      ...small,
      kernel: { ...small.kernel, mechanisms: { ...small.kernel.mechanisms, knem: false } },
    };
    for (const name of [...LINEAR, ...HIERARCHICAL]) expect(() => run(name, {}, noKnem), name).toThrow(/knem: ENODEV/);
  });
});
