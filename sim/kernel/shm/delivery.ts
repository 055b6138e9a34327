// Where packets land once the receiver can see them: a message's first packet goes to the
// receiver's matching; the later packets of a transfer (CTS, DONE, continuation fragments) go to
// that transfer's own box at the rank it is addressed to. Also hands out the per-pair sequence
// numbers and transfer ids, which are fixed when a send is called, so non-blocking sends keep
// their call order.
import { CANONICAL_STATE, type HasCanonicalState } from '../../../common/state-fingerprint.ts';
import { Channel } from '../../engine/channel.ts';
import type { Program } from '../../engine/program.ts';
import type { World } from '../../node/world.ts';
import { RunState } from '../../node/run-state.ts';
import { Matcher } from './matching.ts';
import { opensMessage, type Packet } from './packet.ts';

interface Registry extends HasCanonicalState {
  matchers: Map<number, Matcher<Packet>>;
  boxes: Map<string, Channel<unknown>>;
  seqs: Map<string, number>;
  nextId: number;
}

const DELIVERY = new RunState<Registry>('shm delivery', () => ({
  matchers: new Map(),
  boxes: new Map(),
  seqs: new Map(),
  nextId: 0,
  // A pair's sequence numbers matter only as the messages sent and not yet matched; transfer ids
  // only name boxes, so a box left open shows in `boxes` under its id.
  [CANONICAL_STATE](this: Registry): unknown {
    return {
      matchers: this.matchers,
      boxes: this.boxes,
      unmatched: [...this.seqs].map(([key, seq]) => {
        const [from, to] = key.split('>').map(Number);
        return [key, seq - (this.matchers.get(to)?.expectedSeq(from) ?? 0)];
      }),
    };
  },
}));

function registry(world: World): Registry {
  return world.stateOf(DELIVERY);
}

export function matcherOf(world: World, rank: number): Matcher<Packet> {
  const reg = registry(world);
  let m = reg.matchers.get(rank);
  if (!m) {
    m = new Matcher<Packet>(rank);
    reg.matchers.set(rank, m);
  }
  return m;
}

/** Sequence number and transfer id of a new message from `from` to `to`. */
export function newMessage(world: World, from: number, to: number): { seq: number; id: number } {
  const reg = registry(world);
  const key = `${from}>${to}`;
  const seq = reg.seqs.get(key) ?? 0;
  reg.seqs.set(key, seq + 1);
  return { seq, id: reg.nextId++ };
}

/** The packet becomes visible to its receiver `delay` ns from now. */
export function arrive(world: World, packet: Packet, delay: number): void {
  world.sim.schedule(delay, () => {
    if (opensMessage(packet.kind)) matcherOf(world, packet.to).arrive(packet);
    else box(world, `${packet.id}@${packet.to}`).put(packet);
  });
}

/** Puts a transport-private notice (an LMT chunk flag) in transfer `id`'s box at `rank` now; the
 *  caller delays it by the line transfer that makes it visible, on timers of its own (lmt-train.ts). */
export function putNotice(world: World, id: number, rank: number, topic: string, value: unknown): void {
  box(world, `${id}@${rank}#${topic}`).put(value);
}

/** Next packet of transfer `id` addressed to `rank`. */
export function* nextPacket(world: World, id: number, rank: number): Program<Packet> {
  return (yield* take(world, `${id}@${rank}`)) as Packet;
}

/** Next notice on `topic` of transfer `id` at `rank`. */
export function* nextNotice(world: World, id: number, rank: number, topic: string): Program<unknown> {
  return yield* take(world, `${id}@${rank}#${topic}`);
}

function* take(world: World, key: string): Program<unknown> {
  const value = yield* box(world, key).get();
  // One consumer per box: an empty box is dropped so that long runs keep no dead boxes.
  const reg = registry(world);
  if (reg.boxes.get(key)?.length === 0) reg.boxes.delete(key);
  return value;
}

function box(world: World, key: string): Channel<unknown> {
  const reg = registry(world);
  let b = reg.boxes.get(key);
  if (!b) {
    b = new Channel<unknown>(`shm transfer ${key}`);
    reg.boxes.set(key, b);
  }
  return b;
}
