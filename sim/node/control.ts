// Small out-of-band messages over shared memory (cookies, "segment ready", "done"). Their cost is
// the library's bookkeeping on each side plus cache-line transfers between the two cores: that is
// what makes a control message cheap between cores sharing a cache and dearer across sockets.
import type { Program } from '../engine/program.ts';
import { LinearCollectives } from './linear-collectives.ts';
import type { World } from './world.ts';
import { softwareCosts } from './software-costs.ts';
import { flagPollingCosts } from './flag-polling.ts';

export class ControlChannel extends LinearCollectives {
  private readonly world: World;

  constructor(world: World, me: number) {
    super(me, world.size);
    this.world = world;
  }

  *send(to: number, value: unknown): Program<void> {
    const { node, cores } = this.world;
    const line = node.topo.lineLatency(cores[this.me], cores[to]);
    // Enqueue: the tail pointer's line moves to this core, the cell is written.
    const start = yield* libraryWork(this.world, this.me, softwareCosts.controlSideNs + line);
    node.trace.record({ rank: this.me, kind: 'control', label: `ctl->${to}`, start, end: node.sim.now, bytes: 0 });
    // The polling receiver sees the cell one line transfer later.
    this.world.deliver(this.me, to, 'ctl', value, line);
  }

  override *publish(readers: readonly number[], value: unknown): Program<void> {
    const { node, cores } = this.world;
    const flag = flagPollingCosts(
      (a, b) => node.topo.lineLatency(a, b),
      cores[this.me],
      readers.map((r) => cores[r]),
    );
    // The flag is written once, after every poller's copy is invalidated.
    const start = yield* libraryWork(this.world, this.me, softwareCosts.controlSideNs + flag.write);
    node.trace.record({
      rank: this.me,
      kind: 'control',
      label: `flag->${readers.join(',')}`,
      start,
      end: node.sim.now,
      bytes: 0,
    });
    readers.forEach((r, i) => this.world.deliver(this.me, r, 'ctl', value, flag.seen[i]));
  }

  *recv(from: number): Program<unknown> {
    const { node } = this.world;
    const start = node.sim.now;
    const value = yield* this.world.receive(from, this.me, 'ctl');
    const waited = yield* libraryWork(this.world, this.me, softwareCosts.controlSideNs);
    node.trace.record({ rank: this.me, kind: 'wait', label: `ctl<-${from}`, start, end: waited, bytes: 0 });
    node.trace.record({
      rank: this.me,
      kind: 'control',
      label: `ctl<-${from}`,
      start: waited,
      end: node.sim.now,
      bytes: 0,
    });
    return value;
  }
}

/** `ns` of the library's work on `rank`'s thread (Node.onRankThread); returns when it began, once
 *  the thread was free. */
export function* libraryWork(world: World, rank: number, ns: number): Program<number> {
  let began = world.sim.now;
  yield* world.node.onRankThread(
    rank,
    (function* () {
      began = world.sim.now;
      yield* world.sim.sleep(ns);
    })(),
  );
  return began;
}
