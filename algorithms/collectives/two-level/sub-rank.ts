// A sub-communicator seen as a Rank: ranks are numbered by their position in `members` (world
// ranks), and every call that names a rank maps it back to the world. What a sub-communicator
// sends is kept apart from what the world and other sub-communicators send, as MPI keeps
// communicators apart by context id:
// - control messages travel in an envelope carrying the context; a receive takes the next
//   message of its own context from that peer and sets aside, in arrival order, the ones of other
//   contexts for their own receives;
// - point-to-point tags become tag * CONTEXTS + context, which no other context maps to
//   (sub-communicators of sub-communicators nest the same way).
// KNEM cookies, LiMIC descriptors and buffers name no rank and pass through unchanged.
import { LinearCollectives } from '../../../sim/node/linear-collectives.ts';
import { lazily, RunState } from '../../../sim/node/run-state.ts';
import type {
  Buffer,
  Cma,
  Control,
  Knem,
  Limic,
  PassAccess,
  PointToPoint,
  Program,
  Range,
  Rank,
  RankTopology,
  ReduceOp,
  Xpmem,
} from '../../../sim/node/rank-api.ts';

/** Contexts per level of nesting; context 0 is left to the enclosing communicator. */
export const CONTEXTS = 64;

class Envelope {
  constructor(
    readonly context: number,
    readonly value: unknown,
  ) {}
}

/** Messages that reached a control channel for another context, by channel and "from#context". */
const SET_ASIDE = new RunState('sub-communicator messages set aside', () => new Map<Control, Map<string, unknown[]>>());

export function subRank(rank: Rank, members: readonly number[], context: number): Rank {
  if (!Number.isInteger(context) || context < 1 || context >= CONTEXTS) {
    throw new Error(`subRank: context must be an integer from 1 to ${CONTEXTS - 1}, got ${context}`);
  }
  const seen = new Set<number>();
  for (const m of members) {
    if (!Number.isInteger(m) || m < 0 || m >= rank.size)
      throw new Error(`subRank: member ${m} is not a rank of a communicator of ${rank.size}`);
    if (seen.has(m)) throw new Error(`subRank: rank ${m} is listed twice in the members`);
    seen.add(m);
  }
  const id = members.indexOf(rank.id);
  if (id < 0) throw new Error(`subRank: rank ${rank.id} is not one of the members ${members.join(', ')}`);
  const size = members.length;
  const world = (r: number): number => {
    if (!Number.isInteger(r) || r < 0 || r >= size)
      throw new Error(`sub-communicator of ${size} ranks (context ${context}): no rank ${r}`);
    return members[r];
  };
  const tag = (t = 0) => t * CONTEXTS + context;

  const control = new SubControl(
    rank.control,
    id,
    size,
    world,
    context,
    lazily(rank.runState(SET_ASIDE), rank.control, () => new Map<string, unknown[]>()),
  );
  const parent = rank.p2p;
  const p2p: PointToPoint = {
    send: (to, data, t) => parent.send(world(to), data, tag(t)),
    recv: (from, into, t) => parent.recv(world(from), into, tag(t)),
    sendrecv: (to, data, from, into, t) => parent.sendrecv(world(to), data, world(from), into, tag(t)),
    isend: (to, data, t) => parent.isend(world(to), data, tag(t)),
    irecv: (from, into, t) => parent.irecv(world(from), into, tag(t)),
  };
  const cma: Cma = {
    readv: (target, local, remote) => rank.cma.readv(world(target), local, remote),
    writev: (target, local, remote) => rank.cma.writev(world(target), local, remote),
  };
  const xpmem: Xpmem = {
    make: (buffer) => rank.xpmem.make(buffer),
    attach: (owner, segid, offset, bytes) => rank.xpmem.attach(world(owner), segid, offset, bytes),
    detach: (view) => rank.xpmem.detach(view),
  };
  const t = rank.topology;
  const topology: RankTopology = {
    numaOf: (r) => t.numaOf(world(r)),
    packageOf: (r) => t.packageOf(world(r)),
    coreOf: (r) => t.coreOf(world(r)),
    shareCache: (a, b) => t.shareCache(world(a), world(b)),
    hops: (a, b) => t.hops(world(a), world(b)),
  };
  const knem: Knem = rank.knem;
  const limic: Limic = rank.limic;
  return {
    id,
    size,
    topology,
    now: () => rank.now(),
    sleep: (ns: number) => rank.sleep(ns),
    alloc: (name: string, bytes: number, opts?: { numa?: number }): Buffer => rank.alloc(name, bytes, opts),
    copy: (src: Range, dst: Range, label?: string) => rank.copy(src, dst, label),
    reduce: (op: ReduceOp, src: Range, dst: Range) => rank.reduce(op, src, dst),
    pass: (r: Range, access: PassAccess) => rank.pass(r, access),
    control,
    p2p,
    knem,
    cma,
    xpmem,
    limic,
    get mechanisms() {
      return rank.mechanisms;
    },
    mark: (kind: string, label: string) => rank.mark(kind, label),
    runState: (key) => rank.runState(key),
  };
}

/** The sub-communicator's control channel; its collective forms are the world's linear ones. */
class SubControl extends LinearCollectives {
  constructor(
    private readonly parent: Control,
    me: number,
    size: number,
    private readonly world: (r: number) => number,
    private readonly context: number,
    private readonly aside: Map<string, unknown[]>,
  ) {
    super(me, size);
  }

  send(to: number, value: unknown): Program<void> {
    return this.parent.send(this.world(to), new Envelope(this.context, value));
  }

  *recv(from: number): Program<unknown> {
    const { aside, context } = this;
    const source = this.world(from);
    const waiting = aside.get(`${source}#${context}`);
    if (waiting && waiting.length > 0) return waiting.shift();
    for (;;) {
      const got = yield* this.parent.recv(source);
      if (!(got instanceof Envelope)) {
        throw new Error(
          `sub-communicator (context ${context}): rank ${source} sent a control message outside any sub-communicator while one was expected here`,
        );
      }
      if (got.context === context) return got.value;
      const key = `${source}#${got.context}`;
      const list = aside.get(key);
      if (list) list.push(got.value);
      else aside.set(key, [got.value]);
    }
  }
}
