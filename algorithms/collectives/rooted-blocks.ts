// The call the rooted one-to-all and all-to-one transfers share (scatter, gather and their
// v-variants, over KNEM or CMA): block r of the root's buffer is counts[r] bytes at displs[r].
import type { Range } from '../../sim/node/rank-api.ts';

/** scatter: peers take their block from the root's buffer; gather: they put it there. */
export type RootedWay = 'scatter' | 'gather';

export interface RootedBlocks {
  way: RootedWay;
  root: number;
  /** The root's buffer of every block (scatter's send, gather's receive); on the root only. */
  shared: Range | undefined;
  /** This rank's block. */
  own: Range;
  counts: number[];
  displs: number[];
}

/** The root's buffer, or an Error naming the buffer MPI requires there. */
export function sharedAtRoot({ way, root, shared }: RootedBlocks): Range {
  if (!shared) throw new Error(`${way}: root ${root} has no ${way === 'scatter' ? 'send' : 'receive'} buffer`);
  return shared;
}
