// What MPI_Scatter(v) and MPI_Gather(v) share: one buffer of every rank's block that only the root
// holds (the scatter's send, the gather's receive); the v-variants lay it out by per-rank counts
// and displacements.
import { range } from '../../../sim/node/buffer.ts';
import type { Range, Rank } from '../../../sim/node/rank-api.ts';
import type { OperationCall } from '../../semantics.ts';
import { checkSize } from '../../fill.ts';
import { checkRoot } from './checks.ts';
import { vLayout } from './vcounts.ts';

export type RootedV = 'scatterv' | 'gatherv';

/** The layout of the root's buffer. The root only reads scatterv's send buffer, so MPI lets its
 *  blocks overlap; gatherv's receive blocks must not. */
export function rootedLayout(
  operation: RootedV,
  call: OperationCall,
  n: number,
): { counts: number[]; displs: number[]; bytes: number } {
  return vLayout(operation, call, n, operation === 'gatherv');
}

/** Checks the call; allocates the root's buffer ('send' or 'recv') on the root alone. */
export function setupRootedV(
  rank: Rank,
  call: OperationCall,
  operation: RootedV,
): { root: number; counts: number[]; displs: number[]; rooted: Range | undefined } {
  checkSize(operation, call.bytes);
  const root = checkRoot(operation, call, rank.size);
  const { counts, displs, bytes } = rootedLayout(operation, call, rank.size);
  const rooted = rank.id === root ? range(rank.alloc(operation === 'scatterv' ? 'send' : 'recv', bytes)) : undefined;
  return { root, counts, displs, rooted };
}

/** Checks the call; allocates the root's buffer of `size` equal blocks on the root alone. */
export function setupRooted(
  rank: Rank,
  call: OperationCall,
  operation: 'scatter' | 'gather',
): { bytes: number; root: number; rooted: Range | undefined } {
  const bytes = checkSize(operation, call.bytes);
  const root = checkRoot(operation, call, rank.size);
  const rooted =
    rank.id === root ? range(rank.alloc(operation === 'scatter' ? 'send' : 'recv', bytes * rank.size)) : undefined;
  return { bytes, root, rooted };
}
