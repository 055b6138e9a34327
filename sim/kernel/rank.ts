// The concrete rank context handed to event programs: the node-level services (copy, reduce,
// control messages) plus every transport and kernel mechanism, bound to one rank.
import type { Program } from '../engine/program.ts';
import type { Buffer, Range } from '../node/buffer.ts';
import type {
  Cma,
  Knem,
  Limic,
  PassAccess,
  PointToPoint,
  Rank,
  RankTopology,
  ReduceOp,
  Xpmem,
} from '../node/rank-api.ts';
import { ControlChannel } from '../node/control.ts';
import type { World } from '../node/world.ts';
import type { RunState } from '../node/run-state.ts';
import { mechanismsFor } from './mechanisms.ts';

export class SimRank implements Rank {
  readonly id: number;
  readonly world: World;
  readonly core: number;
  readonly control: ControlChannel;
  readonly p2p: PointToPoint;
  readonly knem: Knem;
  readonly cma: Cma;
  readonly xpmem: Xpmem;
  readonly limic: Limic;
  readonly topology: RankTopology;

  constructor(world: World, id: number, options: Record<string, unknown> = {}) {
    this.world = world;
    this.id = id;
    this.core = world.cores[id];
    this.control = new ControlChannel(world, id);
    this.topology = worldTopology(world);
    const m = mechanismsFor(world, id, options);
    this.p2p = m.p2p;
    this.knem = m.knem;
    this.cma = m.cma;
    this.xpmem = m.xpmem;
    this.limic = m.limic;
  }

  get size(): number {
    return this.world.size;
  }

  get mechanisms() {
    return this.world.node.spec.kernel.mechanisms;
  }

  now(): number {
    return this.world.sim.now;
  }

  sleep(ns: number): Program<void> {
    return this.world.sim.sleep(ns);
  }

  alloc(name: string, bytes: number, opts: { numa?: number } = {}): Buffer {
    const home = opts.numa ?? this.world.node.topo.core(this.core).numa;
    return this.world.node.allocate(`r${this.id}.${name}`, bytes, this.id, home);
  }

  copy(src: Range, dst: Range, label = 'memcpy'): Program<void> {
    return this.world.node.copy(this.core, src, dst, { rank: this.id, label });
  }

  reduce(op: ReduceOp, src: Range, dst: Range): Program<void> {
    return this.world.node.reduce(this.core, op, src, dst, { rank: this.id, label: `reduce ${op}` });
  }

  pass(r: Range, access: PassAccess): Program<void> {
    return this.world.node.pass(this.core, r, access, { rank: this.id, label: `${access} ${r.buf.name}` });
  }

  mark(kind: string, label: string): void {
    const now = this.world.sim.now;
    this.world.node.trace.record({ rank: this.id, kind, label, start: now, end: now, bytes: 0 });
  }

  runState<T>(key: RunState<T>): T {
    return this.world.stateOf(key);
  }
}

function worldTopology(world: World): RankTopology {
  const topo = world.node.topo;
  const core = (r: number) => topo.core(world.cores[r]);
  return {
    numaOf: (r) => core(r).numa,
    packageOf: (r) => core(r).package,
    coreOf: (r) => world.cores[r],
    shareCache: (a, b) => topo.sharedCache(world.cores[a], world.cores[b]) !== undefined,
    hops: (a, b) => topo.route(topo.coreVertex(world.cores[a]), topo.coreVertex(world.cores[b])).length,
  };
}
