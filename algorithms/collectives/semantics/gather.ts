// MPI_Gather and MPI_Gatherv: rank r's send buffer lands as block r of the root's receive buffer.
import { range } from '../../../sim/node/buffer.ts';
import type { Rank } from '../../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../../semantics.ts';
import type { GatherArgs, GathervArgs } from '../args.ts';
import { fillFresh, fillUninitialised, source } from '../../fill.ts';
import { paramsOf } from './checks.ts';
import { expectBlocks, expectUnchanged, freshBlock } from './expect.ts';
import { rootedLayout, setupRooted, setupRootedV } from './rooted.ts';
import { noBytes } from './mpi-entry.ts';

export const gatherSemantics: OperationSemantics<GatherArgs> = {
  operation: 'gather',
  returnsAtOnce: noBytes,
  setup(rank: Rank, call: OperationCall): GatherArgs {
    const { bytes, root, rooted: recv } = setupRooted(rank, call, 'gather');
    return { send: range(rank.alloc('send', bytes)), recv, bytes, root, params: paramsOf(call) };
  },
  fill(rank: Rank, args: GatherArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    if (args.recv) fillUninitialised(args.recv);
  },
  verify(args: GatherArgs[], call: OperationCall) {
    const n = args.length;
    args.forEach((a, r) => expectUnchanged(`gather: rank ${r} send`, a.send, source(r, 'send'), call.bytes));
    const blocks = args.map((_, r) =>
      freshBlock(`block from rank ${r}`, r * call.bytes, source(r, 'send'), 0, call.bytes),
    );
    expectBlocks(`gather: root ${call.root} recv`, args[call.root].recv, n * call.bytes, blocks);
  },
};

export const gathervSemantics: OperationSemantics<GathervArgs> = {
  operation: 'gatherv',
  setup(rank: Rank, call: OperationCall): GathervArgs {
    const { root, counts, displs, rooted: recv } = setupRootedV(rank, call, 'gatherv');
    return { send: range(rank.alloc('send', counts[rank.id])), recv, counts, displs, root, params: paramsOf(call) };
  },
  fill(rank: Rank, args: GathervArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    if (args.recv) fillUninitialised(args.recv);
  },
  verify(args: GathervArgs[], call: OperationCall) {
    const { counts, displs, bytes: recvBytes } = rootedLayout('gatherv', call, args.length);
    args.forEach((a, r) => expectUnchanged(`gatherv: rank ${r} send`, a.send, source(r, 'send'), counts[r]));
    const blocks = args.map((_, r) => freshBlock(`block from rank ${r}`, displs[r], source(r, 'send'), 0, counts[r]));
    expectBlocks(`gatherv: root ${call.root} recv`, args[call.root].recv, recvBytes, blocks);
  },
};
