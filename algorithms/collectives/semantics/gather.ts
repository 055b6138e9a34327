// MPI_Gather and MPI_Gatherv: rank r's send buffer lands as block r of the root's receive buffer.
import { range } from '../../../sim/node/buffer.ts';
import type { Rank } from '../../../sim/node/rank-api.ts';
import { registerSemantics, type OperationCall } from '../../semantics.ts';
import type { GatherArgs, GathervArgs } from '../args.ts';
import { checkBytes, checkRoot, fillFresh, fillUninitialised, paramsOf, source } from './checks.ts';
import { expectBlocks, expectUnchanged, freshBlock } from './expect.ts';
import { displacements, extent, vCounts } from './vcounts.ts';

registerSemantics({
  operation: 'gather',
  setup(rank: Rank, call: OperationCall): GatherArgs {
    const bytes = checkBytes('gather', call);
    const root = checkRoot('gather', call, rank.size);
    const recv = rank.id === root ? range(rank.alloc('recv', bytes * rank.size)) : undefined;
    return { send: range(rank.alloc('send', bytes)), recv, bytes, root, params: paramsOf(call) };
  },
  fill(rank: Rank, args: GatherArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    if (args.recv) fillUninitialised(args.recv);
  },
  verify(args: GatherArgs[], call: OperationCall) {
    const n = args.length;
    args.forEach((a, r) => expectUnchanged(`gather: rank ${r} send`, a.send, source(r, 'send'), call.bytes));
    const blocks = args.map((_, r) => freshBlock(`block from rank ${r}`, r * call.bytes, source(r, 'send'), 0, call.bytes));
    expectBlocks(`gather: root ${call.root} recv`, args[call.root].recv, n * call.bytes, blocks);
  },
});

function layout(call: OperationCall, n: number) {
  const counts = vCounts('gatherv', call, n);
  const displs = displacements('gatherv', call, 'displs', counts, true);
  return { counts, displs, recvBytes: extent(counts, displs) };
}

registerSemantics({
  operation: 'gatherv',
  setup(rank: Rank, call: OperationCall): GathervArgs {
    checkBytes('gatherv', call);
    const root = checkRoot('gatherv', call, rank.size);
    const { counts, displs, recvBytes } = layout(call, rank.size);
    const recv = rank.id === root ? range(rank.alloc('recv', recvBytes)) : undefined;
    return { send: range(rank.alloc('send', counts[rank.id])), recv, counts, displs, root, params: paramsOf(call) };
  },
  fill(rank: Rank, args: GathervArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    if (args.recv) fillUninitialised(args.recv);
  },
  verify(args: GathervArgs[], call: OperationCall) {
    const { counts, displs, recvBytes } = layout(call, args.length);
    args.forEach((a, r) => expectUnchanged(`gatherv: rank ${r} send`, a.send, source(r, 'send'), counts[r]));
    const blocks = args.map((_, r) => freshBlock(`block from rank ${r}`, displs[r], source(r, 'send'), 0, counts[r]));
    expectBlocks(`gatherv: root ${call.root} recv`, args[call.root].recv, recvBytes, blocks);
  },
});
