// Linear reduce of Open MPI's basic component (ompi_coll_base_reduce_intra_basic_linear): every
// non-root rank sends its buffer to the root. The root starts from rank N-1's data and receives
// from each rank in turn, N-2 down to 0, reducing each into the result as it arrives, so the result
// is s0 op (s1 op (... op s(N-1))), MPI's canonical order (right for non-commutative operations).
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { ReduceArgs } from '../args.ts';
import { TAG } from '../tags.ts';

export function* basicReduce(
  rank: Rank,
  { send, recv, bytes, op, root }: ReduceArgs,
  tag: number = TAG.reduce,
): Program<void> {
  const n = rank.size;
  if (rank.id !== root) {
    yield* rank.p2p.send(root, send, tag);
    return;
  }
  const result = recv!;
  if (rank.id === n - 1) yield* rank.copy(send, result, 'reduce own data');
  else yield* rank.p2p.recv(n - 1, result, tag);
  // Open MPI allocates the receive buffer for incoming terms per call.
  const incoming = n > 1 ? range(rank.alloc('reduce-incoming', bytes)) : undefined;
  for (let i = n - 2; i >= 0; i--) {
    let term = send;
    if (i !== rank.id) {
      yield* rank.p2p.recv(i, incoming!, tag);
      term = incoming!;
    }
    yield* rank.reduce(op, term, result);
  }
}

export const reduceBasic = defineAlgorithm({
  name: 'reduce:basic',
  operation: 'reduce',
  description: 'linear (Open MPI basic): the root receives from every rank in turn and reduces each term as it arrives',
  params: [],
  program: (rank: Rank, args: ReduceArgs) => basicReduce(rank, args),
});
