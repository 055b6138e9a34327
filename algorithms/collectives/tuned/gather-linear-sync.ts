// Synchronised linear gather (ompi_coll_base_gather_intra_linear_sync, coll_base_gather.c): for
// each rank in turn the root posts the receive of the first segment, sends a zero-byte "go", posts
// the receive of the rest and waits for the first segment before the next rank; the rank sends its
// first segment on the go and the rest right after. The remainders are waited for at the end, after
// the root's own block is copied.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { ParamInfo } from '../../algorithm.ts';
import { collBase } from './coll-base.ts';
import type { GatherArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { intParam } from '../params.ts';
import { empty, waitAll } from './common.ts';

const segsize: ParamInfo = {
  name: 'segsize',
  kind: 'bytes',
  default: 1024,
  min: 1,
  description: 'first-segment size (the fixed rules use 1 KiB for medium blocks, 32 KiB for large ones)',
};

export function* linearSyncGather(rank: Rank, args: GatherArgs): Program<void> {
  const { send, recv, bytes, root } = args;
  const first = Math.min(intParam(args.params, segsize, 'gather:linear-sync'), bytes);
  if (rank.id !== root) {
    yield* rank.p2p.recv(root, empty(rank), TAG.gather);
    yield* rank.p2p.send(root, subRange(send, 0, first), TAG.gather);
    yield* rank.p2p.send(root, subRange(send, first, bytes - first), TAG.gather);
    return;
  }
  const rest = [];
  for (let i = 0; i < rank.size; i++) {
    if (i === root) continue;
    const block = subRange(recv!, i * bytes, bytes);
    const head = yield* rank.p2p.irecv(i, subRange(block, 0, first), TAG.gather);
    yield* rank.p2p.send(i, empty(rank), TAG.gather);
    rest.push(yield* rank.p2p.irecv(i, subRange(block, first, bytes - first), TAG.gather));
    yield* head();
  }
  yield* rank.copy(send, subRange(recv!, root * bytes, bytes));
  yield* waitAll(rest);
}

export const gatherLinearSync = collBase(
  'gather',
  'linear-sync',
  'linear gather with a zero-byte handshake and a first segment per rank (Open MPI coll_base linear_sync)',
  linearSyncGather,
  {
    params: [segsize],
    test: { params: { segsize: { values: [100, 1000, 1024, 4096] } } },
  },
);
