// Neighbour-exchange allgather (ompi_coll_base_allgather_intra_neighborexchange; Chen et al.,
// "Performance evaluation of allgather algorithms on terascale Linux cluster with fast Ethernet",
// 2005). Even N only (Open MPI runs the ring otherwise, and so does this): ranks pair up with
// alternating neighbours; the first step swaps one block, each of the N/2 - 1 later steps swaps the
// two blocks received in the step before.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AllgatherArgs } from '../args.ts';
import { ringAllgather } from './allgather-ring.ts';
import { TAG } from '../tags.ts';

export function* neighborExchangeAllgather(rank: Rank, args: AllgatherArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  if (size % 2 !== 0) {
    yield* ringAllgather(rank, args);
    return;
  }
  const { send, recv, bytes } = args;
  const even = me % 2 === 0;
  const neighbor = even ? [(me + 1) % size, (me - 1 + size) % size] : [(me - 1 + size) % size, (me + 1) % size];
  const recvDataFrom = even ? [me, me] : [neighbor[0], neighbor[0]];
  const offsetAtStep = even ? [2, -2] : [-2, 2];

  yield* rank.copy(send, subRange(recv, me * bytes, bytes));
  yield* rank.p2p.sendrecv(
    neighbor[0],
    subRange(recv, me * bytes, bytes),
    neighbor[0],
    subRange(recv, neighbor[0] * bytes, bytes),
    TAG.allgather,
  );
  let sendDataFrom = even ? me : recvDataFrom[0];
  for (let i = 1; i < size / 2; i++) {
    const parity = i % 2;
    recvDataFrom[parity] = (recvDataFrom[parity] + offsetAtStep[parity] + size) % size;
    yield* rank.p2p.sendrecv(
      neighbor[parity],
      subRange(recv, sendDataFrom * bytes, 2 * bytes),
      neighbor[parity],
      subRange(recv, recvDataFrom[parity] * bytes, 2 * bytes),
      TAG.allgather,
    );
    sendDataFrom = recvDataFrom[parity];
  }
}

export const allgatherNeighborExchange = collBase(
  'allgather',
  'neighbor-exchange',
  'N/2 steps swapping block pairs with alternating neighbours; ring when N is odd (Open MPI coll_base, Chen et al. 2005)',
  neighborExchangeAllgather,
  { test: { maxRanks: 40 } },
);
