// Recursive-doubling allgather (ompi_coll_base_allgather_intra_recursivedoubling; Thakur et al.
// 2005 §4.1): at step k partners at distance 2^k swap the 2^k contiguous blocks each holds, so the
// held span doubles. Power-of-two communicators only: Open MPI runs Bruck otherwise, and so does this.
import { subRange } from '../../../sim/node/buffer.ts';
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { collBase } from './coll-base.ts';
import type { AllgatherArgs } from '../args.ts';
import { bruckAllgather } from './allgather-bruck.ts';
import { TAG } from '../tags.ts';
import { isPow2 } from './common.ts';

export function* recursiveDoublingAllgather(rank: Rank, args: AllgatherArgs): Program<void> {
  const size = rank.size;
  const me = rank.id;
  if (!isPow2(size)) {
    yield* bruckAllgather(rank, args);
    return;
  }
  const { send, recv, bytes } = args;
  yield* rank.copy(send, subRange(recv, me * bytes, bytes));
  let held = me; // first block of the span this rank holds
  for (let distance = 1; distance < size; distance <<= 1) {
    const remote = me ^ distance;
    const into = me < remote ? held + distance : held - distance;
    yield* rank.p2p.sendrecv(
      remote,
      subRange(recv, held * bytes, distance * bytes),
      remote,
      subRange(recv, into * bytes, distance * bytes),
      TAG.allgather,
    );
    held = Math.min(held, into);
  }
}

export const allgatherRecursiveDoubling = collBase(
  'allgather',
  'recursive-doubling',
  'partners at distance 1, 2, 4... swap doubling spans; Bruck when N is not a power of two (Open MPI coll_base)',
  recursiveDoublingAllgather,
);
