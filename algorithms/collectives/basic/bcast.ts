// Broadcast of Open MPI's basic component (coll_basic_bcast.c). coll_basic_module.c picks, per
// communicator, the linear broadcast for at most `crossover` ranks (coll_basic_component.c:
// mca_coll_basic_crossover = 4, the same from 1.4 to 1.8) and the logarithmic one above:
// - linear (mca_coll_basic_bcast_lin_intra): every non-root rank receives from the root; the root
//   posts a send to each other rank and waits for all of them. The root's core performs every
//   copy-in, hence O(N T) (Ma et al. 2010, Table I);
// - logarithmic (mca_coll_basic_bcast_log_intra): a binomial tree over the hypercube of the ranks
//   renumbered from the root. A rank receives from the rank its highest bit cleared gives, then
//   posts its sends to the ranks each higher bit gives, nearest first, and waits for all of them.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import type { BcastArgs } from '../args.ts';
import { TAG } from '../tags.ts';

/** Ranks up to which basic broadcasts linearly (Open MPI coll_basic_component.c, `crossover`). */
export const BASIC_CROSSOVER = 4;

export function* basicBcast(rank: Rank, args: BcastArgs, tag: number = TAG.bcast): Program<void> {
  if (rank.size <= BASIC_CROSSOVER) yield* linearBcast(rank, args, tag);
  else yield* logBcast(rank, args, tag);
}

function* linearBcast(rank: Rank, { buffer, root }: BcastArgs, tag: number): Program<void> {
  if (rank.id !== root) {
    yield* rank.p2p.recv(root, buffer, tag);
    return;
  }
  const pending: Array<() => Program<void>> = [];
  for (let i = 0; i < rank.size; i++) {
    if (i === root) continue;
    pending.push(yield* rank.p2p.isend(i, buffer, tag));
  }
  for (const done of pending) yield* done();
}

function* logBcast(rank: Rank, { buffer, root }: BcastArgs, tag: number): Program<void> {
  const { size, vrank, real, dim } = hypercube(rank, root);
  const hibit = highestBit(vrank, dim);
  if (vrank > 0) yield* rank.p2p.recv(real(vrank & ~(1 << hibit)), buffer, tag);
  const pending: Array<() => Program<void>> = [];
  for (let i = hibit + 1; i < dim; i++) {
    const peer = vrank | (1 << i);
    if (peer < size) pending.push(yield* rank.p2p.isend(real(peer), buffer, tag));
  }
  for (const done of pending) yield* done();
}

/** The hypercube basic's logarithmic collectives run over: this rank's number counted from the
 *  root (`vrank`), the rank a virtual number names (`real`), and the cube's dimension. */
export function hypercube(rank: Rank, root: number) {
  const size = rank.size;
  return {
    size,
    vrank: (rank.id - root + size) % size,
    real: (v: number) => (v + root) % size,
    dim: cubeDim(size),
  };
}

/** The hypercube's dimension: the fewest bits that number every rank (opal_cube_dim). */
export function cubeDim(size: number): number {
  let dim = 0;
  while (1 << dim < size) dim++;
  return dim;
}

/** The highest bit set in `value` below bit `start`, or -1 when none is (opal_hibit). */
export function highestBit(value: number, start: number): number {
  for (let bit = start - 1; bit >= 0; bit--) if (value & (1 << bit)) return bit;
  return -1;
}

export const bcastBasic = defineAlgorithm({
  name: 'bcast:basic',
  operation: 'bcast',
  description:
    'Open MPI basic: linear up to 4 ranks (the root sends the whole buffer to every other rank), a binomial hypercube tree above',
  params: [],
  program: (rank: Rank, args: BcastArgs) => basicBcast(rank, args),
});
