// One-to-all: every other rank reads the root's buffer at the same time (the XPMEM/CMA one-to-all
// benchmark of Hashmi et al., seed 001). Over a single-copy mechanism the root exposes its buffer
// once (one reusable KNEM region, one XPMEM segment, one LiMIC descriptor, or just its address for
// CMA), sends the descriptor to every reader, and waits until all are done: the readers' copies
// then contend for the root's memory and, with CMA, queue on the root's address-space lock.
// Over `shm`/`auto` the root sends to every reader through the rank's point-to-point instead.
import type { OperationInfo } from '../operations.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import type { Program, Range, Rank } from '../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../semantics.ts';
import { checkSize, fillFresh, fillUninitialised, source } from '../fill.ts';
import { expectHolds } from './buffers.ts';
import { overTransports, type WithParams } from './over-transports.ts';
import { expose, pull, release, type Descriptor } from './rendezvous.ts';
import { modeOf, type Transport } from './transport.ts';

export interface OneToAllArgs extends WithParams {
  /** The root's data; on every other rank the buffer it reads into. */
  message: Range;
  root: number;
}

export const onetoallOperation: OperationInfo = {
  name: 'onetoall',
  description: "every rank reads the root's buffer at once",
  rooted: true,
};

export const onetoallSemantics: OperationSemantics<OneToAllArgs> = {
  operation: 'onetoall',
  setup(rank: Rank, call: OperationCall): OneToAllArgs {
    const bytes = checkSize('onetoall', call.bytes);
    if (!Number.isInteger(call.root) || call.root < 0 || call.root >= rank.size) {
      throw new Error(`onetoall: root ${call.root} is outside the communicator of ${rank.size} ranks`);
    }
    return { message: range(rank.alloc('msg', bytes)), root: call.root, params: { ...call.params } };
  },
  fill(rank: Rank, args: OneToAllArgs) {
    if (rank.id === args.root) fillFresh(args.message, source(rank.id, 'msg'));
    else fillUninitialised(args.message);
  },
  verify(args: OneToAllArgs[], call: OperationCall) {
    const expected = Content.fresh(call.bytes, source(call.root, 'msg'));
    args.forEach((a, r) => expectHolds(`onetoall: rank ${r}`, a.message, expected));
  },
};

export function* oneToAll(t: Transport, rank: Rank, { message, root, params }: OneToAllArgs): Program<void> {
  if (t.name === 'shm' || t.name === 'auto') {
    yield* sendToAll(t, rank, message, root);
    return;
  }
  const opts = { mode: t.name === 'knem' ? modeOf(params) : undefined, reusable: true };
  if (rank.id === root) {
    const descriptor = yield* expose(rank, t.name, message, opts);
    yield* rank.control.bcast(root, descriptor);
    yield* rank.control.gather(root, null);
    yield* release(rank, descriptor, opts);
  } else {
    const descriptor = yield* rank.control.bcast<Descriptor>(root);
    yield* pull(rank, root, descriptor, message, opts);
    yield* rank.control.gather(root, null);
  }
}

function* sendToAll(t: Transport, rank: Rank, message: Range, root: number): Program<void> {
  if (rank.id !== root) {
    yield* t.recv(rank, root, message);
    return;
  }
  const pending: Array<() => Program<void>> = [];
  for (let r = 0; r < rank.size; r++) if (r !== root) pending.push(yield* t.isend(rank, r, message));
  for (const done of pending) yield* done();
}

export const onetoallAlgorithms = overTransports('onetoall', "one-to-all read of the root's buffer", oneToAll);
