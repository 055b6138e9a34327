// Small out-of-band messages over shared memory (cookies, "segment ready", "done"). Their cost is
// the library's bookkeeping on each side plus cache-line transfers between the two cores: that is
// what makes a control message cheap between cores sharing a cache and dearer across sockets.
import type { Program } from '../engine/program.ts';
import type { Control } from './rank-api.ts';
import type { World } from './world.ts';
import { softwareCosts } from '../kernel/software-costs.ts';

export class ControlChannel implements Control {
  private readonly world: World;
  private readonly me: number;

  constructor(world: World, me: number) {
    this.world = world;
    this.me = me;
  }

  *send(to: number, value: unknown): Program<void> {
    const { node, cores } = this.world;
    const line = node.topo.lineLatency(cores[this.me], cores[to]);
    const start = node.sim.now;
    // Enqueue: the tail pointer's line moves to this core, the cell is written.
    yield* node.sim.sleep(softwareCosts.controlSideNs + line);
    node.trace.record({ rank: this.me, kind: 'control', label: `ctl->${to}`, start, end: node.sim.now, bytes: 0 });
    // The polling receiver sees the cell one line transfer later.
    this.world.deliver(this.me, to, 'ctl', value, line);
  }

  *recv(from: number): Program<unknown> {
    const { node } = this.world;
    const start = node.sim.now;
    const value = yield* this.world.receive(from, this.me, 'ctl');
    const waited = node.sim.now;
    yield* node.sim.sleep(softwareCosts.controlSideNs);
    node.trace.record({ rank: this.me, kind: 'wait', label: `ctl<-${from}`, start, end: waited, bytes: 0 });
    node.trace.record({ rank: this.me, kind: 'control', label: `ctl<-${from}`, start: waited, end: node.sim.now, bytes: 0 });
    return value;
  }

  *bcast<T>(root: number, value?: T): Program<T> {
    if (this.me === root) {
      for (let r = 0; r < this.world.size; r++) if (r !== root) yield* this.send(r, value);
      return value as T;
    }
    return (yield* this.recv(root)) as T;
  }

  *gather<T>(root: number, value?: T): Program<T[] | undefined> {
    if (this.me !== root) {
      yield* this.send(root, value);
      return undefined;
    }
    const all: T[] = [];
    for (let r = 0; r < this.world.size; r++) all[r] = r === root ? (value as T) : ((yield* this.recv(r)) as T);
    return all;
  }

  *allgather<T>(value: T): Program<T[]> {
    const all = yield* this.gather(0, value);
    return (yield* this.bcast<T[]>(0, all)) as T[];
  }

  *barrier(): Program<void> {
    yield* this.gather(0, null);
    yield* this.bcast(0, null);
  }
}
