// Reduce of Open MPI's basic component (coll_basic_reduce.c). coll_basic_module.c picks, per
// communicator, the linear reduce for at most `crossover` ranks and the logarithmic one above
// (bcast.ts gives the source); the logarithmic one falls back to the linear one for a
// non-commutative operation, and every operation of the model is commutative.
// - linear (mca_coll_basic_reduce_lin_intra): every non-root rank sends its buffer to the root. The
//   root starts from rank N-1's data and receives from each rank in turn, N-2 down to 0, reducing
//   each into the result as it arrives, so the result is s0 op (s1 op (... op s(N-1))), MPI's
//   canonical order.
// - logarithmic (mca_coll_basic_reduce_log_intra): over the hypercube of the ranks renumbered from
//   the root, a rank receives from the ranks each of its low zero bits gives, reducing into an
//   accumulator, until the first bit it has set: it sends the accumulator to the rank that bit
//   cleared gives, and is done. The root copies its accumulator into the result.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { ReduceArgs } from '../args.ts';
import { TAG } from '../tags.ts';
import { BASIC_CROSSOVER, hypercube } from './bcast.ts';

export function* basicReduce(rank: Rank, args: ReduceArgs, tag: number = TAG.reduce): Program<void> {
  if (rank.size <= BASIC_CROSSOVER) yield* linearReduce(rank, args, tag);
  else yield* logReduce(rank, args, tag);
}

function* linearReduce(rank: Rank, { send, recv, bytes, op, root }: ReduceArgs, tag: number): Program<void> {
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

function* logReduce(rank: Rank, { send, recv, bytes, op, root }: ReduceArgs, tag: number): Program<void> {
  const { size, vrank, real, dim } = hypercube(rank, root);
  // Open MPI allocates the accumulator per call, and a receive buffer for the second and later
  // terms on the ranks that receive more than one (even virtual ranks); the root receives those
  // into its result buffer.
  const accumulator = range(rank.alloc('reduce-accumulator', bytes));
  const later = rank.id === root ? recv! : vrank % 2 === 0 ? range(rank.alloc('reduce-incoming', bytes)) : undefined;
  let sending = send;
  let receiving = accumulator;
  for (let bit = 0; bit < dim; bit++) {
    const mask = 1 << bit;
    if (vrank & mask) {
      yield* rank.p2p.send(real(vrank & ~mask), sending, tag);
      break;
    }
    const peer = vrank | mask;
    if (peer >= size) continue;
    yield* rank.p2p.recv(real(peer), receiving, tag);
    if (sending !== send) yield* rank.reduce(op, receiving, accumulator);
    else {
      // The first term landed in the accumulator: fold in the rank's own data, then send from there.
      yield* rank.reduce(op, send, accumulator);
      sending = accumulator;
      receiving = later!;
    }
  }
  if (vrank === 0) yield* rank.copy(sending, recv!, 'reduce result');
}

export const reduceBasic = defineAlgorithm({
  name: 'reduce:basic',
  operation: 'reduce',
  description:
    'Open MPI basic: linear up to 4 ranks (the root receives from every rank in turn), a binomial hypercube tree above',
  params: [],
  program: (rank: Rank, args: ReduceArgs) => basicReduce(rank, args),
});
