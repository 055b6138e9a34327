// MPI_Bcast: the root's buffer reaches every rank's buffer.
import { range } from '../../../sim/node/buffer.ts';
import type { Rank } from '../../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../../semantics.ts';
import type { BcastArgs } from '../args.ts';
import { checkSize, fillFresh, fillUninitialised, source } from '../../fill.ts';
import { checkRoot, paramsOf } from './checks.ts';
import { expectBlocks, freshBlock } from './expect.ts';
import { noBytes } from './mpi-entry.ts';

export const bcastSemantics: OperationSemantics<BcastArgs> = {
  operation: 'bcast',
  returnsAtOnce: noBytes,
  setup(rank: Rank, call: OperationCall): BcastArgs {
    const bytes = checkSize('bcast', call.bytes);
    const root = checkRoot('bcast', call, rank.size);
    return { buffer: range(rank.alloc('buffer', bytes)), bytes, root, params: paramsOf(call) };
  },
  fill(rank: Rank, args: BcastArgs) {
    if (rank.id === args.root) fillFresh(args.buffer, source(args.root, 'buffer'));
    else fillUninitialised(args.buffer);
  },
  verify(args: BcastArgs[], call: OperationCall) {
    const src = source(call.root, 'buffer');
    args.forEach((a, r) =>
      expectBlocks(`bcast: rank ${r} buffer`, a.buffer, call.bytes, [
        freshBlock(`the root's data`, 0, src, 0, call.bytes),
      ]),
    );
  },
};
