// Open MPI's shared-memory BTL under the ob1 PML (seed 003 slide 10; Open MPI btl_sm). Each process
// keeps two free lists of fragments in shared memory, small (eager) and large (max); the sender
// takes a fragment, packs the data into it and writes a pointer to it into the receiver's FIFO; the
// receiver polls its FIFO, unpacks, and returns the fragment by writing its pointer into the
// sender's FIFO, which puts it back on the sender's free list.
//
// Messages up to the eager limit (the BTL's, less ob1's header) travel in one eager fragment.
// Larger ones use ob1's rendezvous: the RNDV header carries the first bytes, the receiver
// acknowledges once it has matched, and the rest follows as a pipeline of max-size fragments
// (packing fragment k+1 overlaps unpacking k), at most `sendPipelineDepth` of them in flight: ob1
// packs the next only when an earlier one's completion comes back through the sender's FIFO. The
// send completes when the last fragment's completion is back, not when it is posted.
//
// Open MPI 1.8-4.1's vader BTL adds a fast box per ordered pair of processes (fast-box.ts), set up
// once the sender has posted 16 fragments to that peer through its FIFO. From then on an eager
// message small enough goes there when it has room: no fragment, no FIFO write, nothing returned.
// The transport parameter `smFastBox` gives the limit, data and match header together
// (costs.fastBoxBytes, 0 by default: Open MPI 1.x's sm BTL has no fast box).
//
// Free lists start small and grow by a block of fragments when empty, with no maximum (Open MPI's
// default), and hand back the most recently returned fragment first: it is the one still in cache.
// A FIFO holds 4096 pointers by default, more than this model ever has in flight, so posting never
// waits for room.
import type { Program } from '../../engine/program.ts';
import { Semaphore } from '../../engine/semaphore.ts';
import { range, subRange, type Range } from '../../node/buffer.ts';
import type { World } from '../../node/world.ts';
import { lazily, RunState } from '../../node/run-state.ts';
import { smBtlCosts } from './costs.ts';
import { arrive, nextPacket } from './delivery.ts';
import { postPieces, unpackPieces } from './fragments.ts';
import { countFifoPost, FAST_BOX_HEADER_BYTES, placeInBox } from './fast-box.ts';
import { lineTransfer } from './lines.ts';
import {
  packetOf,
  payloadBytes,
  replyTo,
  traceKind,
  withKind,
  type Packet,
  type PacketHeader,
  type PacketKind,
} from './packet.ts';
import { step, traced, type DoubleCopy } from './transport.ts';

/** The calibration table with its sizes open to the run's transport parameters. */
export type SmBtlCosts = {
  readonly [K in keyof typeof smBtlCosts]: number;
};

interface FreeList {
  name: string;
  fragmentBytes: number;
  fragments: Range[];
  /** Indexes into `fragments`, most recently returned last. */
  free: number[];
}

/** A receiver's FIFO: senders serialise on its lock; the receiver reads the slots. */
interface Fifo {
  lockCore: number;
  readerCore: number;
}

/** Every process's free lists and FIFO of one run. */
const SM_BTL = new RunState('sm-btl', () => ({
  lists: new Map<number, { eager: FreeList; max: FreeList }>(),
  fifos: new Map<number, Fifo>(),
}));

/** The fragments rank `rank`'s eager free list has grown to (none before its first message). */
export function smEagerFragments(world: World, rank: number): number {
  return world.hasState(SM_BTL) ? (world.stateOf(SM_BTL).lists.get(rank)?.eager.fragments.length ?? 0) : 0;
}

/** Rank `rank`'s free list of `size` fragments: every fragment, and the free ones' indexes, the
 *  most recently returned last (empty until its first message). */
export function smFreeList(
  world: World,
  rank: number,
  size: 'eager' | 'max',
): { fragments: readonly Range[]; free: readonly number[] } {
  const list = world.hasState(SM_BTL) ? world.stateOf(SM_BTL).lists.get(rank)?.[size] : undefined;
  return { fragments: [...(list?.fragments ?? [])], free: [...(list?.free ?? [])] };
}

/** Rank `rank`'s two free lists (eager and max fragments), empty until its first message. */
function listsOf(world: World, costs: SmBtlCosts, rank: number): { eager: FreeList; max: FreeList } {
  return lazily(world.stateOf(SM_BTL).lists, rank, () => ({
    eager: { name: `sm eager frags r${rank}`, fragmentBytes: costs.eagerFragmentBytes, fragments: [], free: [] },
    max: { name: `sm max frags r${rank}`, fragmentBytes: costs.maxFragmentBytes, fragments: [], free: [] },
  }));
}

function fifoOf(world: World, rank: number): Fifo {
  return lazily(world.stateOf(SM_BTL).fifos, rank, () => ({
    lockCore: world.cores[rank],
    readerCore: world.cores[rank],
  }));
}

/** A free list grows by a block of fragments in shared memory (first the initial count). */
function grow(world: World, costs: SmBtlCosts, list: FreeList): void {
  const count = list.fragments.length === 0 ? costs.freeListInitial : costs.freeListIncrement;
  const block = world.node.allocate(`${list.name} #${list.fragments.length}`, count * list.fragmentBytes, -1);
  for (let i = 0; i < count; i++) {
    list.free.unshift(list.fragments.length);
    list.fragments.push(range(block, i * list.fragmentBytes, list.fragmentBytes));
  }
}

/** Line-transfer time of writing one pointer into `owner`'s FIFO from `writer`'s core. */
function fifoWrite(world: World, owner: number, writer: number): number {
  const f = fifoOf(world, owner);
  const w = world.cores[writer];
  const topo = world.node.topo;
  const cost = lineTransfer(topo, f.lockCore, w) + lineTransfer(topo, f.readerCore, w);
  f.lockCore = w;
  return cost;
}

/** A fragment taken from a free list. */
interface Taken {
  list: FreeList;
  index: number;
}

/** Takes the most recently returned fragment of `list`, growing the list when it is empty. */
function take(world: World, costs: SmBtlCosts, list: FreeList): Taken {
  if (list.free.length === 0) grow(world, costs, list);
  return { list, index: list.free.pop()! };
}

/**
 * One rendezvous's fragments in flight under ob1's throttle: `inFlight` holds a permit per
 * fragment that may still be sent. A sender waiting for one says how many bytes it will pack
 * (`waiting`); the completion that lets it go (`completed`, run for each fragment that comes back)
 * takes its fragment there and then (`reserved`), as ob1's callback packs the next fragment before
 * the BTL puts the returned one back.
 */
interface Throttle {
  inFlight: Semaphore;
  waiting: number | undefined;
  reserved: Taken | undefined;
  completed: () => void;
}

/** ob1's work on one side of a fragment: a message's first fragment is matched and starts or ends a
 *  request; an ACK or a later fragment names its request and skips all that (costs.ts). */
function sideNs(costs: SmBtlCosts, kind: PacketKind, side: 'send' | 'recv'): number {
  if (kind === 'cts' || kind === 'frag') return costs.followSideNs;
  return side === 'send' ? costs.sendSideNs : costs.recvSideNs;
}

/** The receiver writes the fragment's pointer into the sender's FIFO; the sender's progress sees
 *  it, runs ob1's completion callback (`completed`) and then puts it back on its free list
 *  (btl_sm_component.c, MCA_BTL_SM_FRAG_ACK). */
function* returnFragment(
  world: World,
  taken: Taken,
  sender: number,
  receiver: number,
  completed?: () => void,
): Program<void> {
  yield* step(world, receiver, 'queue', `return frag->${sender}`, fifoWrite(world, sender, receiver));
  world.sim.schedule(lineTransfer(world.node.topo, world.cores[receiver], world.cores[sender]), () => {
    completed?.();
    taken.list.free.push(taken.index);
  });
}

export function createSmBtl(world: World, me: number, costs: SmBtlCosts = smBtlCosts): DoubleCopy {
  const { node } = world;
  const topo = node.topo;
  const core = world.cores[me];
  const coreOf = (rank: number) => world.cores[rank];

  // ob1's data per fragment: what its headers leave of the BTL's fragments (costs.ts).
  const eagerLimit = costs.eagerFragmentBytes - costs.headerBytes;

  /** The free list a fragment of `bytes` comes from. */
  const listFor = (bytes: number): FreeList => {
    const mine = listsOf(world, costs, me);
    return bytes > eagerLimit ? mine.max : mine.eager;
  };

  /** A rendezvous's throttle to `to`; its completion, ob1's callback for a fragment that comes
   *  back, frees a permit and, when that lets the waiting sender go, takes the fragment it will pack. */
  const throttleTo = (to: number): Throttle => {
    const t: Throttle = {
      inFlight: new Semaphore(world.sim, `ob1 pipeline r${me}->${to}`, costs.sendPipelineDepth),
      waiting: undefined,
      reserved: undefined,
      completed: () => {
        if (t.waiting !== undefined && t.reserved === undefined) t.reserved = take(world, costs, listFor(t.waiting));
        t.inFlight.release();
      },
    };
    return t;
  };

  /** Packs `data` into a fragment from this process's free list (or the one `throttle` reserved)
   *  and posts it to the receiver's FIFO; under a throttle its return runs the completion. */
  function* postFragment(header: PacketHeader, data: Range | undefined, throttle?: Throttle): Program<void> {
    const bytes = data?.bytes ?? 0;
    const to = header.to;
    if (bytes > transport.capacity(header.kind))
      throw new RangeError(`sm btl: ${bytes} bytes do not fit one ${header.kind} fragment`);
    const kind = traceKind(header.kind);
    yield* step(world, me, kind, `post ${header.kind}->${to}`, sideNs(costs, header.kind, 'send'));
    const taken = throttle?.reserved ?? take(world, costs, listFor(bytes));
    if (throttle) throttle.reserved = undefined;
    const slot = subRange(taken.list.fragments[taken.index], 0, bytes);
    if (data && bytes > 0) yield* node.copy(core, data, slot, { rank: me, label: `pack frag->${to}` });
    yield* step(world, me, kind, `fifo write->${to}`, fifoWrite(world, to, me));
    // The sender sets up its fast box to this peer with its fbox_threshold-th FIFO write.
    if (costs.fastBoxBytes > 0) countFifoPost(world, costs, me, to);
    arrive(
      world,
      packetOf(header, slot, () => returnFragment(world, taken, me, to, throttle?.completed)),
      lineTransfer(topo, core, coreOf(to)),
    );
  }

  /** Sends an eager packet through the fast box to its receiver when it is small enough and the
   *  box is set up and has room; false when it must go by fragment. */
  function* postFastBox(header: PacketHeader, data: Range | undefined): Program<boolean> {
    const bytes = data?.bytes ?? 0;
    if (header.kind !== 'eager' || costs.matchHeaderBytes + bytes > costs.fastBoxBytes) return false;
    const to = header.to;
    const place = placeInBox(world, me, to, FAST_BOX_HEADER_BYTES + costs.matchHeaderBytes, bytes);
    if (place === undefined) return false;
    const kind = traceKind(header.kind);
    yield* step(world, me, kind, `post ${header.kind}->${to} (fast box)`, costs.sendSideNs);
    if (data && bytes > 0) yield* node.copy(core, data, place.slot, { rank: me, label: `fast box->${to}` });
    // The receiver takes the message by moving its read position: nothing goes back to the sender.
    const release = function* (): Program<void> {
      place.release();
    };
    arrive(world, packetOf(header, place.slot, release), lineTransfer(topo, core, coreOf(to)));
    return true;
  }

  /** ob1's work on a fragment it has polled: matching a message's first, finding an ACK's or a
   *  later fragment's request. */
  function* match(packet: Packet): Program<void> {
    yield* step(
      world,
      me,
      traceKind(packet.kind),
      `match ${packet.kind}<-${packet.from}`,
      sideNs(costs, packet.kind, 'recv'),
    );
  }

  /** Copies a polled fragment's data out and hands the fragment back to its sender. */
  function* unpackData(packet: Packet, into: Range | undefined): Program<void> {
    const bytes = payloadBytes(packet);
    if ((into?.bytes ?? 0) !== bytes) throw new RangeError(`sm btl: unpacking ${bytes} bytes into ${into?.bytes ?? 0}`);
    if (packet.payload && into && bytes > 0)
      yield* node.copy(core, packet.payload, into, { rank: me, label: `unpack frag<-${packet.from}` });
    yield* packet.release();
  }

  const transport: DoubleCopy = {
    protocol: 'sm',
    eagerLimit,

    capacity(kind: PacketKind): number {
      if (kind === 'eager') return eagerLimit;
      if (kind === 'rts') return Math.min(costs.rndvEagerBytes, eagerLimit);
      if (kind === 'frag') return costs.maxFragmentBytes - costs.fragHeaderBytes;
      return 0;
    },

    *post(header: PacketHeader, data?: Range): Program<void> {
      if (costs.fastBoxBytes > 0 && (yield* postFastBox(header, data))) return;
      yield* postFragment(header, data);
    },

    *unpack(packet: Packet, into?: Range): Program<void> {
      yield* match(packet);
      yield* unpackData(packet, into);
    },

    *sendLarge(header: PacketHeader, data: Range): Program<void> {
      const to = header.to;
      const first = Math.min(transport.capacity('rts'), data.bytes);
      yield* transport.post(withKind(header, 'rts'), subRange(data, 0, first));
      const ack = yield* traced(world, me, 'wait', `ack<-${to}`, nextPacket(world, header.id, me));
      yield* transport.unpack(ack);
      if (first >= data.bytes) return;
      // Everything after the first bytes goes by copy in and out, so ob1 throttles the fragments.
      const throttle = throttleTo(to);
      yield* postPieces(transport, header, data, first, 'frag', function* (piece, slice) {
        throttle.waiting = slice.bytes;
        yield* traced(world, me, 'wait', `pipeline depth->${to}`, throttle.inFlight.acquire());
        throttle.waiting = undefined;
        yield* postFragment(piece, slice, throttle);
      });
      // ob1 counts a fragment delivered only in its completion callback, which the sm BTL runs
      // when the receiver hands the fragment back (every fragment is sent with
      // MCA_BTL_DES_SEND_ALWAYS_CALLBACK), so the send completes once the last one is back. (The
      // rendezvous's first fragment counts as delivered when posted: the BTL reports it gone.)
      yield* traced(world, me, 'wait', `frag completions<-${to}`, throttle.inFlight.acquire(costs.sendPipelineDepth));
    },

    *recvLarge(rts: Packet, into: Range): Program<void> {
      const from = rts.from;
      const first = payloadBytes(rts);
      // ob1 acknowledges a rendezvous as soon as it has matched it, before it unpacks the first
      // bytes (mca_pml_ob1_recv_request_progress_rndv, pml_ob1_recvreq.c): the sender packs the
      // next fragments while the receiver unpacks these.
      yield* match(rts);
      yield* transport.post(replyTo(rts, 'cts'));
      yield* unpackData(rts, subRange(into, 0, first));
      yield* unpackPieces(world, transport, me, rts.id, from, into, first);
    },
  };

  return transport;
}
